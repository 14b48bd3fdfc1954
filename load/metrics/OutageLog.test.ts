import { describe, expect, it } from 'vitest';
import { mergeOutages, OutageLog, OUTAGES_KEPT } from './OutageLog.js';

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

  it('keeps an outage open when no call succeeds again, and counts past what it keeps', () => {
    const log = new OutageLog();
    for (let i = 0; i < OUTAGES_KEPT + 5; i++) {
      log.ended(i * 10, i * 10 + 1, ['m']);
      log.ended(i * 10 + 2, i * 10 + 3, []);
    }
    log.ended(5000, 5001, ['m']);
    const { kept, count } = log.outages();
    expect(count).toBe(OUTAGES_KEPT + 6);
    expect(kept).toHaveLength(OUTAGES_KEPT);
    expect(kept.at(-1)?.toMs).toBeNull();
  });

  it('joins the outages of several threads that overlap', () => {
    const a = { fromMs: 0, lastFailedMs: 5, toMs: 10, failedCalls: 2, byMethod: { m: 2 } };
    const b = { fromMs: 8, lastFailedMs: 12, toMs: 15, failedCalls: 1, byMethod: { m: 1 } };
    const c = { fromMs: 20, lastFailedMs: 21, toMs: null, failedCalls: 1, byMethod: { n: 1 } };
    expect(mergeOutages([[a, c], [b]])).toEqual([{ fromMs: 0, lastFailedMs: 12, toMs: 15, failedCalls: 3, byMethod: { m: 3 } }, c]);
  });
});
