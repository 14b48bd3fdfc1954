import { jsonInteger } from '../../core/json/index.js';
import { referenceProfile } from '../referenceProfile.js';
import { describeCall, describeOutcome } from './describe.js';
import type { MethodsDetected } from './detectMethods.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { fieldOf, RESULT_FIELDS } from './findKeys.js';
import { amountOf } from './integerOf.js';
import { isObject } from './Prober.js';
import type { Prober } from './Prober.js';
import { readText } from './readResults.js';
import type { Observed } from './readResults.js';

/** How far above the tip the unknown height is: far enough that no block appears there during detection. */
export const UNKNOWN_HEIGHT_AHEAD = 1000n;

/**
 * What a height with no block and an address the chain never saw get (spec rule 1: "Behaviour for a
 * height that has no block, and for an unknown account address: not shown"). A height 1000 above the
 * tip: a null result is 'null'; an error is 'error', its code errorCodes.BlockNotFound. A fresh random
 * address (read by readResults): balance "0" and nonce 0 is 'empty'; an error is 'error', its code
 * errorCodes.AccountNotFound.
 */
export async function detectUnknowns(prober: Prober, methods: MethodsDetected, observed: Observed): Promise<Finding[]> {
  const reference = referenceProfile();
  const findings: Finding[] = [];
  if (!methods.served('chain_getBlockByHeight') || observed.tipHeight === undefined) {
    findings.push(fallback('unknownHeight', reference.unknownHeight, 'chain_getBlockByHeight or the tip height is not available'));
  } else {
    const height = observed.tipHeight + UNKNOWN_HEIGHT_AHEAD;
    const params = [jsonInteger(height)];
    const method = methods.wire('chain_getBlockByHeight');
    const outcome = await prober.call(method, params);
    const evidence = `${describeCall(method, params)} (tip ${observed.tipHeight} + ${UNKNOWN_HEIGHT_AHEAD}) -> ${describeOutcome(outcome)}`;
    if (outcome.kind === 'result' && outcome.result === null) {
      findings.push(probed('unknownHeight', 'null', 'high', evidence));
      findings.push(fallback('errorCodes.BlockNotFound', reference.errorCodes.BlockNotFound ?? null, `${evidence}: no error, so no code to read (it is never compared)`));
    }
    else if (outcome.kind === 'error') {
      findings.push(probed('unknownHeight', 'error', 'high', evidence));
      // -32602 for a height above the tip is a legal choice, but the same code as a malformed height.
      findings.push(probed('errorCodes.BlockNotFound', outcome.code, outcome.code === -32602 ? 'medium' : 'high', evidence));
    } else findings.push(fallback('unknownHeight', reference.unknownHeight, `${evidence}: neither a null result nor an error`));
  }
  const account = observed.account;
  if (account === undefined) {
    findings.push(fallback('unknownAccount', reference.unknownAccount, 'chain_getAccount not served'));
  } else {
    const evidence = `${readText(account)} (a fresh random address)`;
    const outcome = account.outcome;
    if (outcome.kind === 'error') {
      findings.push(probed('unknownAccount', 'error', 'high', evidence));
      findings.push(probed('errorCodes.AccountNotFound', outcome.code, 'high', evidence));
    } else if (outcome.kind === 'result' && isObject(outcome.result)) {
      const balance = amountOf(fieldOf(outcome.result, RESULT_FIELDS.account, 'balance'));
      const nonce = amountOf(fieldOf(outcome.result, RESULT_FIELDS.account, 'nonce'));
      const empty = balance === 0n && nonce === 0n;
      findings.push(empty ? probed('unknownAccount', 'empty', 'high', evidence) : fallback('unknownAccount', reference.unknownAccount, `${evidence}: an account, but not balance 0 and nonce 0`));
    } else if (outcome.kind === 'result' && outcome.result === null) {
      findings.push(probed('unknownAccount', 'null', 'high', evidence));
    } else {
      findings.push(fallback('unknownAccount', reference.unknownAccount, `${evidence}: neither an account, null nor an error (the profile has no value for this)`));
    }
  }
  return findings;
}
