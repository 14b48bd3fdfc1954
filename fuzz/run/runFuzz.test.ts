/**
 * The liveness finding's culprit (runFuzz.ts, culpritOf): with several cases in flight when a node dies, the
 * request it names is the first risky one of those left unanswered, else the earliest sent, and the message says
 * it is a guess and names the others. And the run keeps where its profile came from, for --replay. The whole run against real faulty nodes
 * is runFuzz.proof.test.ts (timing lane).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import type { FuzzAnswer } from '../model.js';
import { culpritOf, diedMessage, noteSuspect, runFuzz, unreachableMessage, type Suspect } from './runFuzz.js';

const cut: FuzzAnswer = { failure: { code: 'ECONNRESET', message: 'socket hang up' }, ms: 3 };
const suspect = (index: number, risky: boolean, sent = index): Suspect => ({
  c: { rule: risky ? 'envelope/deep' : 'invalid-params/type', family: risky ? 'envelope' : 'invalid-params', method: 'chain_getAccount', seed: 1, index, title: `#${index}`, risky, http: { method: 'POST', contentType: 'application/json', body: new Uint8Array() } },
  answer: cut,
  sent,
});

describe('culpritOf: the request a dead node is blamed on', () => {
  it('names the first risky one of the cases left unanswered, else the earliest sent', () => {
    // Their failures may come back in any order.
    const suspects = [suspect(1798, false), suspect(1797, true), suspect(1796, false)];
    const { culprit, others } = culpritOf(suspects, suspect(1798, false));
    expect(culprit.c.index).toBe(1797);
    expect(others.map((s) => s.c.index)).toEqual([1796, 1798]);
    expect(diedMessage(culprit, others)).toMatch(/^the node stopped answering after this request \(a guess: the first risky one of 3 cases left unanswered as it died; also #1796, #1798, which --replay tries in turn\)/);
    const plain = [suspect(1798, false), suspect(1796, false)];
    const first = culpritOf(plain, suspect(1798, false));
    expect(first.culprit.c.index).toBe(1796);
    expect(diedMessage(first.culprit, first.others)).toMatch(/\(a guess: the first sent of 2 cases left unanswered as it died; also #1798, which/);
  });

  it('goes by the order the node was sent the cases, not by their index', () => {
    // What the node saw is the order it was sent the cases in (its own count), whatever their index in the run.
    const { culprit } = culpritOf([suspect(12, false, 41), suspect(10, false, 43), suspect(11, false, 42)], suspect(12, false, 41));
    expect(culprit.c.index).toBe(12);
  });

  it('puts a case sent on a connection of its own after those sent beside it over kept connections', () => {
    // No Content-Length: a connection of its own, so a TCP handshake before its bytes reach the node.
    const alone = suspect(72, false);
    alone.c.http.omitContentLength = true;
    const { culprit, others } = culpritOf([alone, suspect(73, false), suspect(74, false)], suspect(74, false));
    expect(culprit.c.index).toBe(73);
    expect(others.map((s) => s.c.index)).toEqual([74, 72]);
  });

  it('a node that dies just after answering: the last case answered is named before a harmless case refused after it', () => {
    const answered = (index: number): Suspect => ({ ...suspect(index, false), answer: { status: 200, text: '{}', ms: 2 } });
    const refused = { ...suspect(377, false), answer: { failure: { code: 'REFUSED', message: 'Could not reach http://127.0.0.1:9230/rpc (ECONNREFUSED)' }, ms: 1 } };
    const { culprit, others } = culpritOf([answered(375), answered(376), refused], refused);
    expect(culprit.c.index).toBe(376);
    expect(others.map((s) => s.c.index)).toEqual([377, 375]);
    expect(diedMessage(culprit, others)).toMatch(/^the node stopped answering after this request \(a guess: the last case it answered: a node can die just after answering; also #377, #375 \(answered\)/);
    // Answered cases are kept as candidates, the last few only; every unanswered one is kept.
    const kept: Suspect[] = [];
    for (let i = 1; i <= 10; i++) noteSuspect(kept, i === 3 ? suspect(i, false) : answered(i));
    expect(kept.map((s) => s.c.index)).toEqual([3, 7, 8, 9, 10]);
    // A connection closed without an answer (the transport's REFUSED too) did reach the node: it is the suspect.
    const closed = { ...suspect(378, false), answer: { failure: { code: 'REFUSED', message: 'http://127.0.0.1:9230/rpc closed the connection without answering' }, ms: 1 } };
    expect(culpritOf([answered(376), closed], closed).culprit.c.index).toBe(378);
    // A risky case refused may have reached it on a kept connection it then closed: named before the last answered.
    const riskyRefused = { ...refused, c: { ...refused.c, risky: true } };
    expect(culpritOf([answered(376), riskyRefused], riskyRefused).culprit.c.index).toBe(377);
  });

  it('names the case after which the probe failed when none was left unanswered, and says no guess', () => {
    const { culprit, others } = culpritOf([], suspect(7, false));
    expect(culprit.c.index).toBe(7);
    expect(others).toEqual([]);
    expect(diedMessage(culprit, others)).toMatch(/^the node stopped answering after this request: a known-good chain_blockNumber went unanswered twice, 1000 ms apart/);
  });
});

/**
 * A node that answers every call with a result, echoing its id, until the third case (id "c<n>": a case's, not the
 * chain reading's): it answers that one too, then dies, at once (as an exception thrown once the answer is written
 * would) or `afterMs` later (a timer), refusing every request from then on. `killer()`: that case's body.
 */
async function nodeDyingOfThirdCase(afterMs?: number): Promise<{ url: string; killer: () => string }> {
  let seen = 0;
  let killer = '';
  let dead = false;
  const server = createServer((req, res) => {
    if (dead) {
      req.socket.destroy();
      return;
    }
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const id = /"id":("[^"]*"|\d+)/.exec(body)?.[1] ?? 'null';
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc":"2.0","id":${id},"result":5}`);
      if (!/"id":"c\d+"/.test(body) || ++seen !== 3) return;
      killer = body;
      const die = (): void => {
        dead = true;
        server.close();
        server.closeAllConnections();
      };
      if (afterMs === undefined) {
        dead = true;
        setImmediate(die);
      } else setTimeout(die, afterMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, killer: () => killer };
}

describe('runFuzz', () => {
  it('with --concurrency 1, names the case a node died just after answering, not the next one, which found it gone', async () => {
    // Answers chain_blockNumber rightly; the third case (id "c<n>": a case's, not the chain reading's) it answers,
    // then dies as its answer goes out, as an exception thrown once the answer is written would.
    const { url, killer } = await nodeDyingOfThirdCase();
    const run = await runFuzz({ urls: [url], profile: referenceProfile(), seed: 1, cases: 20, durationMs: null, only: ['valid', 'chain_blockNumber'], concurrency: 1, maxRate: 1_000, maxBodyBytes: 1 << 20, timeoutMs: 1_000, livenessEvery: 100, shrink: { maxAttempts: 1, maxMs: 100 }, version: 'test' });
    const died = run.findings.find((f) => f.oracle === 'liveness');
    expect(run.findings.map((f) => f.oracle)).toEqual(['liveness']);
    expect(Buffer.from(died?.original.http.bodyBase64 ?? '', 'base64').toString()).toBe(killer());
    expect(died?.message).toMatch(/^the node stopped answering after this request \(the last case it answered/);
    // No case is made once no node answers: the run's count is the cases the node was sent (it said 75 against 74).
    expect(run.cases).toBe(run.targets[0]?.cases);
  }, 15_000);

  it('a node that dies a while after the request that killed it: the cases sent in the 2 s before are candidates, the killer among them', async () => {
    // Answers every call; 300 ms after the third case (id "c<n>") it dies, while the run has sent it more since.
    const { url, killer } = await nodeDyingOfThirdCase(300);
    const run = await runFuzz({ urls: [url], profile: referenceProfile(), seed: 1, cases: 2_000, durationMs: null, only: ['valid', 'chain_blockNumber'], concurrency: 1, maxRate: 300, maxBodyBytes: 1 << 20, timeoutMs: 1_000, livenessEvery: 100, shrink: { maxAttempts: 1, maxMs: 100 }, version: 'test' });
    const died = run.findings.find((f) => f.oracle === 'liveness');
    expect(died).toBeDefined();
    const candidates = [died?.original, ...(died?.candidates ?? [])].map((k) => Buffer.from(k?.http.bodyBase64 ?? '', 'base64').toString());
    expect(candidates).toContain(killer());
    expect(died?.message).toMatch(/--replay also tries the \d+ cases sent in the 2 s before/);
  }, 15_000);

  it('probes with the spec\'s own call (an integer id): a node that hangs on string ids is a finding, not a node not running', async () => {
    // Answers any request whose id is not a string at once; one with a string id never (a planted bug).
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        if (/"id"\s*:\s*"/.test(body)) return;
        const id = /"id":(\d+)/.exec(body)?.[1] ?? 'null';
        res.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc":"2.0","id":${id},"result":"0x2a"}`);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const run = await runFuzz({ urls: [url], profile: referenceProfile(), seed: 1, cases: 30, durationMs: null, only: ['envelope'], concurrency: 4, maxRate: 1_000, maxBodyBytes: 1 << 20, timeoutMs: 300, livenessEvery: 100, shrink: { maxAttempts: 3, maxMs: 2_000 }, version: 'test' });
      expect(run.targets[0]?.state).toBe('answering');
      // Every case with a string id went unanswered: found as such (re-sent, shrunk), the node still answering.
      const hang = run.findings.find((f) => f.oracle === 'no-answer' && f.recheck === 'reproduced' && /"id"\s*:\s*"/.test(f.minimal.http.bodyText ?? ''));
      expect(hang?.message).toMatch(/^gave no HTTP answer \(TIMEOUT/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  }, 30_000);

  it('says a refused connection is nothing listening, not a wrong endpoint path', () => {
    const t = (lastProbeFailure: string | undefined) => ({ client: { url: 'http://127.0.0.1:1/rpc' }, lastProbeFailure }) as Parameters<typeof unreachableMessage>[0][number];
    expect(unreachableMessage([t('REFUSED')])).toMatch(/connection was refused \(nothing listens there\)/);
    expect(unreachableMessage([t('REFUSED')])).not.toMatch(/--rpc-path/);
    expect(unreachableMessage([t(undefined)])).toMatch(/--rpc-path/);
    // Something answering HTTP, not the call: what it sent is said, not "is the node running there?".
    const html = { ...t(undefined), lastProbeAnswer: 'HTTP 500, text/html: <html>oops</html>' };
    expect(unreachableMessage([html])).toMatch(/http:\/\/127\.0\.0\.1:1\/rpc answered HTTP 500, text\/html: <html>oops<\/html>; is its endpoint path right \(--rpc-path\)/);
    expect(unreachableMessage([html])).not.toMatch(/is the node running/);
  });

  it('keeps the profile\'s file in the run\'s options (report.json), for --replay and the replay commands', async () => {
    // A node that answers anything with a result: what it is judged to do wrong does not matter here.
    const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":"0x2a"}')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const base = { urls: [url], profile: referenceProfile(), seed: 1, cases: 5, durationMs: null, only: ['valid'], concurrency: 1, maxRate: 1_000, maxBodyBytes: 1 << 20, timeoutMs: 1_000, livenessEvery: 100, maxFindings: 1, shrink: { maxAttempts: 1, maxMs: 100 }, version: 'test' };
      expect((await runFuzz({ ...base, profileFile: '/etc/chainrpc/net.json' })).options).toMatchObject({ profile: 'reference', profileFile: '/etc/chainrpc/net.json' });
      expect((await runFuzz(base)).options.profileFile).toBeUndefined();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
