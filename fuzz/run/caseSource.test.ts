/**
 * The case thread gives the run exactly what its own thread would: caseAt's cases in order (their JSON values
 * made again where a finding needs them), judgeAnswer's verdicts, cases under a new chain view once the view
 * reaches it; and a case thread that cannot start leaves the run going on in one thread, saying so.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { stringifyJson } from '../../core/json/index.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { caseAt } from '../cases/caseAt.js';
import { makeCaseContext } from '../cases/CaseContext.js';
import type { FuzzAnswer, FuzzCase } from '../model.js';
import { judgeAnswer } from './judgeAnswer.js';
import { startCaseSource, WorkerCases, type CaseSource } from './caseSource.js';

const profile = referenceProfile();
const ctx = makeCaseContext(profile, { height: 120n, genesisHeight: 0, addresses: ['ab'.repeat(32)], chainId: 1n });
const SEED = 7;

const sources: CaseSource[] = [];
afterEach(async () => {
  for (const s of sources.splice(0)) await s.close();
});

function start(options: { profile: null | string; limit: number | null }): CaseSource {
  const source = startCaseSource(SEED, ctx, options);
  sources.push(source);
  return source;
}

async function take(source: CaseSource, n: number): Promise<FuzzCase[]> {
  const out: FuzzCase[] = [];
  for (let i = 0; i < n; i++) out.push(await source.next());
  return out;
}

const same = (c: FuzzCase, expected: FuzzCase): void => {
  expect({ index: c.index, rule: c.rule, title: c.title, family: c.family, risky: c.risky, method: c.method, body: Buffer.from(c.http.body).toString('base64'), contentType: c.http.contentType, httpMethod: c.http.method }).toEqual({
    index: expected.index,
    rule: expected.rule,
    title: expected.title,
    family: expected.family,
    risky: expected.risky,
    method: expected.method,
    body: Buffer.from(expected.http.body).toString('base64'),
    contentType: expected.http.contentType,
    httpMethod: expected.http.method,
  });
};

/** Answers of several kinds for a case: a result, an error, a leak, a page that is not JSON, no answer at all. */
function answersTo(c: FuzzCase): FuzzAnswer[] {
  const headers = { 'content-type': 'application/json' };
  return [
    { status: 200, headers, text: `{"jsonrpc":"2.0","result":"0x1","id":${c.index % 3 === 0 ? 'null' : '1'}}`, ms: 2 },
    { status: 200, headers, text: '{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid params"},"id":1}', ms: 3 },
    { status: 500, headers: { 'content-type': 'text/html' }, text: '<pre>TypeError: Cannot read properties of undefined\n    at handle (/srv/app/server.js:12:7)</pre>', ms: 1 },
    { failure: { code: 'TIMEOUT', message: 'no answer in 5000 ms' }, ms: 5_000 },
  ];
}

describe('the case thread (caseSource.ts)', () => {
  it("gives caseAt's cases in order, and whole() gives back the JSON values it did not send", async () => {
    const source = start({ profile: null, limit: 400 });
    expect(source).toBeInstanceOf(WorkerCases);
    const cases = await take(source, 400);
    let restored = 0;
    cases.forEach((c, i) => {
      const expected = caseAt(SEED, i, ctx);
      same(c, expected);
      if (c.json === undefined && expected.json !== undefined) restored++;
      expect(source.whole(c).json).toEqual(expected.json);
    });
    // The test saw values cross without their JSON (and come back by whole()), not only valid calls.
    expect(restored).toBeGreaterThan(50);
    expect(source.problem).toBeUndefined();
  });

  it("gives judgeAnswer's verdicts, each answer judged against its own case", async () => {
    const source = start({ profile: null, limit: 150 });
    const cases = await take(source, 150);
    let found = 0;
    let clean = 0;
    for (const c of cases) {
      const answers = answersTo(c);
      const verdicts = await Promise.all(answers.map(async (a) => source.judge(c, a, 1_000)));
      answers.forEach((a, i) => {
        const expected = judgeAnswer(c.http, a, { profile, slowBoundMs: 1_000 });
        expect(verdicts[i]).toEqual(expected);
        if (expected.length > 0) found++;
        else clean++;
      });
      source.done(c);
    }
    expect(found).toBeGreaterThan(100);
    // Both kinds seen: verdicts that find something, and (fewer: the answers are generic) some that find nothing.
    expect(clean).toBeGreaterThan(0);
  });

  it('makes the cases past its window under a new view of the chain', async () => {
    const source = start({ profile: null, limit: null });
    await take(source, 10);
    const later = makeCaseContext(profile, { height: 90_000n, genesisHeight: 0, addresses: ['cd'.repeat(32)], chainId: 1n });
    source.chain(later);
    const cases = await take(source, 700);
    // Cases up to a window (256) ahead may be made already under the first view; past it, all are the new view's.
    for (const c of cases.filter((x) => x.index >= 10 + 300)) same(c, caseAt(SEED, c.index, later));
    const changed = cases.filter((c) => c.index >= 310 && Buffer.compare(Buffer.from(c.http.body), Buffer.from(caseAt(SEED, c.index, ctx).http.body)) !== 0);
    expect(changed.length).toBeGreaterThan(0);
    // Whichever view a case was made under, whole() gives the value of its very bytes (made again under that view).
    let values = 0;
    for (const c of cases) {
      const json = source.whole(c).json;
      if (json === undefined) continue;
      values++;
      expect(stringifyJson(json)).toBe(Buffer.from(c.http.body).toString('utf8'));
    }
    expect(values).toBeGreaterThan(300);
  });

  it('goes on in one thread, and says so, when the case thread cannot start', async () => {
    const source = start({ profile: '/nonexistent/chainrpc-profile.json', limit: 300 });
    const cases = await take(source, 300);
    cases.forEach((c, i) => same(c, caseAt(SEED, i, ctx)));
    const c = cases[5] as FuzzCase;
    const answer = answersTo(c)[2] as FuzzAnswer;
    expect(await source.judge(c, answer, 1_000)).toEqual(judgeAnswer(c.http, answer, { profile, slowBoundMs: 1_000 }));
    expect(source.problem).toMatch(/could not start: cannot read profile \/nonexistent/);
  });
});
