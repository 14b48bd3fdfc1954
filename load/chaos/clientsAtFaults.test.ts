import { describe, expect, it } from 'vitest';
import type { ChaosEvent } from '../model.js';
import { clientsAtFaults } from './clientsAtFaults.js';

const event = (text: string, atMs: number, nextBlockMs: number | null): ChaosEvent => ({ text, action: 'kill', node: 'mn1', atMs, leaderBefore: 'mn1', leaderAfter: 'mn2', headBefore: 10, nextBlockMs, nextBlockAt: null });
const ledger = { lost: { count: 2, examples: ['aa', 'bb'] }, duplicated: { count: 0, examples: [] } };

describe('what one node\'s clients saw at each fault', () => {
  it('gives each outage to the fault it followed, and times the first success again from each fault', () => {
    const kill = event('5s:kill:mn1:5s', 5_000, 1_900);
    const back = { ...event('5s:kill:mn1:5s (end)', 10_000, 900), action: 'restart' as const };
    const outages = { count: 1, kept: [{ fromMs: 4_700, lastFailedMs: 10_300, toMs: 10_600, failedCalls: 80, byMethod: { chain_blockNumber: 80 } }] };
    const c = clientsAtFaults({ outages }, [kill, back], ledger);
    expect(c.events.map((e) => [e.failedCalls, e.firstFailureMs, e.recoveryMs])).toEqual([[80, -300, 5_600], [0, null, 600]]);
    expect(c).toMatchObject({ recoveryMs: 5_600, failoverMs: 1_900, lostTx: 2, duplicateTx: 0, lostExamples: ['aa', 'bb'] });
  });

  it('times the first success again, not the last failure: later refusals in the window are counted, not waited for', () => {
    const kill = event('5s:kill:mn1', 5_000, 1_900);
    const outages = { count: 3, kept: [
      { fromMs: 5_010, lastFailedMs: 7_000, toMs: 7_100, failedCalls: 40, byMethod: { chain_blockNumber: 40 } },
      { fromMs: 8_000, lastFailedMs: 8_001, toMs: 8_050, failedCalls: 1, byMethod: { chain_sendRawTransaction: 1 } },
      { fromMs: 12_000, lastFailedMs: 12_001, toMs: 12_030, failedCalls: 1, byMethod: { chain_sendRawTransaction: 1 } },
    ] };
    const [seen] = clientsAtFaults({ outages }, [kill], undefined).events;
    expect(seen).toMatchObject({ failedCalls: 42, recoveryMs: 2_100, firstFailureMs: 10, byMethod: { chain_blockNumber: 40, chain_sendRawTransaction: 2 } });
  });

  it('says a node whose clients never saw a call fail recovered at once, and one never answered again did not recover', () => {
    expect(clientsAtFaults({}, [event('1s:kill:mn2', 1_000, 500)], undefined)).toMatchObject({ recoveryMs: 0, lostTx: null, forks: null, events: [{ failedCalls: 0, recoveryMs: 0 }] });
    const forked = { fromHeight: 3, toHeight: 9, nodes: ['mn1', 'mn2'], forks: [{ height: 7, hashes: { mn1: 'aa', mn2: 'bb' } }] };
    expect(clientsAtFaults({}, [event('1s:partition:mn1', 1_000, 500)], undefined, forked).forks).toBe(1);
    const open = { count: 1, kept: [{ fromMs: 1_010, lastFailedMs: 9_000, toMs: null, failedCalls: 5, byMethod: {} }] };
    expect(clientsAtFaults({ outages: open }, [event('1s:kill:mn2', 1_000, null)], undefined)).toMatchObject({ recoveryMs: null, failoverMs: null });
  });
});
