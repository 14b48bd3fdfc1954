/**
 * Generated k6 tests under the real k6 (test/support/k6.ts finds it; without it these skip, saying so): faults
 * break the matching threshold and k6 exits 99; a split into execution segments sends what one process sends,
 * keeps every sender's nonces in order, and merges into the same counts. What judges time (every built-in
 * scenario keeps its thresholds, latency ones included; k6 against the Node engine; merged percentiles against
 * a server of known latency) is in k6.timing.test.ts, in the timing lane.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../core/client/index.js';
import { parseJson } from '../../core/json/index.js';
import { callCounts as calls, findK6, K6_SKIP_NOTE, runK6, runK6Segments, summariesIn, writeTestK6 } from '../../test/support/k6.js';
import { startTestNode, type TestNode } from '../../test/support/suites.js';
import type { ScenarioOverrides } from '../scenario/loadScenario.js';
import type { K6Summary } from './K6Summary.js';
import { mergeK6Summaries } from './mergeK6Summaries.js';

const k6 = findK6();
if (k6 === undefined) console.warn(`load/k6/k6.test.ts ${K6_SKIP_NOTE}`);

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-k6-'));
let node: TestNode;
beforeAll(async () => {
  if (k6 !== undefined) node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let tests = 0;
/** A scenario's k6 test for `url`, in a folder of its own. */
const generate = (name: string, overrides: ScenarioOverrides, url = node.url, segments = 1): Promise<string> => writeTestK6(name, overrides, url, join(dir, `${name}-${++tests}`), segments);

// Light: 20 requests/s, and 8 VUs (k6 initializes every VU it may use; 8 hold 20 requests/s many times over).
const quick = { rate: 20, duration: '2s', warmup: '500ms', maxInFlight: 8 } as const;

describe.skipIf(k6 === undefined)('generated k6 tests under real k6', () => {
  const bin = k6 ?? 'k6';

  // The faults each run their own k6 (light, at 10 to 20 requests/s): side by side.
  it.concurrent('errors inside batches (a node that reverses and truncates batch answers) break errors < 1%: k6 exits 99', async () => {
    const faulty = await startTestNode({ faults: ['batch-reversed-and-truncated'] });
    try {
      const out = await generate('batch', { ...quick, seed: 20, rate: 10, batchSize: 5 }, faulty.url);
      const run = await runK6(bin, ['script.js'], out);
      expect(run.code).toBe(99);
      const [summary] = summariesIn(out);
      expect(summary?.failures.missingElements).toBeGreaterThan(0);
      expect(summary?.thresholds['chainrpc_call_failed: rate<0.01']).toBe(false);
    } finally {
      await faulty.stop();
    }
  }, 60_000);

  it.concurrent('transactions refused (a node that drops every second one, so the lanes meet gaps) break errors < 1%: k6 exits 99', async () => {
    const faulty = await startTestNode({ faults: ['admitted-tx-dropped'] });
    try {
      const out = await generate('send-raw-tx', { ...quick, seed: 21 }, faulty.url);
      const run = await runK6(bin, ['script.js'], out);
      expect(run.code).toBe(99);
      const [summary] = summariesIn(out);
      expect(summary?.methods.chain_sendRawTransaction?.errors['-32006']).toBeGreaterThan(0);
    } finally {
      await faulty.stop();
    }
  }, 60_000);

  it.concurrent('split into 2 and into 3 execution segments: the same total as one process, nonces in order, merged counts exact', async () => {
    const client = createClient({ baseUrl: node.url });
    try {
      // The three runs side by side, each with its own senders (its own seed): each starts every lane at its account's nonce.
      const runOnce = async (parts: number, i: number): Promise<{ parts: number; merged: ReturnType<typeof mergeK6Summaries>; summaries: K6Summary[] }> => {
        const out = await generate('send-raw-tx', { rate: 30, duration: '3s', warmup: '500ms', maxInFlight: 12, seed: 100 + i }, node.url, parts);
        // Each instance reads only its own senders' lanes (k % parts = its index).
        const runs = await runK6Segments(bin, out, parts, (k) => ['-e', `CHAINRPC_CORPUS=corpus-${k}-of-${parts}.json`]);
        for (const r of runs) expect(r.code, r.stderr).toBe(0);
        const summaries = summariesIn(out);
        expect(summaries).toHaveLength(parts);
        // Every sender sent: each instance found a lane for each of its VUs in its share of the corpus.
        for (const s of summaries) expect(s.requests.count).toBe(s.schedule.started);
        for (const s of summaries) {
          // No nonce-gap refusal anywhere: each sender's lane stayed in order across the instances.
          const sent = s.methods.chain_sendRawTransaction;
          expect(sent?.errors ?? {}).toEqual({});
          expect(sent?.ok).toBe(sent?.calls);
        }
        // Inclusion 100%: every measured transaction (and the warm-up's before them) reaches the chain: the
        // senders' nonces rise by at least what the window sent and then stop, none beyond its lane.
        const corpus = parseJson(readFileSync(join(out, 'corpus.json'), 'utf8')) as unknown as { senders: { address: string; txs: { nonce: number }[] }[] };
        const sentTotal = summaries.reduce((n, s) => n + (s.methods.chain_sendRawTransaction?.ok ?? 0), 0);
        const firstNonces = corpus.senders.map((l) => l.txs[0]?.nonce ?? 0);
        const deadline = Date.now() + 15_000;
        let included = -1;
        let stable = 0;
        let nonces: number[] = [];
        while (Date.now() < deadline && stable < 3) {
          const accounts = await Promise.all(corpus.senders.map((l) => client.call<{ nonce: number }>('chain_getAccount', [l.address])));
          nonces = accounts.map((a) => Number(a.nonce));
          const now = nonces.reduce((n, nonce, k) => n + nonce - (firstNonces[k] ?? 0), 0);
          stable = now === included && now >= sentTotal ? stable + 1 : 0;
          included = now;
          await new Promise((r) => setTimeout(r, 300));
        }
        expect(stable).toBe(3);
        expect(included).toBeGreaterThanOrEqual(sentTotal);
        corpus.senders.forEach((l, k) => expect(nonces[k] ?? 0).toBeLessThanOrEqual((firstNonces[k] ?? 0) + l.txs.length));
        return { parts, merged: mergeK6Summaries(summaries), summaries };
      };
      const results = await Promise.all([1, 2, 3].map((parts, i) => runOnce(parts, i)));
      const [one, two, three] = results;
      if (one === undefined || two === undefined || three === undefined) throw new Error('runs missing');
      // The same schedule split: started (and dropped) add up to one process's, to within one iteration per
      // instance at each edge of the measured window (the warm-up's end, the run's end: an iteration due just
      // before an edge and started just after it, on a busy machine, falls on the other side), the single run's
      // two edges included. A split that ran the whole schedule in each instance, or lost a share, is far off.
      for (const split of [two, three]) {
        expect(Math.abs(split.merged.schedule.scheduled - one.merged.schedule.scheduled)).toBeLessThanOrEqual(2 * split.parts + 2);
        const total = split.summaries.reduce((n, s) => n + s.requests.count, 0);
        expect(split.merged.schedule.sent).toBe(total);
        expect(split.merged.methods.reduce((n, m) => n + m.calls, 0)).toBe(split.summaries.reduce((n, s) => n + calls(s).calls, 0));
        expect(split.merged.latency.count).toBe(total);
      }
    } finally {
      await client.close();
    }
  }, 120_000);
});
