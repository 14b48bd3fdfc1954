import { describe, expect, it } from 'vitest';
import type { ChaosReport, HeadHealth, LoadRun } from '../../load/model.js';
import { chaosMarkers } from './chaosMarkers.js';

// Made-up clocks: the schedule's t = 0 at 10:00:10.000; the run's warm-up began at 10:00:05.400 and lasted
// 5 s, so its measurement began 400 ms after the schedule's; the heads were first read at 10:00:04.000, 6 s
// before the schedule's t = 0.
const chaos: ChaosReport = {
  originAt: '2026-01-01T10:00:10.000Z',
  nodes: [
    { name: 'mn1', kind: 'MN', url: 'http://127.0.0.1:1001' },
    { name: 'mn2', kind: 'MN', url: 'http://127.0.0.1:1002' },
  ],
  steps: [
    { text: '4s:kill:mn2:3s', atMs: 4000, action: 'kill', target: 'mn2', forMs: 3000 },
    { text: '9s:restart:any-mn', atMs: 9000, action: 'restart', target: 'any-mn', forMs: null },
  ],
  events: [
    { text: '4s:kill:mn2:3s', action: 'kill', node: 'mn2', atMs: 4000, leaderBefore: 'mn2', leaderAfter: 'mn1', headBefore: 10, nextBlockMs: 900, nextBlockAt: null },
    { text: '4s:kill:mn2:3s (end)', action: 'restart', node: 'mn2', atMs: 7010, leaderBefore: 'mn1', leaderAfter: 'mn1', headBefore: 14, nextBlockMs: 300, nextBlockAt: null, catchUpMs: 500 },
    { text: '9s:restart:any-mn', action: 'restart', node: null, atMs: 9001, error: 'no MN is down', leaderBefore: 'mn1', leaderAfter: 'mn1', headBefore: 20, nextBlockMs: 300, nextBlockAt: null },
  ],
  consistency: null,
};
const head = { startedAt: '2026-01-01T10:00:04.000Z' } as HeadHealth;
const run: Pick<LoadRun, 'startedAt' | 'warmupMs' | 'health'> = { startedAt: '2026-01-01T10:00:05.400Z', warmupMs: 5000, health: { head } };

describe('chaosMarkers', () => {
  it('puts each event on the run\'s own measurement clock: the schedule\'s time less the 400 ms its engine started later', () => {
    const { measured } = chaosMarkers(chaos, run);
    expect(measured.map((m) => m.tMs)).toEqual([3600, 6610, 8601]);
  });

  it('puts each event on the health clock: the schedule\'s time plus the 6 s the heads were read before it', () => {
    const { health } = chaosMarkers(chaos, run);
    expect(health.map((m) => m.tMs)).toEqual([10_000, 13_010, 15_001]);
  });

  it('labels each by action and node, a step not done by its target, greyed, with why in its tooltip', () => {
    const { measured } = chaosMarkers(chaos, run);
    expect(measured.map((m) => [m.label, m.action, m.done])).toEqual([
      ['kill mn2', 'kill', true],
      ['restart mn2', 'restart', true],
      ['restart any-mn (not done)', 'restart', false],
    ]);
    expect(measured[0]?.title).toBe('kill mn2 (4s:kill:mn2:3s), 4,000 ms into the fault schedule; 3.60 s on this chart');
    expect(measured[2]?.title).toBe('restart any-mn (9s:restart:any-mn), 9,001 ms into the fault schedule; 8.60 s on this chart. Not done: no MN is down');
  });

  it('has none without faults, and none on the health clock when no head was followed (its origin is unknown)', () => {
    expect(chaosMarkers(undefined, run)).toEqual({ measured: [], health: [] });
    expect(chaosMarkers({ ...chaos, events: [] }, run)).toEqual({ measured: [], health: [] });
    const noHead = chaosMarkers(chaos, { ...run, health: {} });
    expect(noHead.health).toEqual([]);
    expect(noHead.measured).toHaveLength(3);
  });
});
