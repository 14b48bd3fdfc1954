import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { U64_MAX } from '../../core/codec/index.js';
import type { Block } from '../chain/index.js';
import { electLeader, rankMembers } from './electLeader.js';
import { buildSnapshot, MAX_BLOCK_AHEAD_MS, proposalRule, slotDelay, snapshotProblem } from './proposalRules.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);
const X = 'e'.repeat(64); // not a member
const MEMBERS = [A, B, C];

/** A block by hand: the rules read only height, timestamp, proposer and pou. */
function block(over: Partial<Block> = {}): Block {
  return {
    chainId: 1n,
    height: 10n,
    parentHash: '11'.repeat(32),
    timestamp: 1_700_000_000_000n,
    proposer: A,
    transactions: [],
    stateRoot: '22'.repeat(32),
    pou: {},
    signature: '33'.repeat(64),
    hash: '44'.repeat(32),
    ...over,
  };
}

/** The parent of every example: A leads (9), then B (5), then C (1); A proposed it. */
const PARENT = block({ height: 10n, proposer: A, pou: { [A]: 9n, [B]: 5n, [C]: 1n } });

describe('snapshotProblem', () => {
  it('takes a block whose snapshot keeps the rules', () => {
    // A rises by 3; B by exactly as much; C not at all.
    expect(snapshotProblem(MEMBERS, block({ height: 11n, pou: { [A]: 12n, [B]: 8n, [C]: 1n } }), PARENT)).toBeNull();
  });

  it('refuses a proposer that is not a member', () => {
    expect(snapshotProblem(MEMBERS, block({ proposer: X, pou: { [A]: 9n, [B]: 5n, [C]: 1n } }), PARENT)).toMatch(new RegExp(`its proposer ${X} is not a member`));
  });

  it('refuses a snapshot listing a non-member', () => {
    expect(snapshotProblem(MEMBERS, block({ pou: { [A]: 9n, [B]: 5n, [C]: 1n, [X]: 0n } }), PARENT)).toMatch(new RegExp(`lists ${X}, which is not a member`));
  });

  it('refuses a snapshot leaving out a member', () => {
    expect(snapshotProblem(MEMBERS, block({ pou: { [A]: 9n, [B]: 5n } }), PARENT)).toMatch(new RegExp(`leaves out the member ${C}`));
  });

  it('refuses a score falling', () => {
    expect(snapshotProblem(MEMBERS, block({ pou: { [A]: 10n, [B]: 4n, [C]: 1n } }), PARENT)).toMatch(new RegExp(`lowers ${B}'s score from 5 to 4; recorded scores never fall`));
    // The proposer's own score too.
    expect(snapshotProblem(MEMBERS, block({ pou: { [A]: 8n, [B]: 5n, [C]: 1n } }), PARENT)).toMatch(new RegExp(`lowers ${A}'s score from 9 to 8`));
  });

  it('refuses another member rising more than the proposer itself', () => {
    expect(snapshotProblem(MEMBERS, block({ pou: { [A]: 12n, [B]: 9n, [C]: 1n } }), PARENT)).toMatch(new RegExp(`raises ${B}'s score by 4, more than its proposer's own rise \\(3\\)`));
    // A proposer that does not rise freezes everyone else.
    expect(snapshotProblem(MEMBERS, block({ proposer: C, pou: { [A]: 9n, [B]: 5n, [C]: 1n } }), PARENT)).toBeNull();
    expect(snapshotProblem(MEMBERS, block({ proposer: C, pou: { [A]: 10n, [B]: 5n, [C]: 1n } }), PARENT)).toMatch(new RegExp(`raises ${A}'s score by 1, more than its proposer's own rise \\(0\\)`));
  });
});

const id = fc.stringMatching(/^[0-9a-f]{64}$/);
/** Scores small (ties, near misses) and anywhere in u64. */
const score = fc.oneof(fc.bigInt({ min: 0n, max: 20n }), fc.bigInt({ min: 0n, max: U64_MAX }));

describe('buildSnapshot', () => {
  it('caps another member\'s claim at the proposer\'s own rise, and never lowers a score', () => {
    const announced: Record<string, bigint> = { [B]: 1_000_000n, [C]: 0n };
    expect(buildSnapshot(MEMBERS, PARENT, A, 12n, (m) => announced[m])).toEqual({ [A]: 12n, [B]: 8n, [C]: 1n });
    // An own score below the recorded one keeps the recorded one, and then nobody rises.
    expect(buildSnapshot(MEMBERS, PARENT, A, 2n, (m) => announced[m])).toEqual({ [A]: 9n, [B]: 5n, [C]: 1n });
    // A member not heard from keeps its recorded score.
    expect(buildSnapshot(MEMBERS, PARENT, A, 20n, () => undefined)).toEqual({ [A]: 20n, [B]: 5n, [C]: 1n });
  });

  it('an honest snapshot always passes the rules it is checked by', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ id, recorded: fc.option(score), announced: fc.option(score) }), { selector: (m) => m.id, minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.oneof(score, fc.bigInt({ min: 0n, max: U64_MAX * 4n })),
        (spec, pick, ownScore) => {
          const members = spec.map((m) => m.id);
          const self = members[pick % members.length] ?? '';
          const parentPou: Record<string, bigint> = {};
          for (const m of spec) if (m.recorded !== null) parentPou[m.id] = m.recorded;
          const parent = block({ proposer: members[0] ?? '', pou: parentPou });
          const announced = (m: string): bigint | undefined => spec.find((s) => s.id === m)?.announced ?? undefined;
          const pou = buildSnapshot(members, parent, self, ownScore, announced);
          expect(snapshotProblem(members, block({ height: 11n, proposer: self, pou }), parent)).toBeNull();
          for (const v of Object.values(pou)) expect(v <= U64_MAX).toBe(true);
        },
      ),
    );
  });

  it('a live incumbent leader is never outranked by a member announcing lies', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(id, { minLength: 2, maxLength: 5 }),
        fc.bigInt({ min: 0n, max: 1_000_000n }),
        fc.array(fc.bigInt({ min: 0n, max: 1_000_000n }), { minLength: 2, maxLength: 5 }),
        fc.array(fc.record({ grow: fc.oneof(fc.bigInt({ min: 0n, max: 10n }), fc.bigInt({ min: 0n, max: U64_MAX })), lies: fc.array(score, { minLength: 5, maxLength: 5 }) }), { minLength: 5, maxLength: 50 }),
        (members, leaderScore, belowBy, blocks) => {
          const [L, ...others] = members;
          if (L === undefined) throw new Error('no leader');
          // The genesis of this run: L proposed the parent and ranks first (others at or below it).
          const pou: Record<string, bigint> = { [L]: leaderScore };
          others.forEach((m, i) => (pou[m] = leaderScore - ((belowBy[i] ?? 0n) > leaderScore ? leaderScore : (belowBy[i] ?? 0n))));
          let parent = block({ height: 0n, proposer: L, pou });
          let meter = leaderScore;
          for (const [n, { grow, lies }] of blocks.entries()) {
            meter += grow;
            const claim = (m: string): bigint => lies[others.indexOf(m)] ?? U64_MAX;
            const next = block({ height: BigInt(n + 1), proposer: L, pou: buildSnapshot(members, parent, L, meter, claim) });
            expect(snapshotProblem(members, next, parent)).toBeNull();
            expect(electLeader(members, next.pou, next.proposer, () => true)).toBe(L);
            parent = next;
          }
        },
      ),
    );
  });
});

describe('proposalRule', () => {
  const NOW = 1_700_000_000_000;
  const LIVENESS_MS = 2_000;
  // Old enough that every member's slot is open for the blocks below (C ranks 3rd: 2 windows).
  const P = { ...PARENT, timestamp: BigInt(NOW - 10 * LIVENESS_MS) };
  const rule = (live: readonly string[]) => proposalRule(MEMBERS, { livenessMs: LIVENESS_MS, live: (m) => live.includes(m), now: () => NOW });
  /** A block on P by `proposer`, rising by 1 (a snapshot that keeps the rules). */
  const by = (proposer: string, timestamp: number): Block => {
    const pou = { ...P.pou, [proposer]: (P.pou[proposer] ?? 0n) + 1n };
    return block({ height: 11n, proposer, timestamp: BigInt(timestamp), pou });
  };

  it('takes a fresh block from the leader', () => {
    expect(rule(MEMBERS)(by(A, NOW), P)).toBeNull();
  });

  it('refuses a fresh block from a member ranked below a live one, naming that member', () => {
    expect(rule(MEMBERS)(by(C, NOW - 100), P)).toMatch(new RegExp(`its proposer ${C} is not the leader for height 11: ${A} ranks above it and is live`));
    expect(rule([B, C])(by(C, NOW - 100), P)).toMatch(new RegExp(`${B} ranks above it and is live`));
    // The edge of the window is still fresh.
    expect(rule(MEMBERS)(by(C, NOW - LIVENESS_MS), P)).toMatch(/is not the leader/);
  });

  it('takes the same block when no member ranked above it is live', () => {
    expect(rule([C])(by(C, NOW - 100), P)).toBeNull();
    expect(rule([])(by(C, NOW - 100), P)).toBeNull();
  });

  it('takes a block from a member ranked above the leader this node elects (a contested slot)', () => {
    // This node sees A dead and elects B; A's block shows A is alive.
    expect(electLeader(MEMBERS, P.pou, P.proposer, (m) => [B, C].includes(m))).toBe(B);
    expect(rule([B, C])(by(A, NOW), P)).toBeNull();
  });

  it('judges a block older than the liveness window by the deterministic rules only', () => {
    expect(rule(MEMBERS)(by(C, NOW - LIVENESS_MS - 1), P)).toBeNull();
  });

  it('gives each member its slot: the r-th in rank may propose r liveness windows after the parent, never sooner, even dated back', () => {
    expect(slotDelay(rankMembers(MEMBERS, P.pou, P.proposer), C, LIVENESS_MS)).toBe(2 * LIVENESS_MS);
    const at = (proposer: string, delay: number): Block => by(proposer, Number(P.timestamp) + delay);
    const judge = (b: Block): string | null => proposalRule(MEMBERS, { livenessMs: LIVENESS_MS, live: () => false, now: () => Number(b.timestamp) })(b, P);
    expect(judge(at(A, 0))).toBeNull();
    expect(judge(at(B, LIVENESS_MS - 1))).toMatch(new RegExp(`its proposer ${B} ranks 2 for height 11 and may propose only ${LIVENESS_MS} ms after the parent block; this block is dated ${LIVENESS_MS - 1} ms after it`));
    expect(judge(at(B, LIVENESS_MS))).toBeNull();
    expect(judge(at(C, 2 * LIVENESS_MS - 1))).toMatch(/ranks 3 for height 11 and may propose only 4000 ms after/);
    expect(judge(at(C, 2 * LIVENESS_MS))).toBeNull();
    // Dated back to its parent, a block is history to a node that sees it late, and still out of turn.
    expect(rule([])(at(C, 0), P)).toMatch(/ranks 3 for height 11/);
  });

  it(`refuses a block more than ${MAX_BLOCK_AHEAD_MS} ms in the future`, () => {
    expect(rule(MEMBERS)(by(A, NOW + MAX_BLOCK_AHEAD_MS + 1), P)).toMatch(new RegExp(`its timestamp is ${MAX_BLOCK_AHEAD_MS + 1} ms ahead of this node's clock`));
    expect(rule(MEMBERS)(by(A, NOW + MAX_BLOCK_AHEAD_MS), P)).toBeNull();
  });

  it('refuses a deterministic problem even in an old block', () => {
    const old = block({ height: 11n, proposer: X, timestamp: BigInt(NOW - 60_000), pou: P.pou });
    expect(rule(MEMBERS)(old, P)).toMatch(new RegExp(`its proposer ${X} is not a member`));
    const lowered = block({ height: 11n, proposer: C, timestamp: BigInt(NOW - 60_000), pou: { ...P.pou, [A]: 0n } });
    expect(rule([])(lowered, P)).toMatch(/recorded scores never fall/);
  });
});
