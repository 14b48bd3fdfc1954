import { SPEC_METHOD_NAMES } from '../../core/schema/types.generated.js';
import type { SpecMethodName } from '../../core/schema/types.generated.js';
import { SPEC_PREFIX } from '../Profile.js';

/** The spec's methods (docs/interface.md#methods), by the spec's names: generated from schemas/methods/ (`npm run gen`). */
export const SPEC_METHODS = SPEC_METHOD_NAMES;
export type SpecMethod = SpecMethodName;

/**
 * What nodes call their faucet besides the spec's faucetClaim, after their own method prefix: tempo's
 * tempo_fundAddress, Solana's requestAirdrop, gno's drip, and the plain words devnets use.
 */
export const FAUCET_SUFFIXES = ['faucet', 'requestFunds', 'fundAddress', 'fund', 'requestAirdrop', 'airdrop', 'drip'] as const;
/** Faucet names in a namespace of their own, whatever the node's prefix. */
export const FAUCET_NAMES = ['faucet_claim', 'faucet_request', 'faucet_fund', 'faucet', 'requestAirdrop', 'drip'] as const;

/**
 * The names a detection looks for a faucet under when the spec's (under the node's prefix) is not
 * served, in order: the prefix with each of FAUCET_SUFFIXES, then FAUCET_NAMES.
 */
export function faucetCandidates(methodPrefix: string): string[] {
  return [...new Set([...FAUCET_SUFFIXES.map((s) => methodPrefix + s), ...FAUCET_NAMES])];
}

/** What a profile file accepts as a methodPrefix (profile/loadProfile.ts). */
const PREFIX_SYNTAX = /^[A-Za-z0-9_.]*$/;

export interface MethodNameMatch {
  /** The prefix most spec methods carry on the node; `chain_` when no listed name matched. */
  methodPrefix: string;
  /** Spec name -> the node's name, for methods the prefix does not produce. */
  methodNames: Record<string, string>;
  /** Spec name -> the node's name; absent: no listed name matched. */
  wire: Partial<Record<SpecMethod, string>>;
  /** Spec name -> every listed name that matched it (evidence). */
  candidates: Partial<Record<SpecMethod, string[]>>;
}

/** A name with case and separators dropped: getAccount, get_account and Get-Account meet. */
const loose = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const isAlnum = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9]/.test(c);

/** The part of a spec name after its namespace: chain_getAccount -> getAccount, net_peerCount -> peerCount. */
export const specSuffix = (name: string): string => name.slice(name.indexOf('_') + 1);

/**
 * The prefix of `listed` in front of a spec suffix, when `listed` ends with that suffix in any case and
 * with any separators (acme_getAccount, acme.get_account, AcmeGetAccount), at a word boundary: a
 * separator or a lower-to-upper case change before it, or nothing. undefined when it does not.
 */
export function prefixBefore(listed: string, suffix: string): string | undefined {
  const want = loose(suffix);
  if (want === '' || !loose(listed).endsWith(want)) return undefined;
  // Walk back over as many letters and digits as the suffix has, skipping separators.
  let i = listed.length;
  let seen = 0;
  while (i > 0 && seen < want.length) {
    i--;
    if (isAlnum(listed[i])) seen++;
  }
  const prefix = listed.slice(0, i);
  const before = prefix.at(-1);
  const first = listed[i] ?? '';
  const boundary = prefix === '' || !isAlnum(before) || (/[a-z0-9]/.test(before ?? '') && /[A-Z]/.test(first));
  return boundary ? prefix : undefined;
}

/**
 * Matches the spec's methods to the names a node lists (rpc.discover, OpenRPC service discovery, or
 * another listing: methodListings.ts) by their suffix after `chain_`, case- and separator-insensitively. The prefix most chain_ methods share
 * becomes methodPrefix (net_peerCount keeps its own name under any prefix, as Profile.wireMethod does);
 * a method whose name the prefix does not produce exactly goes to methodNames. A prefix a profile file
 * cannot hold (other characters than letters, digits, _ and .) leaves methodPrefix at `chain_` and
 * names every method explicitly. A faucet not listed as faucetClaim is looked for under the names nodes
 * give it (faucetCandidates).
 */
export function matchMethodNames(listed: readonly string[]): MethodNameMatch {
  const names = [...new Set(listed)];
  const candidates: Partial<Record<SpecMethod, Array<{ name: string; prefix: string }>>> = {};
  for (const spec of SPEC_METHODS) {
    const found = names.flatMap((name) => {
      const prefix = prefixBefore(name, specSuffix(spec));
      return prefix === undefined ? [] : [{ name, prefix }];
    });
    if (found.length > 0) candidates[spec] = found;
  }
  // Vote: each chain_ method counts once for every prefix it is listed under.
  const votes = new Map<string, number>();
  for (const spec of SPEC_METHODS) {
    if (!spec.startsWith(SPEC_PREFIX)) continue;
    for (const prefix of new Set((candidates[spec] ?? []).map((c) => c.prefix))) votes.set(prefix, (votes.get(prefix) ?? 0) + 1);
  }
  const ranked = [...votes.entries()].sort(
    ([a, x], [b, y]) => y - x || Number(b === SPEC_PREFIX) - Number(a === SPEC_PREFIX) || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0),
  );
  const top = ranked[0]?.[0];
  const methodPrefix = top !== undefined && PREFIX_SYNTAX.test(top) ? top : SPEC_PREFIX;
  const wire: Partial<Record<SpecMethod, string>> = {};
  const methodNames: Record<string, string> = {};
  for (const spec of SPEC_METHODS) {
    const found = candidates[spec];
    if (found === undefined) continue;
    // The name the profile would produce without a rename (wireMethod): the prefix for chain_ methods, the own name otherwise.
    const produced = spec.startsWith(SPEC_PREFIX) ? methodPrefix + specSuffix(spec) : spec;
    const exact = found.find((c) => c.name === produced);
    const best = exact ?? found.find((c) => c.prefix === top) ?? [...found].sort((a, b) => a.prefix.length - b.prefix.length)[0];
    if (best === undefined) continue;
    wire[spec] = best.name;
    if (best.name !== produced) methodNames[spec] = best.name;
  }
  const shown: Partial<Record<SpecMethod, string[]>> = {};
  for (const spec of SPEC_METHODS) {
    const found = candidates[spec];
    if (found !== undefined) shown[spec] = found.map((c) => c.name);
  }
  // A faucet listed under another name nodes give it (acme_faucet, acme.request_funds, faucet_claim).
  if (wire.chain_faucetClaim === undefined) {
    const byLoose = new Map(names.map((n) => [loose(n), n]));
    const hit = faucetCandidates(methodPrefix).map((c) => byLoose.get(loose(c))).find((n) => n !== undefined);
    if (hit !== undefined) {
      wire.chain_faucetClaim = hit;
      methodNames.chain_faucetClaim = hit;
      shown.chain_faucetClaim = [hit];
    }
  }
  return { methodPrefix, methodNames, wire, candidates: shown };
}
