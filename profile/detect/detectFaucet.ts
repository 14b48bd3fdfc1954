import { referenceProfile } from '../referenceProfile.js';
import type { JsonValue } from '../../core/json/index.js';
import { describeCall, describeOutcome, showJson } from './describe.js';
import { isObject } from './Prober.js';
import type { MethodsDetected } from './detectMethods.js';
import { METHOD_NOT_FOUND } from './detectMethods.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { hexStrings } from './hexCaseOf.js';
import type { Prober } from './Prober.js';
import type { Read } from './readResults.js';

/** Most claims one detection makes (the first included): enough to see a limit of up to 4. */
export const MAX_CLAIMS = 5;

export interface FaucetDetected {
  findings: Finding[];
  /** The first claim's answer, when it was a result (its keys join the field decision). */
  claim: Read | undefined;
  /** Whether the claimed address got funds (its key can then pay for transactions). */
  funded: boolean;
  credit: 'transaction' | 'direct' | undefined;
}

/**
 * faucetResult: a claim answered with the transaction's hash itself is `hash`, with an object `object` (the
 * reference: its transaction_hash field names the transaction). A faucet that credits directly names no
 * transaction: the result's form is not compared, and the reference stands.
 */
function faucetResult(result: JsonValue, credit: 'transaction' | 'direct'): Finding {
  if (credit === 'direct') return fallback('faucetResult', referenceProfile().faucetResult, 'the faucet credits directly: its result names no transaction, and its form is not compared');
  if (typeof result === 'string') return probed('faucetResult', 'hash', 'high', `the claim's result is the hash itself (${showJson(result, 20)}), not an object`);
  if (isObject(result)) return probed('faucetResult', 'object', 'high', 'the claim\'s result is an object that names the hash');
  return fallback('faucetResult', referenceProfile().faucetResult, `the claim's result ${showJson(result, 30)} is neither the hash nor an object`);
}

/**
 * The faucet (docs/interface.md#chain_faucetclaim: result and claim rules not shown): a claim for a
 * fresh address that gets a result means the network has one, -32601 that it has none. The result
 * names a 64-hex transaction hash (the claimed address aside) when the faucet credits by a
 * transaction, else it credits directly.
 * Then the same address claims again, at most 5 claims in all: the claims served before the first
 * refusal are faucetLimit, the refusal's code errorCodes.FaucetLimit.
 */
export async function detectFaucet(prober: Prober, methods: MethodsDetected, address: string): Promise<FaucetDetected> {
  const reference = referenceProfile();
  const method = methods.wire('chain_faucetClaim');
  const call = describeCall(method, [address]);
  const findings: Finding[] = [];
  const first = await prober.call(method, [address]);
  const firstText = `${call} (a fresh address) -> ${describeOutcome(first)}`;
  if (first.kind === 'error' && first.code === METHOD_NOT_FOUND) {
    findings.push(probed('faucet', false, 'high', firstText));
    return { findings, claim: undefined, funded: false, credit: undefined };
  }
  if (first.kind === 'error') {
    // Served but refusing a fresh address: no usable faucet here (empty, or switched off).
    findings.push(probed('faucet', false, 'medium', firstText));
    findings.push(probed('errorCodes.FaucetUnavailable', first.code, 'medium', `${firstText} (a fresh address refused: taken as the faucet being unavailable)`));
    return { findings, claim: undefined, funded: false, credit: undefined };
  }
  if (first.kind !== 'result') {
    findings.push(fallback('faucet', reference.faucet, `${firstText}: neither a result nor an error`));
    return { findings, claim: undefined, funded: false, credit: undefined };
  }
  findings.push(probed('faucet', true, 'high', firstText));
  const hashes = hexStrings(first.result).filter((h) => h.toLowerCase() !== address.toLowerCase());
  const credit = hashes.length > 0 ? 'transaction' : 'direct';
  findings.push(probed('faucetCredit', credit, 'high', credit === 'transaction' ? `the claim's result names a 64-hex hash (${hashes[0]?.slice(0, 8)}…)` : 'the claim\'s result names no 64-hex hash: credited directly'));
  findings.push(faucetResult(first.result, credit));

  let served = 1;
  let refusal: { code: number; text: string } | undefined;
  let other = '';
  while (served < MAX_CLAIMS) {
    const again = await prober.call(method, [address]);
    if (again.kind === 'result') {
      served++;
      continue;
    }
    if (again.kind === 'error') refusal = { code: again.code, text: `claim ${served + 1} for the same address -> ${describeOutcome(again)}` };
    else other = `claim ${served + 1} -> ${describeOutcome(again)}`;
    break;
  }
  if (refusal !== undefined) {
    findings.push(probed('faucetLimit', served, 'high', `${served} claim(s) served, then ${refusal.text}`));
    findings.push(probed('errorCodes.FaucetLimit', refusal.code, 'high', refusal.text));
  } else if (other !== '') {
    findings.push(fallback('faucetLimit', null, `${served} claim(s) served, then ${other}`));
  } else {
    findings.push(probed('faucetLimit', null, 'medium', `all ${MAX_CLAIMS} claims for one address were served: no limit found up to ${MAX_CLAIMS} (the faucet-limit check will skip)`));
  }
  return { findings, claim: { call, outcome: first }, funded: true, credit };
}
