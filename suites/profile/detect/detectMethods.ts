import { SPEC_PREFIX, wireMethod } from '../Profile.js';
import { describeOutcome } from './describe.js';
import { fallback, given, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { matchMethodNames, SPEC_METHODS, specSuffix } from './matchMethodNames.js';
import type { SpecMethod } from './matchMethodNames.js';
import { isObject } from './Prober.js';
import type { CallOutcome, Prober } from './Prober.js';

/** JSON-RPC 2.0 §5.1: "The method does not exist / is not available." */
export const METHOD_NOT_FOUND = -32601;

export interface MethodsDetected {
  methodPrefix: string;
  methodNames: Record<string, string>;
  /** The node's name for a spec method (through prefix and renames). */
  wire(spec: SpecMethod): string;
  /** Whether the node serves the method (a call answered with anything but -32601). */
  served(spec: SpecMethod): boolean;
  findings: Finding[];
}

/** Served: answered with anything but -32601 (an InvalidParams for the empty params counts: the method exists). */
const isServed = (o: CallOutcome): boolean => o.kind === 'result' || (o.kind === 'error' && o.code !== METHOD_NOT_FOUND);

/** The names rpc.discover lists (OpenRPC: result.methods[].name), or undefined when it is not served or not a document. */
function listedNames(outcome: CallOutcome): string[] | undefined {
  if (outcome.kind !== 'result' || !isObject(outcome.result) || !Array.isArray(outcome.result.methods)) return undefined;
  // Bounded: an OpenRPC document of a node lists tens of methods, never thousands.
  return outcome.result.methods.slice(0, 2000).flatMap((m) => (isObject(m) && typeof m.name === 'string' ? [m.name] : []));
}

/**
 * The node's method names: `--method-prefix` when given (each method checked), else matched from
 * rpc.discover's list (OpenRPC service discovery) when the node offers it, else the spec's own names.
 * Each name is then called with [] to see that it is served; methods that are not are reported with
 * the advice to pass --method-prefix.
 */
export async function detectMethods(prober: Prober, givenPrefix: string | undefined): Promise<MethodsDetected> {
  let methodPrefix = SPEC_PREFIX;
  let methodNames: Record<string, string> = {};
  let how: string;
  let basis: 'given' | 'discover' | 'spec';
  if (givenPrefix !== undefined) {
    methodPrefix = givenPrefix;
    how = `--method-prefix ${givenPrefix}`;
    basis = 'given';
  } else {
    const discover = await prober.call('rpc.discover', []);
    const listed = listedNames(discover);
    if (listed !== undefined && listed.length > 0) {
      const match = matchMethodNames(listed);
      methodPrefix = match.methodPrefix;
      methodNames = match.methodNames;
      const matched = SPEC_METHODS.filter((m) => match.wire[m] !== undefined).length;
      how = `rpc.discover lists ${listed.length} method(s); ${matched} of ${SPEC_METHODS.length} spec methods matched by suffix`;
      basis = 'discover';
    } else {
      how = `rpc.discover -> ${describeOutcome(discover)}; tried the spec's names`;
      basis = 'spec';
    }
  }
  const wire = (spec: SpecMethod): string => wireMethod({ methodPrefix, methodNames }, spec);
  const served = new Map<SpecMethod, boolean>();
  const missing: string[] = [];
  for (const spec of SPEC_METHODS) {
    let outcome = await prober.call(wire(spec), []);
    // A method rpc.discover did not list may still be served under the prefix or the spec's name.
    if (!isServed(outcome) && basis === 'discover') {
      for (const alt of [...new Set([methodPrefix + specSuffix(spec), spec])].filter((n) => n !== wire(spec) && spec.startsWith(SPEC_PREFIX))) {
        const retry = await prober.call(alt, []);
        if (isServed(retry)) {
          if (alt === methodPrefix + specSuffix(spec)) delete methodNames[spec];
          else methodNames[spec] = alt;
          outcome = retry;
          break;
        }
      }
    }
    served.set(spec, isServed(outcome));
    if (!isServed(outcome)) missing.push(`${wire(spec)} (${describeOutcome(outcome)})`);
  }
  const servedCount = SPEC_METHODS.filter((m) => served.get(m)).length;
  const summary = `${how}; ${servedCount} of ${SPEC_METHODS.length} answered with something other than -32601`;
  const findings: Finding[] = [];
  if (basis === 'given') {
    findings.push(given('methodPrefix', methodPrefix, summary));
  } else if (servedCount === 0) {
    findings.push(fallback('methodPrefix', methodPrefix, `${summary}: no method found; pass --method-prefix`));
  } else {
    findings.push(probed('methodPrefix', methodPrefix, basis === 'discover' && missing.length === 0 ? 'high' : 'medium', summary));
  }
  const renames = Object.entries(methodNames).map(([s, w]) => `${s} -> ${w}`);
  findings.push(
    servedCount === 0 && basis !== 'given'
      ? fallback('methodNames', methodNames, 'no method found')
      : probed('methodNames', methodNames, basis === 'discover' ? 'high' : 'medium', renames.length === 0 ? 'every method found is named by the prefix' : `renamed: ${renames.join(', ')}`),
  );
  if (missing.length > 0) {
    const advice = basis === 'given' ? 'check the prefix, or name them in methodNames' : 'pass --method-prefix <prefix> if the node names its methods otherwise, or name them in methodNames';
    findings.push(probed('methods', missing.map((m) => m.split(' ')[0] ?? m), 'high', `not served: ${missing.join('; ')}. The keys that need them stay at the reference defaults; ${advice}`, false));
    prober.progress(`methods: not found: ${missing.map((m) => m.split(' ')[0]).join(', ')} (${advice})`);
  }
  return { methodPrefix, methodNames, wire, served: (spec) => served.get(spec) === true, findings };
}
