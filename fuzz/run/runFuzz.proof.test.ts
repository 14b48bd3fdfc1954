/**
 * The fuzzer's own proof (docs/fuzz.md, "How the fuzzer is proven"), as the fault matrix is the suite's: against
 * each robustness fault of the fault layer (reference-node/faults/robustness.ts: a bug one specific input sets
 * off), `runFuzz` finds it within its documented budget, by the oracle the fault names, shrinks it, and its
 * minimal case shows it again when replayed; against the honest reference node, and against an MN and an LN of
 * one network compared differentially, it finds nothing. Real nodes on loopback, real HTTP. In the timing lane:
 * the slow oracle judges time, so nothing else shares the cores; the finds run side by side with each other only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { ROBUSTNESS_FAULTS } from '../../reference-node/faults/faultCatalogue.js';
import { startTestNetwork, startTestNode } from '../../test/support/suites.js';
import type { FuzzRun } from '../model.js';
import { fuzzVerdict } from '../fuzzVerdict.js';
import { httpOf } from './foundCase.js';
import { judgeAnswer } from './judgeAnswer.js';
import { runFuzz, type FuzzOptions } from './runFuzz.js';
import { CaseSender, fuzzClient, sendCase } from './sendCase.js';

/** The budget each fault must be found within (docs/fuzz.md says the same). */
const FAULT_BUDGET_CASES = 2_000;
const SEED = 1;

/** Whether a body holds an integer above 2^53 (what sets dies-on-huge-height off, as a height). */
const hasHugeHeight = (text: string): boolean => text.includes('chain_getBlockByHeight') && [...text.matchAll(/\d{16,}/g)].some((m) => BigInt(m[0]) > 2n ** 53n);

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

const fuzz = (urls: string[], extra: Partial<FuzzOptions> = {}): Promise<FuzzRun> =>
  runFuzz({
    urls,
    profile: referenceProfile(),
    seed: SEED,
    cases: 2_000,
    durationMs: null,
    only: [],
    concurrency: 4,
    maxRate: 5_000,
    maxBodyBytes: 1024 * 1024,
    timeoutMs: 2_500,
    livenessEvery: 100,
    // Shrinking a slow or hanging case costs its wait per try: a small budget keeps the lane short (the bench measures more).
    shrink: { maxAttempts: 40, maxMs: 4_000 },
    version: 'test',
    ...extra,
  });

describe('chainrpc fuzz, proven by robustness faults', () => {
  /** Fuzzes one robustness fault's node within the budget, then replays the minimal case it names. */
  const findAndReplay = async (url: string, fault: string, oracle: string): Promise<void> => {
    const run = await fuzz([url], { cases: FAULT_BUDGET_CASES, maxFindings: 1 });
    const found = fuzzVerdict(run).standing.find((f) => f.oracle === oracle);
    expect(found, `findings: ${run.findings.map((f) => `${f.oracle} ${f.recheck} ${f.message}`).join(' | ')}`).toBeDefined();
    if (found === undefined) return;
    // Shrunk: never larger than the case that first showed it.
    expect(Buffer.from(found.minimal.http.bodyBase64, 'base64').length).toBeLessThanOrEqual(Buffer.from(found.original.http.bodyBase64, 'base64').length);
    expect(found.minimal.curl).toContain(url);
    if (oracle === 'liveness') {
      expect(found.recheck).toBe('not-rechecked');
      expect(run.targets[0]?.state).toBe('stopped');
      // The request it names is the one that killed the node (a height above 2^53), not one cut with it.
      if (fault === 'dies-on-huge-height') expect(hasHugeHeight(found.minimal.http.bodyText ?? ''), `${found.minimal.http.bodyText ?? ''}: ${found.message}`).toBe(true);
      return;
    }
    expect(found.recheck).toBe('reproduced');
    // Replayed: the minimal case's exact bytes show the same violation again.
    const client = fuzzClient(url, referenceProfile(), 2);
    const sender = new CaseSender(client.url, 2);
    try {
      const answer = await sendCase(sender, httpOf(found.minimal), 2_500);
      expect(judgeAnswer(httpOf(found.minimal), answer, { profile: referenceProfile(), slowBoundMs: 1_000 }).map((v) => v.oracle)).toContain(oracle);
    } finally {
      sender.close();
      await client.close();
    }
  };

  // Side by side with each other: most of their time is waiting on a slow or hanging node (2 s and 2.5 s a try,
  // against the slow oracle's bound of 1 s), and each stops its own node.
  it.concurrent.each(ROBUSTNESS_FAULTS.map((f) => [f.name, f.oracle] as const))('finds %s by its %s oracle, shrunk and replayable', async (fault, oracle) => {
    const node = await startTestNode({ faults: [fault] });
    try {
      await findAndReplay(node.url, fault, oracle);
    } finally {
      await node.stop();
    }
  }, 120_000);

  it.concurrent('ends near its time budget: the shrinking of a hanging finding under way is cut to it', async () => {
    const node = await startTestNode({ faults: ['hangs-on-duplicate-batch-ids'] });
    try {
      // A shrink budget of 30 s, where each try that still hangs costs the 2.5 s timeout: without the cut, far longer.
      const run = await fuzz([node.url], { cases: null, durationMs: 4_000, only: ['envelope'], shrink: { maxAttempts: 200, maxMs: 30_000 } });
      expect(run.stop).toBe('duration');
      expect(run.findings.some((f) => f.oracle === 'no-answer')).toBe(true);
      // The budget, then at most a re-check, the last try and a confirmation (2.5 s timeouts each) and the control calls.
      expect(run.durationMs).toBeLessThan(4_000 + 4 * 2_500);
    } finally {
      await node.stop();
    }
  }, 120_000);

  it('finds what one thread finds with its case thread (--threads 2), and nothing more', async () => {
    const node = await startTestNode({ faults: ['leaks-stack-on-object-address', 'result-for-fractional-height', 'loses-id-on-odd-hex'] });
    stops.push(() => node.stop());
    const one = await fuzz([node.url], { cases: 600, threads: 1 });
    const two = await fuzz([node.url], { cases: 600, threads: 2, profileSource: null });
    const seen = (run: FuzzRun): string[] => run.findings.map((f) => `${f.signature} ${f.recheck}`).sort();
    expect(seen(two)).toEqual(seen(one));
    expect(fuzzVerdict(two).standing.map((f) => f.oracle)).toEqual(expect.arrayContaining(['leak', 'error-expected', 'envelope']));
    expect(two.toolErrors).toEqual([]);
    expect(two.cases).toBe(600);
  }, 120_000);

  it('finds nothing on the honest reference node (2,000 cases, every family)', async () => {
    const node = await startTestNode();
    stops.push(() => node.stop());
    const run = await fuzz([node.url], { seed: 3 });
    expect(run.cases).toBe(2_000);
    for (const family of ['valid', 'invalid-params', 'envelope', 'http'] as const) expect(run.byFamily[family], family).toBeGreaterThan(0);
    expect(run.findings.map((f) => `${f.oracle} ${f.method ?? ''} ${f.rule}: ${f.message}`)).toEqual([]);
    expect(run.targets[0]?.livenessChecks).toBeGreaterThan(10);
    expect(fuzzVerdict(run).word).toBe('CLEAN');
  }, 120_000);

  it('finds a disagreement between two nodes of different chains, both answers side by side', async () => {
    const a = await startTestNode();
    stops.push(() => a.stop());
    const b = await startTestNode();
    stops.push(() => b.stop());
    // Two lone MNs: each its own genesis and proposer, so the same block height holds different blocks.
    await new Promise((r) => setTimeout(r, 1_000));
    const run = await fuzz([a.url, b.url], { seed: 5, cases: 600, only: ['chain_getBlockByHeight'] });
    const found = run.findings.find((f) => f.oracle === 'disagreement');
    expect(found, run.findings.map((f) => f.message).join(' | ')).toBeDefined();
    expect(found?.url).toBe(b.url);
    expect(found?.others?.map((o) => o.url)).toEqual([a.url]);
    expect(found?.message).toMatch(/different results/);
  }, 120_000);

  it('finds nothing comparing an MN and an LN of one network (valid cases to both, answers compared)', async () => {
    const net = await startTestNetwork(['MN', 'LN']);
    stops.push(() => net.stop());
    const run = await fuzz(net.urls, { seed: 4, cases: 1_000, only: ['valid'] });
    expect(run.byFamily.valid).toBe(1_000);
    expect(run.targets.map((t) => t.cases)).toEqual([1_000, 1_000]);
    expect(run.findings.map((f) => `${f.url} ${f.oracle} ${f.method ?? ''}: ${f.message}`)).toEqual([]);
  }, 120_000);
});
