import { describe, expect, it } from 'vitest';
import type { ChaosReport } from '../../load/model.js';
import { consistencyText } from './chaosText.js';

describe('consistencyText', () => {
  const chaos = (consistency: ChaosReport['consistency']): ChaosReport => ({
    originAt: '2026-11-29T00:00:00.000Z',
    nodes: ['mn1', 'mn2', 'mn3'].map((name, i) => ({ name, kind: 'MN' as const, url: `http://127.0.0.1:${9000 + i}` })),
    steps: [],
    events: [],
    consistency,
  });

  it('names the nodes compared and those not, and never says "every node" of a network it did not read whole', () => {
    expect(consistencyText(chaos({ fromHeight: 15, toHeight: 39, nodes: ['mn1', 'mn2'], forks: [] }))).toBe('No fork among the nodes compared: heights 15 to 39 on mn1, mn2 are the same blocks on each; mn3 not compared (not answering after the run).');
    expect(consistencyText(chaos({ fromHeight: 15, toHeight: 39, nodes: ['mn1', 'mn2', 'mn3'], forks: [] }))).toBe('No fork among the nodes compared: heights 15 to 39 on mn1, mn2, mn3 are the same blocks on each.');
    expect(consistencyText(chaos({ fromHeight: 16, toHeight: 30, nodes: ['mn1'], forks: [] }))).toBe('No fork could be seen: only mn1 answered after the run (heights 16 to 30 on mn1), with no other node to compare it with; mn2, mn3 not compared (not answering after the run).');
    expect(consistencyText(chaos({ fromHeight: 3, toHeight: 9, nodes: ['mn1', 'mn2'], forks: [{ height: 7, hashes: { mn1: 'aa'.repeat(32), mn2: 'bb'.repeat(32) } }] }))).toBe(
      `FORKED: 1 heights served with different blocks (heights 3 to 9 on mn1, mn2); the first, height 7: mn1 ${'aa'.repeat(6)}…, mn2 ${'bb'.repeat(6)}…; mn3 not compared (not answering after the run).`,
    );
  });
});
