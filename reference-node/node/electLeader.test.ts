import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { electLeader, rankMembers } from './electLeader.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);
const NONE = '0'.repeat(64);
const all = (): boolean => true;

describe('electLeader', () => {
  it('picks the live member with the highest snapshot score', () => {
    expect(electLeader([A, B, C], { [A]: 5n, [B]: 9n, [C]: 7n }, NONE, all)).toBe(B);
  });

  it('skips a dead leader for the next in rank', () => {
    expect(electLeader([A, B, C], { [A]: 5n, [B]: 9n, [C]: 7n }, NONE, (id) => id !== B)).toBe(C);
  });

  it('breaks ties for the incumbent (the last block\'s proposer), then the lowest identifier', () => {
    expect(electLeader([C, B], { [B]: 3n, [C]: 3n }, NONE, all)).toBe(B);
    expect(electLeader([C, B], { [B]: 3n, [C]: 3n }, C, all)).toBe(C);
    expect(electLeader([A, C], { [C]: 1n }, NONE, all)).toBe(C);
  });

  it('is null when no member is live', () => {
    expect(electLeader([A], {}, NONE, () => false)).toBeNull();
    expect(electLeader([], {}, NONE, all)).toBeNull();
  });

  it('does not depend on the order members are listed in (every node elects alike)', () => {
    const id = fc.stringMatching(/^[0-9a-f]{64}$/);
    fc.assert(
      fc.property(fc.uniqueArray(fc.record({ id, live: fc.boolean(), score: fc.bigInt({ min: 0n, max: 5n }) }), { selector: (c) => c.id, maxLength: 8 }), fc.nat(8), (members, pick) => {
        const snapshot = Object.fromEntries(members.map((m) => [m.id, m.score]));
        const ids = members.map((m) => m.id);
        const incumbent = ids[pick] ?? NONE;
        const live = (x: string): boolean => members.find((m) => m.id === x)?.live === true;
        expect(electLeader(ids, snapshot, incumbent, live)).toBe(electLeader([...ids].reverse(), snapshot, incumbent, live));
        expect(rankMembers(ids, snapshot, incumbent)).toEqual(rankMembers([...ids].reverse(), snapshot, incumbent));
      }),
    );
  });
});
