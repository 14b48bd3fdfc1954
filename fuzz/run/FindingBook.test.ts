import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson, type JsonValue } from '../../core/json/index.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { startSequentialNode } from '../../test/support/sequentialNode.js';
import { startTestServer, type TestServer } from '../../test/support/startTestServer.js';
import type { Finding, FuzzCase } from '../model.js';
import { fuzzVerdict } from '../fuzzVerdict.js';
import { FindingBook, findingMethod, relabel } from './FindingBook.js';
import { FuzzTarget } from './FuzzTarget.js';
import { sendCase } from './sendCase.js';
import { judgeAnswer } from './judgeAnswer.js';

/**
 * A server with two bugs the envelope oracle both sees: it rounds ids beyond 2^53 (as a double would), and it
 * answers notifications. A finding of the first must not shrink into the second (dropping the id makes a notification).
 */
let node: TestServer;
let url: string;
beforeAll(async () => {
  node = await nodeOf((r) => {
    const id = typeof r.id === 'bigint' ? Number(r.id) : (r.id ?? null);
    return typeof r.method === 'string' ? { jsonrpc: '2.0', id, result: 7 } : { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } };
  });
  url = node.url;
});
afterAll(() => node.close());

/** A single-threaded node: one request at a time, in order; a body holding CULPRIT costs it `culpritMs`, others 1 ms. */
const sequentialNode = (culpritMs: number): ReturnType<typeof startSequentialNode> =>
  startSequentialNode(
    (body) => (body.includes('CULPRIT') ? culpritMs : 1),
    (body) => `{"jsonrpc":"2.0","id":${/"id":("[^"]*"|\d+)/.exec(body)?.[1] ?? 'null'},"result":7}`,
  );

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
      const json: JsonValue = { jsonrpc: '2.0', method, params: [], extra };
      return { rule, family: 'envelope', method, seed: 1, index, title: rule, risky: false, json, http: { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(stringifyJson(json)) } };
    };
    // The same bug (a notification answered) reached by two rules; both shrink to the same bytes (params and extra dropped).
    const cases = [caseOf('envelope/notification', 'chain_health', 1, 'x'.repeat(50)), caseOf('envelope/extra-member', 'chain_health', 2, { deep: [1, 2, 3] })];
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
      // A notification answered, reached by two rules: the second is folded into the first.
      caseOf('envelope/notification', 'chain_health', 1, { jsonrpc: '2.0', method: 'chain_health', params: [], extra: 'x'.repeat(50) }),
      caseOf('envelope/extra-member', 'chain_health', 2, { jsonrpc: '2.0', method: 'chain_health', params: [], extra: [1, 2] }),
      // Another bug (the id rounded): a finding of its own, filed after the fold.
      caseOf('envelope/id-type', 'chain_blockNumber', 3, { id: huge, jsonrpc: '2.0', method: 'chain_blockNumber', params: [] }),
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
  it('ends shrinking at the time budget and says so; a re-check that cannot start within it is said, not counted', async () => {
    // The id bug, answered after 40 ms: the re-check fits in the budget, shrinking does not.
    const delayed = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc":"2.0","id":${/"id":(\d+)/.test(body) ? '9223372036854775808' : 'null'},"result":7}`), 40));
    });
    await new Promise<void>((r) => delayed.listen(0, '127.0.0.1', r));
    const profile = referenceProfile();
    const target = new FuzzTarget(`http://127.0.0.1:${(delayed.address() as AddressInfo).port}`, profile, 4);
    const json: JsonValue = { id: 2n ** 63n + 5n, jsonrpc: '2.0', method: 'chain_blockNumber', params: [], extra: 'x'.repeat(200) };
    const c: FuzzCase = { rule: 'envelope/id-type', family: 'envelope', method: 'chain_blockNumber', seed: 1, index: 9, title: 'a huge id', risky: false, json, http: { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(stringifyJson(json)) } };
    try {
      const answer = await sendCase(target.sender, c.http, 2_000);
      const violation = judgeAnswer(c.http, answer, { profile, slowBoundMs: 1_000 }).find((v) => v.oracle === 'envelope');
      if (violation === undefined) throw new Error('the test server did not show the bug');
      const t0 = performance.now();
      const book = new FindingBook({ profile, timeoutMs: 2_000, shrink: { maxAttempts: 100, maxMs: 10_000 }, shrinkUntil: t0 + 100 });
      book.file(target, c, answer, violation, target.client.url);
      await book.settled();
      // Ended with the budget (100 ms): at most the one request under way past it, far from the 100 attempts of
      // 40 ms each (4 s) a shrink that ignored it would take; the margin is for a busy machine.
      expect(performance.now() - t0).toBeLessThan(1_000);
      expect(book.findings[0]).toMatchObject({ recheck: 'reproduced' });
      expect(book.findings[0]?.minimal.title).toMatch(/\(shrinking cut short by the time budget\)$/);
      // The budget over before the re-check: a sighting, not a finding.
      const late = new FindingBook({ profile, timeoutMs: 2_000, shrink: { maxAttempts: 100, maxMs: 10_000 }, shrinkUntil: performance.now() });
      late.file(target, c, answer, violation, target.client.url);
      await late.settled();
      expect(late.findings[0]?.recheck).toBe('out-of-time');
      expect(fuzzVerdict({ findings: [...late.findings], cases: 1, stop: 'duration' })).toMatchObject({ standing: [], exitCode: 0 });
    } finally {
      await target.close();
      delayed.closeAllConnections();
      await new Promise<void>((r) => delayed.close(() => r()));
    }
  });

  it('re-checks a slow finding with nothing else in flight to the node: an innocent request that waited behind the culprit is flaky', async () => {
    // A single-threaded node: one request at a time, in order; the culprit's input costs it 400 ms, others 1 ms.
    const slowNode = await sequentialNode(400);
    const profile = referenceProfile();
    const target = new FuzzTarget(slowNode.url, profile, 8);
    const caseOf = (index: number, json: { [k: string]: JsonValue }): FuzzCase => ({ rule: `envelope/r${index}`, family: 'envelope', method: 'chain_blockNumber', seed: 1, index, title: `#${index}`, risky: false, json, http: { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(stringifyJson(json)) } });
    const culprit = caseOf(1, { jsonrpc: '2.0', method: 'chain_blockNumber', params: [], id: 1, pad: ['CULPRIT', 'CULPRIT', 'CULPRIT', 'CULPRIT'] });
    const innocent = caseOf(2, { jsonrpc: '2.0', method: 'chain_blockNumber', params: [], id: 2 });
    const book = new FindingBook({ profile, timeoutMs: 3_000, shrink: { maxAttempts: 4, maxMs: 5_000 }, slowFloorMs: 150 });
    const slow = (ms: number) => ({ oracle: 'slow' as const, message: `answered in ${ms} ms`, source: 'fuzz: time bound, max(1 s, 50 x the median call) by default (fuzz/oracles/slowBound.ts)' });
    try {
      // Both filed at once, as a run files them: the culprit's re-check and shrinking, and the innocent's re-check.
      book.file(target, culprit, { status: 200, text: '{}', ms: 400 }, slow(400), target.client.url);
      book.file(target, innocent, { status: 200, text: '{}', ms: 390 }, slow(390), target.client.url);
      await book.settled();
      const byIndex = new Map(book.findings.map((f) => [f.original.index, f.recheck]));
      expect(byIndex.get(1)).toBe('reproduced');
      expect(byIndex.get(2)).toBe('flaky');
    } finally {
      await target.close();
      await slowNode.close();
    }
  });

  it('labels a finding by its minimal case: a body shrunk to no call is no finding of the method its first form called', () => {
    const profile = referenceProfile();
    const f = { method: 'chain_getBlockByHeight' } as Finding;
    const v = { oracle: 'envelope' as const, message: 'm', source: 's' };
    relabel(f, { method: 'POST', contentType: 'application/json', body: new Uint8Array([0xef, 0xbb, 0xbf]) }, v, profile);
    expect(f.method).toBeUndefined();
    relabel(f, { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode('{"jsonrpc":"2.0","method":"chain_pouPeers","id":1}') }, v, profile);
    expect(f.method).toBe('chain_pouPeers');
    relabel(f, { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode('[{"jsonrpc":"2.0","method":"chain_pouPeers","id":1}]') }, { ...v, method: 'chain_health' }, profile);
    expect(f.method).toBe('chain_health');
  });

  it('re-checks an unanswered request once the node is done with what the fuzzer gave up on (a timed-out culprit still at work)', async () => {
    const slowNode = await sequentialNode(700);
    const profile = referenceProfile();
    const target = new FuzzTarget(slowNode.url, profile, 8);
    const caseOf = (index: number, json: { [k: string]: JsonValue }): FuzzCase => ({ rule: `envelope/r${index}`, family: 'envelope', method: 'chain_blockNumber', seed: 1, index, title: `#${index}`, risky: false, json, http: { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(stringifyJson(json)) } });
    const innocent = caseOf(2, { jsonrpc: '2.0', method: 'chain_blockNumber', params: [], id: 2 });
    const book = new FindingBook({ profile, timeoutMs: 300, shrink: { maxAttempts: 2, maxMs: 2_000 } });
    try {
      // The culprit, given up on after 300 ms: the node works on it 400 ms more.
      const gaveUp = await sendCase(target.sender, caseOf(1, { jsonrpc: '2.0', method: 'chain_blockNumber', params: ['CULPRIT'], id: 1 }).http, 300);
      expect(gaveUp.failure?.code).toBe('TIMEOUT');
      book.file(target, innocent, { failure: { code: 'TIMEOUT', message: 'x' }, ms: 300 }, { oracle: 'no-answer', message: 'gave no HTTP answer', source: 'RFC 9110 §15 (a server answers every request with a status)' }, target.client.url);
      await book.settled();
      expect(book.findings[0]?.recheck).toBe('flaky');
    } finally {
      await target.close();
      await slowNode.close();
    }
  });

  it("titles a shrunk minimal case by what it is, not by its original's title (one param too many, shrunk to none)", async () => {
    // A node that leaks a stack trace in any refusal of chain_getAccount's params: one param too many shows it, and
    // so does no params at all, which is what the shrinker ends with. The original's title is no longer true of it.
    const node = await nodeOf((r) => {
      const ok = Array.isArray(r.params) && r.params.length === 1;
      return ok ? { jsonrpc: '2.0', id: r.id ?? null, result: { balance: '0', nonce: 0 } } : { jsonrpc: '2.0', id: r.id ?? null, error: { code: -32602, message: 'TypeError: bad params', data: { stack: 'TypeError: bad params\n    at check (/srv/app/rpc.js:12:7)' } } };
    });
    const profile = referenceProfile();
    const target = new FuzzTarget(node.url, profile, 4);
    const json: JsonValue = { jsonrpc: '2.0', method: 'chain_getAccount', params: ['ab'.repeat(32), {}], id: 'c4' };
    const c: FuzzCase = { rule: 'invalid-params/extra', family: 'invalid-params', method: 'chain_getAccount', seed: 7, index: 4, title: 'chain_getAccount: one param too many ({})', risky: false, json, http: { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(stringifyJson(json)) } };
    const book = new FindingBook({ profile, timeoutMs: 2_000, shrink: { maxAttempts: 100, maxMs: 10_000 } });
    try {
      const answer = await sendCase(target.sender, c.http, 2_000);
      const violation = judgeAnswer(c.http, answer, { profile, slowBoundMs: 1_000 }).find((v) => v.oracle === 'leak');
      expect(violation).toBeDefined();
      if (violation === undefined) return;
      book.file(target, c, answer, violation, target.client.url);
      await book.settled();
      const [f] = book.findings;
      const minimal = parseJson(f?.minimal.http.bodyText ?? '') as { [k: string]: JsonValue };
      expect(minimal.params).toBeUndefined();
      // Said as what it is now, and what it was shrunk from; the original keeps its own title.
      expect(f?.minimal.title).toMatch(/^chain_getAccount, no params, .* \(shrunk from: chain_getAccount: one param too many \(\{\}\)\)$/);
      expect(f?.minimal.title).not.toMatch(/^chain_getAccount: one param too many/);
      expect(f?.original.title).toBe(c.title);
    } finally {
      await target.close();
      await node.close();
    }
  });

  it('shrinks keeping the whole violation: its kind and the method it is about, not only its oracle', async () => {
    // A node that loses the id of any call with by-name params (id null), whatever its method, and refuses them
    // (-32602) before looking the method up. Shrunk by the oracle alone, the call's method name went to "" (a
    // request the node refuses with -32602, not -32601: another complaint, which an honest node of that profile shows).
    const node = await nodeOf((r) => {
      const byName = typeof r.params === 'object' && r.params !== null && !Array.isArray(r.params);
      return byName ? { jsonrpc: '2.0', id: null, error: { code: -32602, message: 'Invalid params' } } : { jsonrpc: '2.0', id: r.id ?? null, result: 7 };
    });
    const profile = referenceProfile();
    const target = new FuzzTarget(node.url, profile, 4);
    const json: JsonValue = { jsonrpc: '2.0', method: 'chain_getAccount', params: { address: 'ab'.repeat(32) }, id: 'c17' };
    const c: FuzzCase = { rule: 'invalid-params/by-name', family: 'invalid-params', method: 'chain_getAccount', seed: 1, index: 17, title: 'by name', risky: false, json, http: { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(stringifyJson(json)) } };
    const book = new FindingBook({ profile, timeoutMs: 2_000, shrink: { maxAttempts: 100, maxMs: 10_000 } });
    try {
      const answer = await sendCase(target.sender, c.http, 2_000);
      const violation = judgeAnswer(c.http, answer, { profile, slowBoundMs: 1_000 }).find((v) => v.oracle === 'envelope');
      expect(violation?.kind).toBe('id null');
      if (violation === undefined) return;
      book.file(target, c, answer, violation, target.client.url);
      await book.settled();
      const [f] = book.findings;
      expect(f).toMatchObject({ recheck: 'reproduced', method: 'chain_getAccount' });
      const minimal = parseJson(f?.minimal.http.bodyText ?? '') as { [k: string]: JsonValue };
      expect(minimal.method).toBe('chain_getAccount');
      expect(f?.message).toMatch(/with id null \(null\), not/);
      expect(f?.minimal.http.bodyText?.length).toBeLessThan(c.http.body.length);
    } finally {
      await target.close();
      await node.close();
    }
  });

  it('files one broken envelope of one method as one finding, whatever the rule, id or params; another method\'s apart', async () => {
    // Both a result and an error in an answer to a height above the head (1000 here), and to any account: shrunk, the
    // heights stop at different values above 1000 (numbers move toward 0 only as far as the bug still shows).
    const node = await nodeOf((r) => {
      const height = Array.isArray(r.params) ? r.params[0] : undefined;
      const broken = r.method !== 'chain_getBlockByHeight' || (typeof height === 'number' && height > 1000);
      return broken ? { jsonrpc: '2.0', id: r.id ?? null, result: null, error: { code: -32050, message: 'Block not found' } } : { jsonrpc: '2.0', id: r.id ?? null, error: { code: -32602, message: 'Invalid params' } };
    });
    const profile = referenceProfile();
    const target = new FuzzTarget(node.url, profile, 4);
    const caseOf = (rule: string, index: number, json: { [k: string]: JsonValue; method: string }): FuzzCase => ({ rule, family: 'valid', method: json.method, seed: 1, index, title: rule, risky: false, json, http: { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(stringifyJson(json)) } });
    const cases = [
      caseOf('valid/no-block', 1, { jsonrpc: '2.0', method: 'chain_getBlockByHeight', params: [36907], id: 0 }),
      caseOf('envelope/id-type', 2, { jsonrpc: '2.0', method: 'chain_getBlockByHeight', params: [140737488355327], id: 'c3210' }),
      caseOf('envelope/member-order', 3, { id: 956, method: 'chain_getBlockByHeight', jsonrpc: '2.0', params: [90071] }),
      caseOf('valid/call', 4, { jsonrpc: '2.0', method: 'chain_getAccount', params: ['ab'.repeat(32)], id: 4 }),
    ];
    const book = new FindingBook({ profile, timeoutMs: 2_000, shrink: { maxAttempts: 30, maxMs: 5_000 } });
    try {
      for (const c of cases) {
        const answer = await sendCase(target.sender, c.http, 2_000);
        const violation = judgeAnswer(c.http, answer, { profile, slowBoundMs: 1_000 }).find((v) => v.oracle === 'envelope');
        if (violation === undefined) throw new Error(`the test server did not show the bug on ${c.rule}`);
        book.file(target, c, answer, violation, target.client.url);
      }
      await book.settled();
      expect(book.findings.map((f) => `${f.id} ${f.method ?? '-'} ${f.count}`)).toEqual(['F1 chain_getBlockByHeight 3', 'F2 chain_getAccount 1']);
    } finally {
      await target.close();
      await node.close();
    }
  });

  it('files one stack trace leaked word for word by several methods as one finding; a stack of its own apart', async () => {
    // The node's shared error handler leaks its stack for any call with a number in its params; chain_sendRawTransaction's own
    // code leaks another. Each call's case shrinks to a request of its own method, so only the leak's words tie them.
    const shared = 'Error: bad input\n    at handle (/srv/node/src/rpc.js:41:11)\n    at dispatch (/srv/node/src/rpc.js:88:5)';
    const own = 'TypeError: x is undefined\n    at submit (/srv/node/src/submit.js:12:9)';
    const node = await nodeOf((r) => {
      const numbered = Array.isArray(r.params) && r.params.some((p) => typeof p === 'number');
      if (!numbered) return { jsonrpc: '2.0', id: r.id ?? null, result: 7 };
      return { jsonrpc: '2.0', id: r.id ?? null, error: { code: -32603, message: r.method === 'chain_sendRawTransaction' ? own : shared } };
    });
    const profile = referenceProfile();
    const target = new FuzzTarget(node.url, profile, 4);
    const caseOf = (index: number, method: string): FuzzCase => {
      const json: JsonValue = { jsonrpc: '2.0', method, params: [index, 'x'.repeat(30)], id: index };
      return { rule: 'invalid-params/type', family: 'invalid-params', method, seed: 1, index, title: 'a number', risky: false, json, http: { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(stringifyJson(json)) } };
    };
    const book = new FindingBook({ profile, timeoutMs: 2_000, shrink: { maxAttempts: 40, maxMs: 5_000 } });
    try {
      for (const c of [caseOf(1, 'chain_getAccount'), caseOf(2, 'chain_getBlockByHeight'), caseOf(3, 'chain_sendRawTransaction')]) {
        const answer = await sendCase(target.sender, c.http, 2_000);
        const violation = judgeAnswer(c.http, answer, { profile, slowBoundMs: 1_000 }).find((v) => v.oracle === 'leak');
        if (violation === undefined) throw new Error(`the test server did not leak on ${c.method}`);
        book.file(target, c, answer, violation, target.client.url);
        await book.settled();
      }
      expect(book.findings.map((f) => `${f.id} ${f.method ?? '-'} ${f.count}`)).toEqual(['F1 chain_getAccount 2', 'F3 chain_sendRawTransaction 1']);
      expect(book.findings[0]?.alsoAs).toEqual([{ id: 'F2', method: 'chain_getBlockByHeight', rule: 'invalid-params/type', count: 1 }]);
      expect(target.findings).toBe(2);
    } finally {
      await target.close();
      await node.close();
    }
  });
});

/** A node answering each request object (a body that is not one: {}) with `answer`'s value. */
function nodeOf(answer: (request: { [k: string]: JsonValue }) => JsonValue): Promise<TestServer> {
  return startTestServer((req, res) => {
    let request: JsonValue = null;
    try {
      request = parseJson(req.body.toString());
    } catch {
      // answered as {} below
    }
    const r = typeof request === 'object' && request !== null && !Array.isArray(request) ? request : {};
    res.writeHead(200, { 'content-type': 'application/json' }).end(stringifyJson(answer(r)));
  });
}
