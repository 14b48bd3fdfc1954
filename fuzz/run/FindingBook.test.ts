import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson, type JsonValue } from '../../core/json/index.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import type { Finding, FuzzCase } from '../model.js';
import { FindingBook, findingMethod } from './FindingBook.js';
import { FuzzTarget } from './FuzzTarget.js';
import { sendCase } from './sendCase.js';
import { judgeAnswer } from './judgeAnswer.js';

/**
 * A server with two bugs the envelope oracle both sees: it rounds ids beyond 2^53 (as a double would), and it
 * answers notifications. A finding of the first must not shrink into the second (dropping the id makes a notification).
 */
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      let request: JsonValue = null;
      try {
        request = parseJson(body);
      } catch {
        // answered below as a parse error
      }
      const r = typeof request === 'object' && request !== null && !Array.isArray(request) ? request : {};
      const id = typeof r.id === 'bigint' ? Number(r.id) : (r.id ?? null);
      const answer = typeof r.method === 'string' ? { jsonrpc: '2.0', id, result: 7 } : { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(stringifyJson(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('FindingBook', () => {
  it('re-checks, shrinks keeping the same violation (not another the same oracle sees), and announces', async () => {
    const profile = referenceProfile();
    const target = new FuzzTarget(url, profile, 4);
    // The id first: the shrinker's first try drops it, which turns the call into a notification (the other bug).
    const json: JsonValue = { id: 2n ** 63n + 5n, jsonrpc: '2.0', method: 'chain_blockNumber', params: [], extra: 'x'.repeat(200) };
    const c: FuzzCase = { rule: 'envelope/id-type', family: 'envelope', method: 'chain_blockNumber', seed: 1, index: 9, title: 'a huge id', risky: false, json, http: { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(stringifyJson(json)) } };
    const announced: Finding[] = [];
    const book = new FindingBook({ profile, timeoutMs: 2_000, shrink: { maxAttempts: 100, maxMs: 10_000 }, onFinding: (f) => announced.push(f) });
    try {
      const answer = await sendCase(target.sender, c.http, 2_000);
      const violation = judgeAnswer(c.http, answer, { profile, slowBoundMs: 1_000 }).find((v) => v.oracle === 'envelope');
      expect(violation?.message).toMatch(/id/);
      if (violation === undefined) return;
      book.file(target, c, answer, violation, target.client.url);
      book.file(target, c, answer, violation, target.client.url);
      await book.settled();
      expect(book.findings).toHaveLength(1);
      const [f] = announced;
      expect(f).toMatchObject({ id: 'F1', oracle: 'envelope', count: 2, recheck: 'reproduced' });
      const minimal = f?.minimal.http.bodyText ?? '';
      // Shrunk (the padding member gone), and still the id bug: the id is there, beyond 2^53.
      expect(minimal.length).toBeLessThan(c.http.body.length);
      expect(minimal).not.toContain('xxxx');
      const id = (parseJson(minimal) as { id?: JsonValue }).id;
      expect(typeof id === 'bigint' && id > 2n ** 53n).toBe(true);
    } finally {
      await target.client.close();
    }
  });

  it('folds two signatures whose cases shrink to one minimal request with one violation into one finding (one cause)', async () => {
    const profile = referenceProfile();
    const target = new FuzzTarget(url, profile, 4);
    const caseOf = (rule: string, method: string, index: number, extra: JsonValue): FuzzCase => {
      const json: JsonValue = { id: 2n ** 63n + 5n, jsonrpc: '2.0', method, params: [], extra };
      return { rule, family: 'envelope', method, seed: 1, index, title: rule, risky: false, json, http: { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(stringifyJson(json)) } };
    };
    // The same bug (the id rounded) reached by two rules; both shrink to the same bytes (method and extra dropped).
    const cases = [caseOf('envelope/id-type', 'chain_blockNumber', 1, 'x'.repeat(50)), caseOf('envelope/extra-member', 'chain_health', 2, { deep: [1, 2, 3] })];
    const announced: Finding[] = [];
    const book = new FindingBook({ profile, timeoutMs: 2_000, shrink: { maxAttempts: 100, maxMs: 10_000 }, onFinding: (f) => announced.push(f) });
    try {
      for (const c of cases) {
        const answer = await sendCase(target.sender, c.http, 2_000);
        const violation = judgeAnswer(c.http, answer, { profile, slowBoundMs: 1_000 }).find((v) => v.oracle === 'envelope');
        if (violation === undefined) throw new Error('the test server did not show the bug');
        book.file(target, c, answer, violation, target.client.url);
        await book.settled();
      }
      expect(book.findings.map((f) => f.id)).toEqual(['F1']);
      expect(announced.map((f) => f.id)).toEqual(['F1']);
      expect(book.findings[0]).toMatchObject({ count: 2, alsoAs: [{ id: 'F2', method: 'chain_health', rule: 'envelope/extra-member', count: 1 }] });
      expect(target.findings).toBe(1);
    } finally {
      await target.close();
    }
  });

  it('never hands an id out twice: a finding filed after a fold gets a new id, not the folded one\'s', async () => {
    const profile = referenceProfile();
    const target = new FuzzTarget(url, profile, 4);
    const caseOf = (rule: string, method: string, index: number, json: { [k: string]: JsonValue }): FuzzCase =>
      ({ rule, family: 'envelope', method, seed: 1, index, title: rule, risky: false, json, http: { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(stringifyJson(json)) } });
    const huge = 2n ** 63n + 5n;
    const cases = [
      // The id rounded, reached by two rules: the second is folded into the first.
      caseOf('envelope/id-type', 'chain_blockNumber', 1, { id: huge, jsonrpc: '2.0', method: 'chain_blockNumber', params: [], extra: 'x'.repeat(50) }),
      caseOf('envelope/extra-member', 'chain_health', 2, { id: huge, jsonrpc: '2.0', method: 'chain_health', params: [], extra: [1, 2] }),
      // Another bug (a notification answered): a finding of its own, filed after the fold.
      caseOf('envelope/notification', 'chain_getAccount', 3, { jsonrpc: '2.0', method: 'chain_getAccount', params: ['ab'] }),
    ];
    const book = new FindingBook({ profile, timeoutMs: 2_000, shrink: { maxAttempts: 100, maxMs: 10_000 } });
    try {
      for (const c of cases) {
        const answer = await sendCase(target.sender, c.http, 2_000);
        const violation = judgeAnswer(c.http, answer, { profile, slowBoundMs: 1_000 }).find((v) => v.oracle === 'envelope');
        if (violation === undefined) throw new Error(`the test server did not show the bug of ${c.rule}`);
        book.file(target, c, answer, violation, target.client.url);
        await book.settled();
      }
      const live = book.findings.map((f) => f.id);
      const folded = book.findings.flatMap((f) => (f.alsoAs ?? []).map((a) => a.id));
      expect(live).toEqual(['F1', 'F3']);
      expect(folded).toEqual(['F2']);
      // Every id names one thing: no live finding shares an id with another, nor with a folded one.
      expect(new Set([...live, ...folded]).size).toBe(live.length + folded.length);
    } finally {
      await target.close();
    }
  });

  it('labels a batch finding with the method of the call it is about, never with the batch\'s first call by default', () => {
    const batch = { method: 'chain_blockNumber', rule: 'envelope/batch-mixed', json: [{ jsonrpc: '2.0', method: 'chain_blockNumber', id: 1 }, null] };
    expect(findingMethod(batch, {})).toBeUndefined();
    expect(findingMethod(batch, { method: 'chain_getAccount' })).toBe('chain_getAccount');
    // A batch whose bytes are not JSON any more: known by its rule.
    expect(findingMethod({ method: 'chain_blockNumber', rule: 'envelope/batch-duplicate-id' }, {})).toBeUndefined();
    expect(findingMethod({ method: 'chain_blockNumber', rule: 'invalid-params/type', json: { method: 'chain_blockNumber' } }, {})).toBe('chain_blockNumber');
  });
});
