/**
 * Puts faults on a reference node (TEST-ONLY, docs/faults.md): the composition roots (`chainrpc node
 * --fault`, the devnet's nodes, the tests) call these; the node itself knows no fault. Each fault's
 * bend is applied in catalogue order: settings first, then each seam (transport rules, chain rules,
 * the method table, the node hooks) as the composition of the faults that bend it. A node process also
 * gives what a fault may do to the process (FaultProcess: `crash`); in-process, nothing is given.
 */
import type { NodeOptions } from '../node/ReferenceNode.js';
import type { NodeVariant } from '../node/NodeVariant.js';
import type { RpcServerOptions } from '../rpc/createRpcServer.js';
import { REFERENCE_TRANSPORT_RULES } from '../rpc/TransportRules.js';
import type { FaultBend, FaultProcess } from './bends.js';
import { FaultSet, faultWarning } from './faultCatalogue.js';

/**
 * The faults as one node variant: each seam the composition of the bends of the faults that touch it.
 * `proc`: what the faults may do to the node's process (nothing, in-process).
 */
export function faultVariant(faults: FaultSet, proc: FaultProcess = {}): NodeVariant {
  const bends: NodeVariant[] = faults.faults.flatMap((f) => seamsOf(f.bend, proc));
  const methodSteps = bends.flatMap((b) => (b.methods === undefined ? [] : [b.methods]));
  const nodeSteps = bends.flatMap((b) => (b.node === undefined ? [] : [b.node]));
  return {
    transport: compose(bends.flatMap((b) => (b.transport === undefined ? [] : [b.transport]))),
    chain: compose(bends.flatMap((b) => (b.chain === undefined ? [] : [b.chain]))),
    methods: methodSteps.length === 0 ? undefined : (table, node) => methodSteps.reduce((t, step) => step(t, node), table),
    node: nodeSteps.length === 0 ? undefined : (hooks, node) => nodeSteps.reduce((h, step) => step(h, node), hooks),
  };
}

/** A fault's seams: its bend's own, then those it bends with the process in hand (ofProcess). */
function seamsOf(bend: FaultBend, proc: FaultProcess): NodeVariant[] {
  return bend.ofProcess === undefined ? [bend] : [bend, bend.ofProcess(proc)];
}

/** Steps over one seam, one after the other; undefined when there are none (the seam is left honest). */
function compose<T>(steps: ((value: T) => T)[]): ((value: T) => T) | undefined {
  return steps.length === 0 ? undefined : (value) => steps.reduce((v, step) => step(v), value);
}

/**
 * A node's options with faults on: the settings the faults override, and the variant they make. Names
 * are validated (UnknownFaultError lists the known ones); with faults, a warning naming them is logged
 * at once. No fault: the options as they are. `proc`: given by a node process only (`chainrpc node`:
 * `crash`, for a fault that kills its node); in-process, such a fault only stops the node serving.
 */
export function withFaults(options: NodeOptions, names: Iterable<string> | FaultSet, proc: FaultProcess = {}): NodeOptions {
  const faults = names instanceof FaultSet ? names : FaultSet.parse(names);
  if (faults.size === 0) return options;
  const out: NodeOptions = { ...options, variant: faultVariant(faults, { log: options.log, ...proc }) };
  for (const { bend } of faults.faults) {
    const s = bend.settings;
    if (s === undefined) continue;
    if (s.maxBodyBytes !== undefined) out.maxBodyBytes = s.maxBodyBytes;
    if (s.maxBatch !== undefined) out.maxBatch = s.maxBatch;
    if (s.faucetLimit !== undefined && out.faucet !== false) out.faucet = { ...out.faucet, limit: s.faucetLimit };
  }
  options.log(faultWarning(faults));
  return out;
}

/**
 * A bare RPC server's options with the transport faults on (its methods are not a node's: the method
 * bends that need a node are left out, the ones over every method, such as stack-trace-leak, apply).
 */
export function rpcServerWithFaults(options: RpcServerOptions, faults: FaultSet): RpcServerOptions {
  const variant = faultVariant(faults);
  const out: { -readonly [K in keyof RpcServerOptions]: RpcServerOptions[K] } = { ...options };
  if (variant.transport) out.rules = variant.transport(options.rules ?? REFERENCE_TRANSPORT_RULES);
  if (variant.methods) out.methods = variant.methods(options.methods, NO_NODE);
  for (const { bend } of faults.faults) {
    if (bend.settings?.maxBodyBytes !== undefined) out.maxBodyBytes = bend.settings.maxBodyBytes;
    if (bend.settings?.maxBatch !== undefined) out.maxBatch = bend.settings.maxBatch;
  }
  return out;
}

/** The node a bare server does not have: any use of it fails loudly (only per-method bends use it, on methods a bare table lacks). */
const NO_NODE = new Proxy({} as Parameters<NonNullable<NodeVariant['methods']>>[1], {
  get(_target, key) {
    throw new Error(`a fault bend used node.${String(key)} on a bare RPC server, which has no node`);
  },
});
