// What the chain took twice, by senders' nonces (blocks without a transactions list): the ledger's duplicate count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { startTestServer } from '../../test/support/startTestServer.js';
import type { TestServer } from '../../test/support/startTestServer.js';
import type { TrackedOutcome } from '../engine/RequestSource.js';
import { InclusionTracker } from './InclusionTracker.js';

const BLOCK_MS = 100;
const started = Date.now();
/** The tip: a block every BLOCK_MS (the tracker reads its senders' nonces as the tip moves). */
const tip = (): number => 20 + Math.floor((Date.now() - started) / BLOCK_MS);

/** Each sender's nonce on the chain, as the node under test reports it. */
const chainNonces = new Map<string, number>();
let node: TestServer;

/** A node whose blocks list no transactions (so inclusion is followed by senders' nonces). */
function answer(call: JsonValue): JsonValue {
  const { id = null, method, params } = call as { id?: JsonValue; method?: string; params?: JsonValue[] };
  const result = (): JsonValue => {
    if (method === 'chain_blockNumber') return tip();
    if (method === 'chain_getBlockByHeight') {
      const height = Number(params?.[0]);
      const hash = (h: number): string => h.toString(16).padStart(64, '0');
      return { height, hash: hash(height + 1), parent_hash: hash(height), timestamp: 1_700_000_000_000 + height * BLOCK_MS, proposer: 'ab'.repeat(32), transaction_count: 0 };
    }
    if (method === 'chain_getAccount') return { balance: '0', nonce: chainNonces.get(typeof params?.[0] === 'string' ? params[0] : '') ?? 0 };
    return null;
  };
  return { jsonrpc: '2.0', id, result: result() };
}

beforeAll(async () => {
  node = await startTestServer((req, res) => {
    const body = parseJson(req.body.toString());
    res.writeHead(200, { 'content-type': 'application/json' }).end(stringifyJson(Array.isArray(body) ? body.map(answer) : answer(body)));
  });
});
afterAll(() => node.close());

const sender = (letter: string): string => letter.repeat(64);
let clock = 0;
/** One tracked send's outcome: its sender, its nonce, and what came back. */
function sent(who: string, nonce: number, outcome: TrackedOutcome['outcome'] = { kind: 'result', result: 'cd'.repeat(32) }): TrackedOutcome {
  clock += 1;
  return { tag: { hash: null, sender: sender(who), nonce }, scheduledAtMs: clock, endedAtMs: clock + 0.5, outcome };
}
const refused = { kind: 'error', code: -32005, message: 'Nonce too low' } as const;

describe('InclusionTracker, by senders\' nonces: the ledger of what the chain took twice', () => {
  it('counts each nonce the chain used that no send of the run may have given it: refused only, or never sent', async () => {
    const tracker = await InclusionTracker.start({ url: node.url, profile: referenceProfile(), graceMs: 200, pollIntervalMs: 20 });
    expect(tracker.method).toBe('sender-nonce');
    const outcomes = [
      // a: nonce 4 applied twice by the chain (its nonce 4 -> 6), so its nonce-5 transaction was refused, and the lane
      // went on from 6 (an outside tester's network): the chain used nonce 5 for nothing the run had taken.
      ...[0, 1, 2, 3, 4].map((n) => sent('a', n)),
      sent('a', 5, refused),
      ...[6, 7, 8, 9].map((n) => sent('a', n)),
      // b: every transaction taken once.
      ...[0, 1, 2].map((n) => sent('b', n)),
      // c: nonce 2 got no answer (its node killed): it may have been taken, and was.
      sent('c', 0),
      sent('c', 1),
      sent('c', 2, { kind: 'unanswered', reason: 'connection reset' }),
      sent('c', 3),
      // d: the last transaction applied twice, and the one before (the chain past the last nonce sent by two).
      sent('d', 0),
      sent('d', 1),
      // e: refused once as a gap, sent again and taken: no nonce unexplained.
      sent('e', 0),
      sent('e', 1, { kind: 'error', code: -32006, message: 'Nonce too high' }),
      sent('e', 1),
    ];
    for (const [who, nonce] of [['a', 10], ['b', 3], ['c', 4], ['d', 4], ['e', 2]] as const) chainNonces.set(sender(who), nonce);
    for (const o of outcomes) tracker.record(o);
    const result = await tracker.finish();
    expect(result.ledger.lost.count).toBe(0);
    expect(result.ledger.duplicated.count).toBe(3);
    expect(result.ledger.duplicated.examples).toEqual([
      `${sender('a')}: nonce 10 on the chain, which used nonce 5, that no send of the run may have given it (refused, or never sent)`,
      `${sender('d')}: nonce 4 on the chain, which used nonces 2, 3, that no send of the run may have given it (refused, or never sent)`,
    ]);
  });

  it('counts a send in the measured window by the engine\'s own verdict, not by its time against bounds converted across clocks', async () => {
    // A CI run counted 39 accepted against the request figures' 40: the window's first send, scheduled at its very
    // start, fell a hair before the bound the main thread computed.
    const tracker = await InclusionTracker.start({ url: node.url, profile: referenceProfile(), graceMs: 200, pollIntervalMs: 20 });
    const window = { fromMs: 1_000_000, toMs: 1_010_000 };
    const at = (nonce: number, scheduledAtMs: number, measured: boolean): TrackedOutcome => ({ ...sent('f', nonce), scheduledAtMs, endedAtMs: scheduledAtMs + 1, measured });
    chainNonces.set(sender('f'), 3);
    for (const o of [at(0, window.fromMs - 500, false), at(1, window.fromMs - 0.0001, true), at(2, window.fromMs + 500, true)]) tracker.record(o);
    const { stats } = await tracker.finish([window]);
    expect(stats.accepted).toBe(2);
    expect(stats.warmup).toEqual({ accepted: 1, included: 1, refused: 0 });
  });
});
