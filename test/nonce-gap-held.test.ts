/**
 * `nonceGap: "held"`: a node may keep a transaction whose nonce skips ahead until the gap fills (the spec leaves
 * it open). An outside tester's node answered such a transaction with its hash and then dropped it, and
 * state/nonce-gap passed it: the check looked only at the admission answer. Now it fills the gap and waits for
 * the held transaction to be applied. The node here is the reference node behind a proxy that holds what the
 * reference node refuses as a gap, and sends it on once the same sender's next transactions were taken (or, as
 * the tester's node did, never).
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { decodeTransaction } from '../core/codec/index.js';
import { parseJson, stringifyJson } from '../core/json/index.js';
import { describing, nodeChecks, useUpstream } from './support/legalVariations.js';
import { runChecks, startProxy, testProfile } from './support/suites.js';

const upstream = useUpstream();
const NONCE_GAP = testProfile().errorCodes.NonceGap;

function post(url: string, body: string): void {
  const req = request(`${url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => res.resume());
  req.on('error', () => undefined);
  req.end(body);
}

/** The reference node, holding gapped transactions (and, with `drops`, never sending them on). */
async function holdingNode(drops: boolean): Promise<{ url: string; close: () => Promise<void> }> {
  const held = new Map<string, string[]>();
  const url = upstream().url;
  return startProxy(url, (res, req) => {
    let wire: unknown;
    try {
      const call = parseJson(req.body);
      if (typeof call !== 'object' || call === null || Array.isArray(call) || call.method !== 'chain_sendRawTransaction' || !Array.isArray(call.params)) return res;
      wire = call.params[0];
    } catch {
      return res;
    }
    if (typeof wire !== 'string') return res;
    let tx;
    try {
      tx = decodeTransaction(wire);
    } catch {
      return res;
    }
    const answer = parseJson(res.body);
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return res;
    const error = answer.error;
    if (typeof error === 'object' && error !== null && !Array.isArray(error) && error.code === NONCE_GAP) {
      held.set(tx.sender, [...(held.get(tx.sender) ?? []), wire]);
      return { ...res, body: stringifyJson({ jsonrpc: '2.0', id: answer.id, result: tx.hash }) };
    }
    // A transaction of this sender was taken: what it held may now be next.
    if (answer.result !== undefined && !drops) for (const w of held.get(tx.sender) ?? []) post(url, JSON.stringify({ jsonrpc: '2.0', method: 'chain_sendRawTransaction', params: [w], id: 1 }));
    return res;
  });
}

describe('state/nonce-gap under nonceGap: "held"', () => {
  const checks = nodeChecks.filter((c) => c.id === 'state/nonce-gap');

  it('passes a node that holds the transaction and applies it once the gap fills', async () => {
    const node = await holdingNode(false);
    try {
      const results = await runChecks(checks, [node.url], { profile: await describing('held', { nonceGap: 'held' }) });
      expect(results.map((r) => [r.status, r.evidence.message])).toEqual([['pass', expect.stringMatching(/^held, and applied once nonces \d+ to \d+ filled the gap$/)]]);
    } finally {
      await node.close();
    }
  }, 60_000);

  it('fails a node that answers with the hash and drops the transaction', async () => {
    const node = await holdingNode(true);
    try {
      const results = await runChecks(checks, [node.url], { profile: await describing('held', { nonceGap: 'held' }) });
      expect(results.map((r) => r.status)).toEqual(['fail']);
      expect(results[0]?.evidence.message).toMatch(/the held transaction \(nonce \d+ while the account's is \d+\) applied once the gap filled .* did not happen/);
    } finally {
      await node.close();
    }
  }, 60_000);
});
