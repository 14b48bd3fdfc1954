/**
 * `--profile detect` judges a node by what detection observed: error codes it left to the reference defaults are
 * not compared (a node whose transfers detection could not get accepted showed no NonceGap, and its own -32064 was
 * taken for a wrong code: 10 false findings on an honest node).
 */
import { describe, expect, it } from 'vitest';
import { buildProfileJson } from '../profile/detect/buildProfileJson.js';
import { fallback, probed } from '../profile/detect/Finding.js';
import { profileFromJson } from '../profile/loadProfile.js';
import { errorViolations } from './oracles/resultOracle.js';
import { unobservedCodes, withoutUnobserved } from './unobserved.js';

describe('a detected profile: what detection did not observe is not judged', () => {
  it('leaves the error codes detection fell back on uncompared (null), JSON-RPC 2.0\'s own codes judged still', async () => {
    const json = buildProfileJson('detected node', [
      probed('errorCodes.TxMalformed', -32060, 'high', 'a malformed transfer -> -32060'),
      probed('errorCodes.InsufficientBalance', -32065, 'high', 'a free transfer -> -32065'),
      fallback('errorCodes.NonceTooLow', -32005, 'not probed'),
      fallback('errorCodes.NonceGap', -32006, 'not probed'),
      fallback('errorCodes.ParseError', -32700, 'a body that is not JSON: no error object'),
      fallback('txResult', 'hash', 'no transfer was accepted'),
    ], { url: 'http://127.0.0.1:18430', at: '2026-11-28T10:32:39.374Z', tool: 'chainrpc test' });
    const unobserved = unobservedCodes(json);
    expect(unobserved).toEqual(['errorCodes.NonceTooLow', 'errorCodes.NonceGap']);
    const kept = withoutUnobserved(json, unobserved);
    expect(kept.errorCodes).toMatchObject({ TxMalformed: -32060, NonceTooLow: null, NonceGap: null, ParseError: -32700 });
    // The node's own code for a nonce gap, to a valid transfer: a finding by the detected profile as drafted, none once unobserved codes are not compared.
    const nonceGap = { code: -32064, message: 'Nonce gap' };
    const call = { what: 'chain_sendRawTransaction ["01…"] (id 0)' };
    expect(errorViolations('chain_sendRawTransaction', nonceGap, await profileFromJson(json, 'detected.json'), call).map((v) => v.oracle)).toEqual(['result-schema']);
    expect(errorViolations('chain_sendRawTransaction', nonceGap, await profileFromJson(kept, 'detected.json'), call)).toEqual([]);
  });

  it('leaves a profile without $detect (a file written by hand) as it is', () => {
    expect(unobservedCodes({ name: 'x', errorCodes: { NonceGap: -32006 } })).toEqual([]);
  });
});
