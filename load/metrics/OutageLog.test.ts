import { describe, expect, it } from 'vitest';
import type { ChaosEvent } from '../model.js';
import { clientsAtFaults } from '../chaos/clientsAtFaults.js';
import { mergeOutages, mergeOutagesCounted, OutageLog, OUTAGES_HELD, OUTAGES_KEPT, outagesForReport } from './OutageLog.js';

/** Requests as [scheduled, ended, failed methods], told to a log in the order they ended (as the engine does). */
function logOf(requests: [number, number, string[]][]): OutageLog {
  const log = new OutageLog();
  for (const [s, e, failed] of [...requests].sort((a, b) => a[1] - b[1])) log.ended(s, e, failed);
  return log;
}

/**
 * The outside tester's hang: a read every 20 ms answered in 5 ms; the node holds every request it gets from
 * 4013 to 5013 ms (they time out `timeoutMs` later) and answers the ones after at once (the first ends at 5020).
 */
function hang(timeoutMs: number): [number, number, string[]][] {
  const out: [number, number, string[]][] = [];
  for (let s = 13; s < 20_000; s += 20) {
    const held = s >= 4_013 && s < 5_013;
    out.push(held ? [s, s + timeoutMs, ['chain_blockNumber']] : [s, s + (s >= 5_013 && s < 5_100 ? 7 : 5), []]);
  }
  return out;
}

describe('OutageLog: where the clients saw calls fail', () => {
  it('opens at the first failed request\'s scheduled send and closes with the first request sent after it that succeeds', () => {
    const log = new OutageLog();
    log.ended(0, 5, []);
    log.ended(100, 400, ['chain_blockNumber']); // in flight when the node fell
    log.ended(50, 410, []); // sent before the outage opened: closes nothing
    log.ended(200, 201, ['chain_getAccount', 'chain_getAccount']);
    log.ended(900, 950, []);
    log.ended(1000, 1001, []);
    expect(log.outages()).toEqual({ count: 1, kept: [{ fromMs: 100, lastFailedMs: 400, toMs: 950, failedCalls: 3, byMethod: { chain_blockNumber: 1, chain_getAccount: 2 } }] });
  });

  it('keeps an outage open when no call succeeds again, and counts past what it holds', () => {
    const log = new OutageLog();
    for (let i = 0; i < OUTAGES_HELD + 5; i++) {
      log.ended(i * 10, i * 10 + 1, ['m']);
      log.ended(i * 10 + 2, i * 10 + 3, []);
    }
    log.ended(OUTAGES_HELD * 20, OUTAGES_HELD * 20 + 1, ['m']);
    const { kept, count } = log.outages();
    expect(count).toBe(OUTAGES_HELD + 6);
    expect(kept).toHaveLength(OUTAGES_HELD);
    expect(kept.at(-1)?.toMs).toBeNull();
  });

  it('places a request that failed late by its scheduled send: a 1 s hang is a 1 s outage, whatever the timeout (an outside tester\'s hang read 4.3 s)', () => {
    for (const timeoutMs of [3_000, 10_000]) {
      // The held requests fail at 7 s (or 14 s), long after the node answered again at 5 s: the order calls end.
      const { kept, count } = logOf(hang(timeoutMs)).outages();
      expect({ timeoutMs, count, kept }).toEqual({ timeoutMs, count: 1, kept: [{ fromMs: 4_013, lastFailedMs: 4_993 + timeoutMs, toMs: 5_020, failedCalls: 50, byMethod: { chain_blockNumber: 50 } }] });
    }
  });

  it('joins outages a late failure shows were one, and keeps apart those a success between them parted', () => {
    // The call sent at 50 hung and failed at 1050: the outage opens at 50, and the first request sent after it to
    // end well (sent at 400, ended at 450) closes it, though told before the failure; the refusals sent at 100 and
    // 300 are in it. The refusal sent at 500 came after that recovery: an outage of its own.
    const log = logOf([[100, 101, ['a']], [300, 301, ['a']], [400, 450, []], [500, 501, ['a']], [50, 1_050, ['b']], [200, 2_000, []], [600, 2_200, []]]);
    expect(log.outages().kept.map((o) => [o.fromMs, o.toMs, o.failedCalls])).toEqual([[50, 450, 3], [500, 2_200, 1]]);
    expect(log.outages().count).toBe(2);
  });

  it('never lets its bound change a fault\'s figures: 408 short outages, a command at 12 s (an outside tester\'s run charged it 212 calls and 2,966 ms)', () => {
    // One read in four fails from 4 s: a read every 5 ms, answered in 2 ms.
    const requests: [number, number, string[]][] = [];
    for (let i = 0, s = 0; s < 14_200; i++, s += 5) requests.push([s, s + 2, s >= 4_000 && i % 4 === 0 ? ['m'] : []]);
    const { kept, count } = logOf(requests).outages();
    expect(count).toBe(kept.length);
    expect(kept.length).toBeGreaterThan(OUTAGES_KEPT * 2);
    const command: ChaosEvent = { text: '12s:true', action: 'exec', node: null, atMs: 12_000, leaderBefore: null, leaderAfter: null, headBefore: null, nextBlockMs: null, nextBlockAt: null };
    const outages = outagesForReport({ count, kept }, [12_000]);
    expect(outages.kept).toHaveLength(OUTAGES_KEPT);
    const [full, reported] = [clientsAtFaults({ outages: { count, kept } }, 'node1', [command], undefined), clientsAtFaults({ outages }, 'node1', [command], undefined)];
    const after = requests.filter(([s, , f]) => s >= 12_000 && f.length > 0).length;
    expect(full.events[0]).toMatchObject({ failedCalls: after, firstFailureMs: 0, recoveryMs: 7 });
    // What the report keeps (the outages nearest the fault) tells the same at the fault.
    expect(reported.events[0]).toMatchObject({ firstFailureMs: 0, recoveryMs: 7 });
  });

  it('joins the outages of several threads that overlap', () => {
    const a = { fromMs: 0, lastFailedMs: 5, toMs: 10, failedCalls: 2, byMethod: { m: 2 } };
    const b = { fromMs: 8, lastFailedMs: 12, toMs: 15, failedCalls: 1, byMethod: { m: 1 } };
    const c = { fromMs: 20, lastFailedMs: 21, toMs: null, failedCalls: 1, byMethod: { n: 1 } };
    expect(mergeOutages([[a, c], [b]])).toEqual([{ fromMs: 0, lastFailedMs: 12, toMs: 15, failedCalls: 3, byMethod: { m: 3 } }, c]);
  });

  it('past the outages held, joins the rest to the last one held and counts them all: the last outage (never recovered) is not lost', () => {
    // An outside tester's: two threads of 15,000 outages each kept the first 20,000, lost the last (open) one, counted 20,000.
    const thread = (offset: number, n: number) => Array.from({ length: n }, (_, i) => ({ fromMs: offset + i * 10, lastFailedMs: offset + i * 10 + 1, toMs: offset + i * 10 + 2, failedCalls: 1, byMethod: { m: 1 } }));
    const open = { fromMs: 1_000_000, lastFailedMs: 1_000_001, toMs: null, failedCalls: 1, byMethod: { m: 1 } };
    const merged = mergeOutagesCounted([thread(0, 15_000), [...thread(5, 15_000), open]]);
    expect(merged.count).toBe(30_001);
    expect(merged.kept).toHaveLength(OUTAGES_HELD);
    expect(merged.kept.at(-1)?.toMs).toBeNull();
    expect(merged.kept.reduce((n, o) => n + o.failedCalls, 0)).toBe(30_001);
  });
});
