// The inclusion tracker against a chain whose every block the test writes: what the chain truly did (a transaction
// in two blocks before its send's answer came, blocks replaced, a tip gone back and rebuilt, hashes answered in another
// form, inclusion later than 5 block times, state shown after its block) against what the tracker reports.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epochNow } from '../../core/epochNow.js';
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { startTestServer } from '../../test/support/startTestServer.js';
import type { TestServer } from '../../test/support/startTestServer.js';
import type { TrackedOutcome } from '../engine/RequestSource.js';
import { InclusionTracker } from './InclusionTracker.js';

const BLOCK_MS = 100;
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

interface Block {
  height: number;
  hash: string;
  parent_hash: string;
  timestamp: number;
  proposer: string;
  transaction_count: number;
  transactions?: string[];
}

/** A chain the test writes block by block; it serves what the spec shows (and the transactions list, unless told not to). */
class ScriptedChain {
  blocks: Block[] = [];
  /** Each sender's nonce from a height on (set through setNonce): a replica behind reads an older one. */
  private readonly nonceHistory = new Map<string, { height: number; nonce: number }[]>();
  /** A balancer's replica this many blocks behind answers every other request (0: none). */
  flapBehind = 0;
  /** Blocks show their hash and parent_hash (the spec shows neither). */
  showsHashes = true;
  private answered = 0;
  /** Heights read through chain_getBlockByHeight, to wait until the tracker has seen one. */
  readonly read = new Set<number>();
  private made = 0;

  constructor(private readonly listsHashes: boolean) {
    const t = epochNow() - 12 * BLOCK_MS;
    for (let h = 0; h < 12; h++) this.push([], t + h * BLOCK_MS);
  }

  get tip(): number {
    return this.blocks.length - 1;
  }

  /** A new block on the tip listing `txs`; its height. */
  add(txs: string[]): number {
    this.push(txs, epochNow());
    return this.tip;
  }

  /** Drops the blocks above `height` (a rollback): the next add() builds on it. */
  rollback(height: number): void {
    this.blocks.length = height + 1;
    for (const h of [...this.read]) if (h > height) this.read.delete(h);
  }

  /** `sender`'s nonce from the tip on. */
  setNonce(sender: string, nonce: number): void {
    const list = this.nonceHistory.get(sender) ?? [];
    list.push({ height: this.tip, nonce });
    this.nonceHistory.set(sender, list);
  }

  /** One request (a batch's calls together), as the replica it reaches sees the chain. */
  request(body: JsonValue): JsonValue {
    const top = this.flapBehind > 0 && this.answered++ % 2 === 1 ? this.tip - this.flapBehind : this.tip;
    return Array.isArray(body) ? body.map((c) => this.answer(c, top)) : this.answer(body, top);
  }

  private answer(call: JsonValue, top: number): JsonValue {
    const { id = null, method, params } = call as { id?: JsonValue; method?: string; params?: JsonValue[] };
    if (method === 'chain_blockNumber') return { jsonrpc: '2.0', id, result: top };
    if (method === 'chain_getBlockByHeight') {
      const height = Number(params?.[0]);
      const block = height <= top ? this.blocks[height] : undefined;
      if (block === undefined) return { jsonrpc: '2.0', id, error: { code: -32001, message: 'Block not found' } };
      this.read.add(height);
      const { transactions, hash, parent_hash: parent, ...rest } = block;
      const shown = { ...rest, ...(this.showsHashes ? { hash, parent_hash: parent } : {}) };
      return { jsonrpc: '2.0', id, result: this.listsHashes ? { ...shown, transactions: transactions ?? [] } : shown };
    }
    if (method === 'chain_getAccount') {
      const history = this.nonceHistory.get(typeof params?.[0] === 'string' ? params[0] : '') ?? [];
      return { jsonrpc: '2.0', id, result: { balance: '0', nonce: history.filter((n) => n.height <= top).at(-1)?.nonce ?? 0 } };
    }
    return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
  }

  private push(txs: string[], timestamp: number): void {
    const height = this.blocks.length;
    const parent = this.blocks[height - 1]?.hash ?? '0'.repeat(64);
    this.blocks.push({ height, hash: sha(`block ${height} ${this.made++}`), parent_hash: parent, timestamp: Math.round(timestamp), proposer: 'ab'.repeat(32), transaction_count: txs.length, transactions: txs });
  }
}

let chain: ScriptedChain;
let node: TestServer;
beforeAll(async () => {
  node = await startTestServer((req, res) => {
    const body = parseJson(req.body.toString());
    res.writeHead(200, { 'content-type': 'application/json' }).end(stringifyJson(chain.request(body)));
  });
});
afterAll(() => node.close());

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** Waits until `done` (the tracker polls every 20 ms). */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !done(); waited += 5) {
    if (waited > 5_000) throw new Error(`never: ${what}`);
    await sleep(5);
  }
}

/** Waits until the tracker has read the block at `height`. */
async function readBy(height: number): Promise<void> {
  for (let waited = 0; !chain.read.has(height); waited += 5) {
    if (waited > 5_000) throw new Error(`the tracker never read height ${height}`);
    await sleep(5);
  }
}

const tx = (name: string): { hash: string; sender: string; nonce: number } => ({ hash: sha(`tx ${name}`), sender: sha(`sender ${name}`), nonce: 0 });
/** A send of `t` answered with `answer` (its own hash by default), scheduled now. */
function sent(t: { hash: string; sender: string; nonce: number }, answer: string = t.hash): TrackedOutcome {
  const at = epochNow();
  return { tag: t, scheduledAtMs: at - 1, endedAtMs: at, outcome: { kind: 'result', result: answer } };
}
const start = (listsHashes: boolean, graceMs?: number, setUp: (c: ScriptedChain) => void = () => {}): Promise<InclusionTracker> => {
  chain = new ScriptedChain(listsHashes);
  setUp(chain);
  return InclusionTracker.start({ url: node.url, profile: referenceProfile(), pollIntervalMs: 20, ...(graceMs === undefined ? {} : { graceMs }) });
};

/**
 * Three transactions sent and included in one block, which the chain then replaces by one holding the first alone and
 * builds on (the tracker has read the block after it); the caller includes b again, or not; c is gone.
 */
async function replaceBlockOfThree(tracker: InclusionTracker): Promise<{ a: ReturnType<typeof tx>; b: ReturnType<typeof tx>; c: ReturnType<typeof tx> }> {
  const [a, b, c] = [tx('a'), tx('b'), tx('c')];
  for (const t of [a, b, c]) tracker.record(sent(t));
  const forked = chain.add([a.hash, b.hash, c.hash]);
  await until(() => tracker.progress().included === 3, 'the three transactions included');
  chain.rollback(forked - 1);
  chain.add([a.hash]);
  const next = chain.add([]);
  await readBy(next);
  return { a, b, c };
}

describe('InclusionTracker against a chain of known truth', () => {
  it('counts a transaction in two blocks as one inclusion and one duplicate, though both were read before its send\'s answer came', async () => {
    // Two outside testers' nodes answered chain_sendRawTransaction 300 to 1,500 ms late: every such duplicate read 0.
    const tracker = await start(true);
    const a = tx('a');
    const first = chain.add([a.hash]);
    await readBy(first);
    chain.add([]);
    const again = chain.add([a.hash]);
    await readBy(again);
    tracker.record(sent(a));
    const { stats, ledger } = await tracker.finish();
    expect(stats).toMatchObject({ accepted: 1, included: 1, pending: 0 });
    expect(ledger.duplicated).toEqual({ count: 1, examples: [`${a.hash} (again at height ${again})`] });
  });

  it('takes back a replaced block (a reorganisation): its transactions pending again, one the chain includes again is no duplicate', async () => {
    const tracker = await start(true, 600);
    const { b, c } = await replaceBlockOfThree(tracker);
    const later = chain.add([b.hash]);
    await readBy(later);
    const { stats, ledger } = await tracker.finish();
    expect(stats).toMatchObject({ accepted: 3, included: 2, pending: 1 });
    expect(stats.tracking).toMatchObject({ reorgs: 1, deepestReorg: 1, endedBy: 'grace' });
    expect(ledger.lost).toEqual({ count: 1, examples: [c.hash] });
    expect(ledger.duplicated.count).toBe(0);
  });

  it('reads a tip gone back two heights and rebuilt: the rebuilt heights are read again, each transaction included once, nothing lost', async () => {
    // An outside tester's chain rolled back two blocks every sixth and rebuilt them: the transactions of the rebuilt
    // heights were never read, 20% of them "lost".
    const tracker = await start(true, 600);
    const [a, b, c] = [tx('a'), tx('b'), tx('c')];
    for (const t of [a, b]) tracker.record(sent(t));
    const base = chain.tip;
    chain.add([a.hash]);
    const top = chain.add([b.hash]);
    await readBy(top);
    chain.rollback(base);
    tracker.record(sent(c));
    chain.add([a.hash]);
    chain.add([b.hash, c.hash]);
    const past = chain.add([]);
    await readBy(past);
    const { stats, ledger } = await tracker.finish();
    expect(stats).toMatchObject({ accepted: 3, included: 3, pending: 0 });
    expect(stats.tracking).toMatchObject({ reorgs: 1, deepestReorg: 2 });
    expect(ledger).toMatchObject({ lost: { count: 0 }, duplicated: { count: 0 } });
  });

  it('follows a transaction answered with another hash by its own too, and a 0x-prefixed answer as the same hash', async () => {
    const tracker = await start(true);
    const [a, b] = [tx('a'), tx('b')];
    tracker.record(sent(a, sha('not a')));
    tracker.record(sent(b, `0x${b.hash.toUpperCase()}`));
    chain.add([a.hash, b.hash]);
    const { stats } = await tracker.finish();
    expect(stats).toMatchObject({ accepted: 2, included: 2, pending: 0 });
    expect(stats.tracking).toMatchObject({ hashMismatches: 1, endedBy: 'all-included' });
  });

  it('does not call transactions lost that a node includes later than 5 block times: its default grace follows the inclusions it saw', async () => {
    // An outside tester's node included every transaction 2 s after taking it (blocks of 200 ms): 102 "lost".
    const tracker = await start(true);
    const [a, b] = [tx('a'), tx('b')];
    tracker.record(sent(a));
    await sleep(8 * BLOCK_MS);
    chain.add([a.hash]);
    tracker.record(sent(b));
    const finished = tracker.finish();
    await sleep(8 * BLOCK_MS);
    chain.add([b.hash]);
    const { stats, ledger } = await finished;
    expect(stats).toMatchObject({ accepted: 2, included: 2, pending: 0 });
    expect(ledger.lost.count).toBe(0);
  });

  it('by senders\' nonces, reads a state shown 300 ms after its block, no block after it: included, timed from the block', async () => {
    const tracker = await start(false, 1_500);
    expect(tracker.method).toBe('sender-nonce');
    const a = tx('a');
    const send = sent(a);
    tracker.record(send);
    await sleep(2 * BLOCK_MS);
    const height = chain.add([]);
    const madeAt = epochNow();
    setTimeout(() => chain.setNonce(a.sender, 1), 300);
    const { stats } = await tracker.finish();
    expect(stats).toMatchObject({ accepted: 1, included: 1, pending: 0 });
    expect(chain.tip).toBe(height);
    // Seen with the block (the tracker polls every 20 ms), not 300 ms later with the state.
    expect(stats.timeToInclusionMs.max).toBeLessThan(madeAt - send.scheduledAtMs + 200);
  });

  it('sees a replaced block on a node whose blocks show no hash (the spec shows none): the block read last is read again', async () => {
    // An outside tester's hashless chain replaced every fifth block: 20% of transactions lost, lost-tx == 0 kept.
    const tracker = await start(true, 600, (c) => (c.showsHashes = false));
    const { b, c } = await replaceBlockOfThree(tracker);
    chain.add([b.hash]);
    const { stats, ledger } = await tracker.finish();
    expect(stats).toMatchObject({ accepted: 3, included: 2, pending: 1 });
    expect(stats.tracking?.reorgs).toBeGreaterThanOrEqual(1);
    expect(ledger.lost.examples).toEqual([c.hash]);
  });

  it('by senders\' nonces behind a balancer whose every other answer comes from a replica 3 blocks behind: timed from the block, not before the send', async () => {
    // An outside tester's: times to inclusion of 1 ms, the transactions put in a block seen before they were sent.
    const tracker = await start(false, 1_500, (c) => (c.flapBehind = 3));
    // Six transactions, each included in a block made 150 ms after its send: whichever replica a poll's reads reach.
    for (let i = 0; i < 6; i++) {
      const t = tx(`flap ${i}`);
      tracker.record(sent(t));
      await sleep(150);
      chain.add([]);
      chain.setNonce(t.sender, 1);
    }
    for (let i = 0; i < 4; i++) {
      await sleep(BLOCK_MS);
      chain.add([]);
    }
    const { stats } = await tracker.finish();
    expect(stats).toMatchObject({ accepted: 6, included: 6 });
    expect(stats.timeToInclusionMs.min).toBeGreaterThanOrEqual(140);
  });
});
