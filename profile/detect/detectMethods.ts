import { SPEC_PREFIX, wireMethod } from '../Profile.js';
import { describeOutcome } from './describe.js';
import { fallback, given, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { faucetCandidates, matchMethodNames, SPEC_METHODS, specSuffix } from './matchMethodNames.js';
import type { SpecMethod } from './matchMethodNames.js';
import { LISTING_METHODS, listedNames, listedNamespaces, NAMESPACES_METHOD } from './methodListings.js';
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

/** How the names were found: given (--method-prefix), from a listing of methods, from rpc_modules' namespaces, or the spec's own. */
type Basis = 'given' | 'listing' | 'namespaces' | 'spec';

/** Most namespaces of rpc_modules tried as a prefix (each costs at most two calls). */
const MAX_NAMESPACES_TRIED = 8;
/** Spec methods no other interface has, so a namespace serving both is the node's prefix (not eth_, which serves eth_blockNumber). */
const NAMESPACE_PROOF = ['getBlockByHeight', 'health'] as const;

interface Names {
  methodPrefix: string;
  methodNames: Record<string, string>;
  basis: Basis;
  how: string;
}

/**
 * The node's names, found from outside: the first listing a node answers (rpc.discover, rpc_methods,
 * system.listMethods: matchMethodNames), else rpc_modules' namespaces, the first under which the node
 * serves two methods only this interface has; else the spec's own names.
 */
async function findNames(prober: Prober): Promise<Names> {
  const asked: string[] = [];
  for (const method of LISTING_METHODS) {
    const outcome = await prober.call(method, []);
    const listed = listedNames(method, outcome);
    if (listed !== undefined && listed.length > 0) {
      const match = matchMethodNames(listed);
      const matched = SPEC_METHODS.filter((m) => match.wire[m] !== undefined).length;
      return { methodPrefix: match.methodPrefix, methodNames: match.methodNames, basis: 'listing', how: `${method} lists ${listed.length} method(s); ${matched} of ${SPEC_METHODS.length} spec methods matched by name` };
    }
    asked.push(`${method} -> ${describeOutcome(outcome)}`);
  }
  const modules = await prober.call(NAMESPACES_METHOD, []);
  const namespaces = listedNamespaces(modules);
  for (const ns of (namespaces ?? []).slice(0, MAX_NAMESPACES_TRIED)) {
    const prefix = `${ns}_`;
    let proven = true;
    for (const suffix of NAMESPACE_PROOF) {
      if (!isServed(await prober.call(prefix + suffix, []))) {
        proven = false;
        break;
      }
    }
    if (proven) return { methodPrefix: prefix, methodNames: {}, basis: 'namespaces', how: `${NAMESPACES_METHOD} lists the namespaces ${namespaces?.join(', ')}; ${NAMESPACE_PROOF.map((m) => prefix + m).join(' and ')} are served` };
  }
  asked.push(`${NAMESPACES_METHOD} -> ${namespaces === undefined ? describeOutcome(modules) : `namespaces ${namespaces.join(', ') || '(none)'}, none serving ${NAMESPACE_PROOF.map((m) => `<ns>_${m}`).join(' and ')}`}`);
  return { methodPrefix: SPEC_PREFIX, methodNames: {}, basis: 'spec', how: `no method listing (${asked.join('; ')}); tried the spec's names` };
}

/**
 * The node's method names: `--method-prefix` when given (each method checked), else found from a
 * listing the node offers (findNames), else the spec's own names. Each name is then called with [] to
 * see that it is served; a faucet not served under its name is looked for under the names nodes give it
 * (faucetCandidates). Methods that are not served are reported with the advice to pass --method-prefix.
 */
export async function detectMethods(prober: Prober, givenPrefix: string | undefined): Promise<MethodsDetected> {
  const names: Names =
    givenPrefix !== undefined ? { methodPrefix: givenPrefix, methodNames: {}, basis: 'given', how: `--method-prefix ${givenPrefix}` } : await findNames(prober);
  const { methodPrefix, methodNames, basis, how } = names;
  const wire = (spec: SpecMethod): string => wireMethod({ methodPrefix, methodNames }, spec);
  const outcomes = new Map<SpecMethod, CallOutcome>();
  for (const spec of SPEC_METHODS) {
    let outcome = await prober.call(wire(spec), []);
    // A method the listing did not name may still be served under the prefix or the spec's name.
    if (!isServed(outcome) && basis === 'listing') {
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
    outcomes.set(spec, outcome);
  }
  // A faucet under another name (acme_faucet, faucet_claim): looked for once the node's other names are found.
  let faucetAlias: string | undefined;
  const faucet = outcomes.get('chain_faucetClaim');
  // Only once another chain_ method is served under these names: net_peerCount keeps its name whatever the prefix, so it proves nothing.
  const servedNow = (spec: SpecMethod): boolean => {
    const outcome = outcomes.get(spec);
    return outcome !== undefined && isServed(outcome);
  };
  const namesFound = SPEC_METHODS.some((m) => m !== 'chain_faucetClaim' && m.startsWith(SPEC_PREFIX) && servedNow(m));
  if (faucet !== undefined && !isServed(faucet) && namesFound) {
    const asked = wire('chain_faucetClaim');
    for (const alias of faucetCandidates(methodPrefix).filter((n) => n !== asked)) {
      const outcome = await prober.call(alias, []);
      if (isServed(outcome)) {
        methodNames.chain_faucetClaim = alias;
        outcomes.set('chain_faucetClaim', outcome);
        faucetAlias = `chain_faucetClaim -> ${alias} (${asked} is not served; ${alias} [] -> ${describeOutcome(outcome)}, a name nodes give their faucet: check that it is one)`;
        break;
      }
    }
  }
  const served = new Map<SpecMethod, boolean>();
  const missing: string[] = [];
  for (const spec of SPEC_METHODS) {
    const outcome = outcomes.get(spec);
    const ok = outcome !== undefined && isServed(outcome);
    served.set(spec, ok);
    if (!ok && outcome !== undefined) missing.push(`${wire(spec)} (${describeOutcome(outcome)})`);
  }
  const servedCount = SPEC_METHODS.filter((m) => served.get(m)).length;
  const summary = `${how}; ${servedCount} of ${SPEC_METHODS.length} answered with something other than -32601`;
  const findings: Finding[] = [];
  if (basis === 'given') {
    findings.push(given('methodPrefix', methodPrefix, summary));
  } else if (servedCount === 0) {
    findings.push(fallback('methodPrefix', methodPrefix, `${summary}: no method found; pass --method-prefix`));
  } else {
    findings.push(probed('methodPrefix', methodPrefix, basis !== 'spec' && missing.length === 0 ? 'high' : 'medium', summary));
  }
  const renames = Object.entries(methodNames).filter(([s]) => faucetAlias === undefined || s !== 'chain_faucetClaim').map(([s, w]) => `${s} -> ${w}`);
  const renamed = [...renames, ...(faucetAlias === undefined ? [] : [faucetAlias])];
  findings.push(
    servedCount === 0 && basis !== 'given'
      ? fallback('methodNames', methodNames, 'no method found')
      : probed('methodNames', methodNames, basis === 'listing' && faucetAlias === undefined ? 'high' : 'medium', renamed.length === 0 ? 'every method found is named by the prefix' : `renamed: ${renamed.join(', ')}`),
  );
  if (missing.length > 0) {
    const advice = basis === 'given' ? 'check the prefix, or name them in methodNames' : 'pass --method-prefix <prefix> if the node names its methods otherwise, or name them in methodNames';
    findings.push(probed('methods', missing.map((m) => m.split(' ')[0] ?? m), 'high', `not served: ${missing.join('; ')}. The keys that need them stay at the reference defaults; ${advice}`, false));
    prober.progress(`methods: not found: ${missing.map((m) => m.split(' ')[0]).join(', ')} (${advice})`);
  }
  return { methodPrefix, methodNames, wire, served: (spec) => served.get(spec) === true, findings };
}
