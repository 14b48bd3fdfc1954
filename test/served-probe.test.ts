/**
 * Whether a node serves a method is asked before any refusal check (a node that refuses everything proves
 * nothing). An outside tester's node answered an address it had never seen with AccountNotFound, code -32602
 * (the spec shows no codes; the profile said so), and the suite took that for "not served": the MUST check
 * transport/invalid-params and three chain_getAccount checks were skipped, and the node could not be certified.
 */
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../core/json/index.js';
import { detectProfile } from '../profile/detect/detectProfile.js';
import { describing, nodeChecks, useUpstream, wrong } from './support/legalVariations.js';
import { runChecks, startProxy } from './support/suites.js';

const upstream = useUpstream();

/** The reference node, but an empty account (one it has never seen) is answered with AccountNotFound as -32602. */
async function accountNotFoundNode(): Promise<{ url: string; close: () => Promise<void> }> {
  return startProxy(upstream().url, (res, req) => {
    if (!req.body.includes('chain_getAccount') || res.status !== 200) return res;
    const answer = parseJson(res.body);
    const one = (a: unknown): unknown => {
      if (typeof a !== 'object' || a === null || Array.isArray(a)) return a;
      const r = (a as { result?: unknown }).result;
      const empty = typeof r === 'object' && r !== null && (r as { balance?: unknown }).balance === '0' && (r as { nonce?: unknown }).nonce === 0;
      return empty ? { jsonrpc: '2.0', id: (a as { id: unknown }).id, error: { code: -32602, message: 'account not found', data: { reason: 'no account has this address' } } } : a;
    };
    return { ...res, body: stringifyJson(Array.isArray(answer) ? answer.map(one) : one(answer)) };
  });
}

describe('a node whose AccountNotFound is -32602', () => {
  const checks = nodeChecks.filter((c) => c.id === 'transport/invalid-params' || c.id.startsWith('chain_getAccount/'));

  it('serves chain_getAccount: the refusal checks run and pass, under a profile with the code', async () => {
    const node = await accountNotFoundNode();
    try {
      const results = await runChecks(checks, [node.url], { profile: await describing('anf-32602', { unknownAccount: 'error', errorCodes: { AccountNotFound: -32602 } }) });
      expect(wrong(results)).toEqual([]);
      for (const id of ['transport/invalid-params', 'chain_getAccount/bad-address-refused', 'chain_getAccount/unknown-account']) {
        expect(results.find((r) => r.id === id)?.status, id).toBe('pass');
      }
    } finally {
      await node.close();
    }
  }, 60_000);

  it('and under a profile that gives AccountNotFound any code, an account the suite funded shows it', async () => {
    const node = await accountNotFoundNode();
    try {
      const results = await runChecks(checks, [node.url], { profile: await describing('anf-any', { unknownAccount: 'error', errorCodes: { AccountNotFound: null } }) });
      expect(wrong(results)).toEqual([]);
      expect(results.find((r) => r.id === 'transport/invalid-params')?.status).toBe('pass');
    } finally {
      await node.close();
    }
  }, 60_000);

  it('profile detect does not take a 0x form for accepted because both forms got -32602: an unknown address gets that code too', async () => {
    // The reference node refuses a 0x before an address with -32602, and here an unknown address gets -32602 too.
    const node = await accountNotFoundNode();
    try {
      const r = await detectProfile({ url: node.url, limits: false, transactions: false });
      const hexPrefix = r.findings.find((f) => f.key === 'params.hexPrefix');
      expect([hexPrefix?.value, hexPrefix?.confidence]).toEqual(['refused', 'low']);
      expect(hexPrefix?.evidence).toMatch(/the InvalidParams code itself, so answered alike may still be refused; set it by hand/);
    } finally {
      await node.close();
    }
  }, 60_000);
});
