/**
 * Fault injection, TEST-ONLY: the catalogue of deliberate deviations a reference node can be started
 * with (`chainrpc node --fault <name>`, `ReferenceNode.start(withFaults(options, faults))`). Each fault makes the node
 * break exactly one rule of the interface spec, JSON-RPC 2.0 or the reference profile, visibly
 * through JSON-RPC over HTTP, so that the conformance suite can be proven: every conformance fault
 * (CONFORMANCE_FAULTS) must be caught by at least one check, and every check must fail on one. The
 * robustness faults (robustness.ts, ROBUSTNESS_FAULTS) prove the fuzzer instead: each is set off by one
 * input the conformance catalogue is not built to look for, and the fault matrix leaves them out; so are the
 * resilience faults (resilience.ts), which prove `chainrpc load --chaos`: each shows only when a member fails. Never use a
 * faulty node for anything else. Each fault is one object of its category's file (transport.ts,
 * methods.ts, chain.ts, state.ts, pou.ts, network.ts, discovery.ts, robustness.ts, resilience.ts): its description, level
 * and how it bends a seam of the node; applyFaults.ts puts them on a node. The table: docs/faults.md.
 */

import { CHAIN_FAULTS } from './chain.js';
import { DISCOVERY_FAULTS } from './discovery.js';
import { METHODS_FAULTS } from './methods.js';
import { NETWORK_FAULTS } from './network.js';
import { POU_FAULTS } from './pou.js';
import { RESILIENCE_FAULTS as RESILIENCE } from './resilience.js';
import { ROBUSTNESS_FAULTS as ROBUSTNESS } from './robustness.js';
import type { RobustnessFault } from './robustness.js';
import { STATE_FAULTS } from './state.js';
import { TRANSPORT_FAULTS } from './transport.js';
import type { Fault } from './bends.js';
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';

export type { Fault, FaultCategory, FaultInfo, FaultLevel, FaultProcess } from './bends.js';
export type { FuzzOracle, RobustnessFault } from './robustness.js';

const CONFORMANCE = [...TRANSPORT_FAULTS, ...METHODS_FAULTS, ...CHAIN_FAULTS, ...STATE_FAULTS, ...POU_FAULTS, ...NETWORK_FAULTS, ...DISCOVERY_FAULTS] as const;
const CATALOGUE = [...CONFORMANCE, ...ROBUSTNESS, ...RESILIENCE] as const;

/** A fault's name; FaultSet.has takes this type, so a misspelt name is a compile error. */
export type FaultName = (typeof CATALOGUE)[number]['name'];

/** The name of a fault that proves the conformance suite (every category but robustness). */
export type ConformanceFaultName = (typeof CONFORMANCE)[number]['name'];

/** The name of a fault that proves the fuzzer (category robustness). */
export type RobustnessFaultName = (typeof ROBUSTNESS)[number]['name'];

/** Every fault, by category, in documentation order. Names are stable: checks, tests and docs refer to them. */
export const FAULT_CATALOGUE: readonly Fault[] = CATALOGUE;

/** The faults that prove the conformance suite: the fault matrix runs these, and only these. */
export const CONFORMANCE_FAULTS: readonly Fault[] = CONFORMANCE;

/** The faults that prove the fuzzer (robustness.ts): one input each sets them off; the fault matrix leaves them out. */
export const ROBUSTNESS_FAULTS: readonly RobustnessFault[] = ROBUSTNESS;

/** The faults that prove the measures of a run with faults (resilience.ts): each shows only when a member fails; the fault matrix leaves them out. */
export const RESILIENCE_FAULTS: readonly Fault[] = RESILIENCE;

export const FAULT_NAMES: readonly FaultName[] = CATALOGUE.map((f) => f.name);

/** A fault name that is not in the catalogue; the message lists every known one. */
export class UnknownFaultError extends ChainrpcError {
  readonly kind = 'usage';
  constructor(readonly unknown: readonly string[]) {
    super(
      `unknown fault${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => JSON.stringify(n)).join(', ')}; known faults: ${FAULT_NAMES.join(', ')} (see docs/faults.md)`,
    );
    this.name = 'UnknownFaultError';
  }
}

const KNOWN: ReadonlySet<string> = new Set(FAULT_NAMES);

/** A set of fault names, validated against the catalogue; applyFaults.ts turns it into a node variant. */
export class FaultSet {
  static readonly none = new FaultSet([]);
  private readonly set: ReadonlySet<FaultName>;

  private constructor(names: readonly FaultName[]) {
    this.set = new Set(names);
  }

  /**
   * Validates names (each entry may be a comma-separated list; blanks are ignored). Throws
   * UnknownFaultError, naming every unknown entry and listing the known ones.
   */
  static parse(entries: Iterable<string>): FaultSet {
    const names: string[] = [];
    for (const entry of entries) for (const part of entry.split(',')) if (part.trim() !== '') names.push(part.trim());
    const unknown = names.filter((n) => !KNOWN.has(n));
    if (unknown.length > 0) throw new UnknownFaultError(unknown);
    return names.length === 0 ? FaultSet.none : new FaultSet(names as FaultName[]);
  }

  has(name: FaultName): boolean {
    return this.set.has(name);
  }

  get size(): number {
    return this.set.size;
  }

  /** The active faults, in catalogue order. */
  get names(): FaultName[] {
    return FAULT_NAMES.filter((n) => this.set.has(n));
  }

  /** The active faults' catalogue entries, in catalogue order. */
  get faults(): Fault[] {
    return FAULT_CATALOGUE.filter((f) => this.set.has(f.name as FaultName));
  }
}

/** The catalogue entry of a fault. */
export function faultInfo(name: FaultName): Fault {
  const info = FAULT_CATALOGUE.find((f) => f.name === name);
  if (!info) throw new UnknownFaultError([name]);
  return info;
}

/** The warning a faulty node logs at start. */
export function faultWarning(faults: FaultSet): string {
  return `WARNING: FAULT INJECTION ACTIVE (${faults.names.join(', ')}): this node is deliberately wrong. TEST-ONLY: use it for nothing but proving the conformance suite (docs/faults.md).`;
}
