import { describe, expect, it } from 'vitest';
import type { ChaosAction, ChaosEvent, Outage } from '../model.js';
import { clientsAtFaults, ownerOf } from './clientsAtFaults.js';

const event = (text: string, atMs: number, nextBlockMs: number | null, action: ChaosAction = 'kill', node: string | null = 'mn1'): ChaosEvent => ({ text, action, node, atMs, leaderBefore: 'mn1', leaderAfter: 'mn2', headBefore: 10, nextBlockMs, nextBlockAt: null });
const ledger = { lost: { count: 2, examples: ['aa', 'bb'] }, duplicated: { count: 0, examples: [] } };
const outage = (fromMs: number, toMs: number | null, failedCalls: number): Outage => ({ fromMs, lastFailedMs: toMs ?? fromMs, toMs, failedCalls, byMethod: { chain_blockNumber: failedCalls } });
const seen = (c: ReturnType<typeof clientsAtFaults>): (number | null)[][] => c.events.map((e) => [e.failedCalls, e.recoveryMs]);

describe('what one node\'s clients saw at each fault', () => {
  it('gives each outage to the fault it followed, and times the first success again from each fault', () => {
    const kill = event('5s:kill:mn1:5s', 5_000, 1_900);
    const back = { ...event('5s:kill:mn1:5s (end)', 10_000, 900), action: 'restart' as const };
    const outages = { count: 1, kept: [{ fromMs: 4_700, lastFailedMs: 10_300, toMs: 10_600, failedCalls: 80, byMethod: { chain_blockNumber: 80 } }] };
    const c = clientsAtFaults({ outages }, 'mn1', [kill, back], ledger);
    expect(c.events.map((e) => [e.failedCalls, e.firstFailureMs, e.recoveryMs])).toEqual([[80, -300, 5_600], [0, null, 600]]);
    expect(c).toMatchObject({ recoveryMs: 5_600, failoverMs: 1_900, lostTx: 2, duplicateTx: 0, lostExamples: ['aa', 'bb'] });
  });

  it('on a node failing a call now and then: a short outage open at the instant of the fault does not stand for the one the fault caused', () => {
    // An outside tester's node failed every second call of one method; a 2 s refusal at 8 s read recovery 3 ms,
    // the 3 ms outage open at that instant taken for the clients' recovery.
    const refuse = event('8s:refuse', 8_000, 100, 'exec', null);
    const outages = { count: 3, kept: [outage(7_998, 8_003, 1), outage(8_004, 10_021, 1_200), outage(10_030, 10_033, 1)] };
    const [first] = clientsAtFaults({ outages }, 'node1', [refuse], undefined).events;
    expect(first?.recoveryMs).toBe(2_021);
  });

  it('times the first success again, not the last failure: later refusals in the window are counted, not waited for', () => {
    const kill = event('5s:kill:mn1', 5_000, 1_900);
    const outages = { count: 3, kept: [
      { fromMs: 5_010, lastFailedMs: 7_000, toMs: 7_100, failedCalls: 40, byMethod: { chain_blockNumber: 40 } },
      { fromMs: 8_000, lastFailedMs: 8_001, toMs: 8_050, failedCalls: 1, byMethod: { chain_sendRawTransaction: 1 } },
      { fromMs: 12_000, lastFailedMs: 12_001, toMs: 12_030, failedCalls: 1, byMethod: { chain_sendRawTransaction: 1 } },
    ] };
    const [first] = clientsAtFaults({ outages }, 'mn1', [kill], undefined).events;
    expect(first).toMatchObject({ failedCalls: 42, recoveryMs: 2_100, firstFailureMs: 10, byMethod: { chain_blockNumber: 40, chain_sendRawTransaction: 2 } });
  });

  it('says a node whose clients never saw a call fail recovered at once, and one never answered again did not recover', () => {
    expect(clientsAtFaults({}, 'mn2', [event('1s:kill:mn2', 1_000, 500, 'kill', 'mn2')], undefined)).toMatchObject({ recoveryMs: 0, lostTx: null, forks: null, events: [{ failedCalls: 0, recoveryMs: 0 }] });
    const forked = { fromHeight: 3, toHeight: 9, nodes: ['mn1', 'mn2'], forks: [{ height: 7, hashes: { mn1: 'aa', mn2: 'bb' } }] };
    expect(clientsAtFaults({}, 'mn1', [event('1s:partition:mn1', 1_000, 500, 'partition')], undefined, forked).forks).toBe(1);
    const open = { count: 1, kept: [{ fromMs: 1_010, lastFailedMs: 9_000, toMs: null, failedCalls: 5, byMethod: {} }] };
    expect(clientsAtFaults({ outages: open }, 'mn2', [event('1s:kill:mn2', 1_000, null, 'kill', 'mn2')], undefined)).toMatchObject({ recoveryMs: null, failoverMs: null });
  });

  it('counts no fork for a node whose chain was not compared: down or silent after the run, or alone (an outside tester\'s forked node went down)', () => {
    const partition = [event('1s:partition:mn3', 1_000, 500, 'partition')];
    // mn3 served other blocks, then stopped answering: mn1 and mn2 agree, and mn3 was never read.
    const withoutMn3 = { fromHeight: 15, toHeight: 39, nodes: ['mn1', 'mn2'], forks: [] };
    expect(clientsAtFaults({}, 'mn1', partition, undefined, withoutMn3).forks).toBe(0);
    expect(clientsAtFaults({}, 'mn3', partition, undefined, withoutMn3).forks).toBeNull();
    // One node answering: nothing to compare its blocks with.
    const alone = { fromHeight: 16, toHeight: 30, nodes: ['mn1'], forks: [] };
    expect(clientsAtFaults({}, 'mn1', partition, undefined, alone).forks).toBeNull();
  });
});

// The outside tester's runs (the outages as the engine logged them, the events as the runner did them).
describe('the fault an outage belongs to', () => {
  it('a pause shorter than the in-flight allowance keeps its outage: the resume that ends it does not take it', () => {
    // --devnet 2:1 --chaos 3s:pause:ln1:900ms, calls timing out at 300 ms: ln1's clients failed from 3015 to 3953.
    const events = [event('3s:pause:ln1:900ms', 3_000, 226, 'pause', 'ln1'), event('3s:pause:ln1:900ms (end)', 3_900, 181, 'resume', 'ln1')];
    const c = clientsAtFaults({ outages: { count: 1, kept: [outage(3_015, 3_953, 13)] } }, 'ln1', events, undefined);
    expect(seen(c)).toEqual([[13, 953], [0, 53]]);
    expect(c.recoveryMs).toBe(953);
    // The other nodes' clients saw nothing.
    expect(clientsAtFaults({}, 'mn1', events, undefined).recoveryMs).toBe(0);
  });

  it('on a devnet, a fault on another node soon after does not take the outage of the node that fell', () => {
    // --devnet 3:1 --chaos 5s:kill:mn2:5s --chaos 5.6s:pause:ln1:1s: mn2's clients failed from 5000 until 12433.
    const events = [
      event('5s:kill:mn2:5s', 5_000, 1_900, 'kill', 'mn2'),
      event('5.6s:pause:ln1:1s', 5_600, 300, 'pause', 'ln1'),
      event('5.6s:pause:ln1:1s (end)', 6_600, 300, 'resume', 'ln1'),
      event('5s:kill:mn2:5s (end)', 10_000, 300, 'restart', 'mn2'),
    ];
    const mn2 = clientsAtFaults({ outages: { count: 1, kept: [outage(5_000, 12_433, 361)] } }, 'mn2', events, undefined);
    expect(seen(mn2)).toEqual([[361, 7_433], [0, 0], [0, 0], [0, 2_433]]);
    expect(mn2.recoveryMs).toBe(7_433);
    const ln1 = clientsAtFaults({ outages: { count: 1, kept: [outage(5_602, 6_640, 20)] } }, 'ln1', events, undefined);
    expect(seen(ln1)).toEqual([[0, 0], [20, 1_040], [0, 40], [0, 0]]);
  });

  it('of two commands (which node each hit is not known), the one the outage began after, not the next one', () => {
    // node1 refusing connections at 3 s for 3 s, node2 answering errors at 3.5 s: node1's clients failed 3001 to 6045.
    const events = [event('3s:curl .../set?node=1&mode=refuse&for=3000', 3_000, 300, 'exec', null), event('3.5s:curl .../set?node=2&mode=error&for=1000', 3_500, 300, 'exec', null)];
    const node1 = clientsAtFaults({ outages: { count: 1, kept: [outage(3_001, 6_045, 300)] } }, 'node1', events, undefined);
    expect(seen(node1)).toEqual([[300, 3_045], [0, 2_545]]);
    expect(node1.recoveryMs).toBe(3_045);
    const node2 = clientsAtFaults({ outages: { count: 1, kept: [outage(3_502, 4_510, 90)] } }, 'node2', events, undefined);
    expect(seen(node2)).toEqual([[0, 0], [90, 1_010]]);
  });

  it('a request in flight when its node fell: the fault just after the outage began, not an earlier one already ended', () => {
    const events = [event('1s:kill:mn1:1s', 1_000, 300), { ...event('1s:kill:mn1:1s (end)', 2_000, 300), action: 'restart' as const }, event('5s:kill:mn1', 5_000, 1_900)];
    expect(ownerOf(outage(4_700, null, 0), 'mn1', events)).toBe(2);
    // A failure after the restart (a lane refused) is the restart's; one in flight at a command is the command's.
    expect(ownerOf(outage(2_300, 2_400, 0), 'mn1', events)).toBe(1);
    expect(ownerOf(outage(2_900, null, 0), 'node1', [event('3s:docker kill n1', 3_000, 300, 'exec', null)])).toBe(0);
    // A failure elsewhere, after a fault on another node (an LN whose MN fell), is that fault's; one before every fault is nobody's.
    expect(ownerOf(outage(5_200, 5_300, 0), 'ln1', events)).toBe(2);
    expect(ownerOf(outage(300, 400, 0), 'mn1', events)).toBe(-1);
  });
});
