import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { electLeader, rankCandidates } from './electLeader.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);

describe('electLeader', () => {
  it('picks the live MN with the highest snapshot score', () => {
    expect(electLeader([{ id: A, live: true }, { id: B, live: true }, { id: C, live: true }], { [A]: 5n, [B]: 9n, [C]: 7n })).toBe(B);
  });

  it('skips a dead leader for the next in rank', () => {
    expect(electLeader([{ id: A, live: true }, { id: B, live: false }, { id: C, live: true }], { [A]: 5n, [B]: 9n, [C]: 7n })).toBe(C);
  });

  it('breaks ties by the lowest identifier; MNs missing from the snapshot score 0', () => {
    expect(electLeader([{ id: C, live: true }, { id: B, live: true }], {})).toBe(B);
    expect(electLeader([{ id: C, live: true }, { id: A, live: true }], { [C]: 1n })).toBe(C);
  });

  it('is null when no MN is live', () => {
    expect(electLeader([{ id: A, live: false }], {})).toBeNull();
    expect(electLeader([], {})).toBeNull();
  });

  it('does not depend on the order nodes list their candidates (every node elects alike)', () => {
    const id = fc.stringMatching(/^[0-9a-f]{64}$/);
    fc.assert(
      fc.property(fc.uniqueArray(fc.record({ id, live: fc.boolean(), score: fc.bigInt({ min: 0n, max: 5n }) }), { selector: (c) => c.id, maxLength: 8 }), (cands) => {
        const snapshot = Object.fromEntries(cands.map((c) => [c.id, c.score]));
        const forward = electLeader(cands, snapshot);
        const backward = electLeader([...cands].reverse(), snapshot);
        expect(forward).toBe(backward);
        expect(rankCandidates(cands, snapshot).map((c) => c.id)).toEqual(rankCandidates([...cands].reverse(), snapshot).map((c) => c.id));
      }),
    );
  });
});
