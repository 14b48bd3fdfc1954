/**
 * A request source over a pre-signed corpus (load/engine/RequestSource.ts): the engine loads this module in
 * each of its threads and calls `createSource`. Thread i of n sends the lanes (senders) i, i + n, ..., so no
 * two threads ever hold the same sender; each lane is strictly in order: its next transaction is handed
 * out only when the request that carried the previous one has ended.
 *
 * With `resync` (a scenario's source gives it: it knows the profile), a lane whose transaction was refused or
 * got no answer stops and reads its sender's nonce on the chain (chain_getAccount, in the load like any call)
 * before it sends again (docs/chaos.md, "Lanes after a fault"):
 * - the chain is past the failed transaction: it was taken after all; the lane goes on;
 * - the chain waits for exactly the failed transaction, or for an earlier one that has not landed within
 *   `settleMs` (accepted, then lost): the lane resumes from the chain's nonce, sending those again (counted);
 * - the chain is behind but earlier transactions may still land, or the read got no answer (the node is down):
 *   it reads again `retryMs` later.
 * A nonce the chain already has is never sent again; transactions between the chain's nonce and the lane's are.
 */
import type { JsonValue } from '../../core/json/index.js';
import type { LaneLedger } from '../model.js';
import type { CallResult, CreateSource, PlannedCall, PlannedRequest, RequestSource, SourceShare } from '../engine/RequestSource.js';
import type { CorpusLane } from './Corpus.js';
import { CorpusError } from './CorpusError.js';
import { readCorpus } from './readCorpus.js';

/** The options a scenario gives this source (JSON: they cross to worker threads). */
export interface CorpusSourceOptions {
  /** The corpus file (`chainrpc load corpus`). */
  corpus: string;
  /** 1: one chain_sendRawTransaction per request; K > 1: batches of K calls, each from a different sender. */
  batchSize: number;
  /** The submitting method's wire name; default the corpus's `method`. */
  method?: string;
  /**
   * Per sender address, the nonce to resume from: transactions below it were sent before (an earlier segment
   * of an interleaved run) and are skipped, never sent twice.
   */
  resumeAt?: Record<string, number>;
}

/** What a tracked call carries to the inclusion tracker (PlannedCall.track). */
export interface TxTag {
  /** The corpus's hash of the transaction; null when its codec could not compute one (the node's answer then names it). */
  hash: string | null;
  sender: string;
  nonce: number;
}

interface Lane {
  address: string;
  txs: CorpusLane['txs'];
  /** Index of the lane's next transaction. */
  next: number;
  busy: boolean;
  /** Stopped after a failed send: the failed transaction's index, since when, when to read the nonce next. */
  resync?: { failedAt: number; sinceMs: number; dueMs: number; reading: boolean } | undefined;
}

/** How a lane finds its sender's nonce on the chain after a failed send (see the file's comment). */
export interface LaneResync {
  /** chain_getAccount's wire name. */
  accountMethod: string;
  /** The nonce in its result, as the profile writes it; undefined when the result holds none. */
  nonceOf(result: JsonValue): number | undefined;
  /** How long earlier accepted transactions may take to show on the chain before they count as lost (ms). */
  settleMs: number;
  /** Between two reads of a stopped lane's nonce (ms). */
  retryMs: number;
  now?: () => number;
}

/** What a request carried: transactions (a lane and its transaction's index each), or one lane's nonce read. */
type Carried = { kind: 'txs'; lanes: Lane[]; indexes: number[] } | { kind: 'read'; lane: Lane };

const isRecord = (v: JsonValue): v is { [key: string]: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks the source's JSON options; throws CorpusError naming what is wrong. */
export function corpusSourceOptions(options: JsonValue): CorpusSourceOptions {
  if (!isRecord(options)) throw new CorpusError('corpus source options must be an object { corpus, batchSize, method? }');
  const { corpus, batchSize = 1, method, resumeAt } = options;
  if (typeof corpus !== 'string' || corpus === '') throw new CorpusError('corpus source: `corpus` must name the corpus file');
  if (typeof batchSize !== 'number' || !Number.isSafeInteger(batchSize) || batchSize < 1) throw new CorpusError(`corpus source: batchSize must be a positive integer; got ${JSON.stringify(batchSize)}`);
  if (method !== undefined && (typeof method !== 'string' || method === '')) throw new CorpusError('corpus source: `method` must be a method name');
  if (resumeAt !== undefined && (!isRecord(resumeAt) || !Object.values(resumeAt).every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0))) {
    throw new CorpusError('corpus source: resumeAt must map sender addresses to nonces');
  }
  return { corpus, batchSize, ...(method === undefined ? {} : { method }), ...(resumeAt === undefined ? {} : { resumeAt: resumeAt as Record<string, number> }) };
}

/**
 * Hands out the share's transactions. A batch holds K transactions of K different senders, never two of
 * one sender: JSON-RPC 2.0 lets a server run a batch's calls in any order, so consecutive nonces in one
 * batch could arrive out of order. K senders must therefore be ready at once; when fewer are, next() waits
 * (null), unless every sender that has transactions left is ready, which sends the short batch that remains.
 */
export class CorpusSource implements RequestSource {
  private readonly senders: Lane[];
  /** Lanes ready to send, oldest first (round robin). */
  private readonly ready: Lane[];
  /** Lanes with transactions not yet handed out (ready, or busy with more to come). */
  private unfinished: number;
  private readonly carried = new WeakMap<PlannedRequest, Carried>();
  /** Lanes stopped after a failed send, until their nonce is read (resync). */
  private readonly resyncing: Lane[] = [];
  private readonly counts: LaneLedger = { resyncs: 0, resent: 0, skipped: 0 };
  private nextId = 1;

  constructor(
    lanes: readonly CorpusLane[],
    private readonly method: string,
    private readonly batchSize: number,
    resumeAt: Readonly<Record<string, number>> = {},
    private readonly resync?: LaneResync,
  ) {
    const first = (l: CorpusLane): number => {
      const from = resumeAt[l.address];
      if (from === undefined) return 0;
      const at = l.txs.findIndex((t) => t.nonce >= from);
      return at === -1 ? l.txs.length : at;
    };
    this.senders = lanes.map((l) => ({ address: l.address, txs: l.txs, next: first(l), busy: false })).filter((l) => l.next < l.txs.length);
    this.ready = [...this.senders];
    this.unfinished = this.senders.length;
  }

  /** undefined once every transaction has been handed out (some may still be in flight) and no lane is stopped. */
  next(): PlannedRequest | null | undefined {
    const due = this.dueRead();
    if (due !== undefined) return due;
    if (this.unfinished === 0) return this.resyncing.length === 0 ? undefined : null;
    const take = Math.min(this.batchSize, this.unfinished);
    if (this.ready.length < take) return null;
    const lanes = this.ready.splice(0, take);
    const calls: PlannedCall[] = [];
    const bodies: string[] = [];
    const indexes: number[] = [];
    for (const lane of lanes) {
      indexes.push(lane.next);
      const tx = lane.txs[lane.next];
      if (tx === undefined) throw new Error('corpus source: a ready lane has no transaction left'); // unreachable: finished lanes are never ready
      lane.next++;
      lane.busy = true;
      if (lane.next === lane.txs.length) this.unfinished--;
      const id = this.nextId++;
      const track: TxTag = { hash: tx.hash, sender: lane.address, nonce: tx.nonce };
      calls.push({ id, method: this.method, track: track as unknown as JsonValue });
      bodies.push(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(this.method)},"params":[${JSON.stringify(tx.tx)}]}`);
    }
    const batch = this.batchSize > 1;
    const request: PlannedRequest = { body: Buffer.from(batch ? `[${bodies.join(',')}]` : (bodies[0] ?? '')), calls, batch };
    this.carried.set(request, { kind: 'txs', lanes, indexes });
    return request;
  }

  /** A stopped lane's nonce read, when one is due. */
  private dueRead(): PlannedRequest | undefined {
    const r = this.resync;
    if (r === undefined || this.resyncing.length === 0) return undefined;
    const now = (r.now ?? Date.now)();
    const lane = this.resyncing.find((l) => l.resync !== undefined && !l.resync.reading && l.resync.dueMs <= now);
    if (lane?.resync === undefined) return undefined;
    lane.resync.reading = true;
    const id = this.nextId++;
    const request: PlannedRequest = { body: Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(r.accountMethod)},"params":[${JSON.stringify(lane.address)}]}`), calls: [{ id, method: r.accountMethod }], batch: false };
    this.carried.set(request, { kind: 'read', lane });
    return request;
  }

  /** `outcomes`: each call's, in order (the engine gives them; without them a lane just goes on). */
  onEnded(request: PlannedRequest, outcomes?: readonly CallResult[]): void {
    const carried = this.carried.get(request);
    if (carried === undefined) return;
    this.carried.delete(request);
    if (carried.kind === 'read') {
      const o = outcomes?.[0];
      this.afterRead(carried.lane, o?.kind === 'result' && this.resync !== undefined ? this.resync.nonceOf(o.result) : undefined);
      return;
    }
    carried.lanes.forEach((lane, i) => {
      lane.busy = false;
      const o = outcomes?.[i];
      if (this.resync !== undefined && o !== undefined && o.kind !== 'result') return this.stop(lane, carried.indexes[i] ?? lane.next - 1);
      if (lane.next < lane.txs.length) this.ready.push(lane);
    });
  }

  private stop(lane: Lane, failedAt: number): void {
    const now = (this.resync?.now ?? Date.now)();
    lane.resync = { failedAt, sinceMs: now, dueMs: now, reading: false };
    this.resyncing.push(lane);
    this.counts.resyncs++;
  }

  /** A stopped lane's nonce on the chain (undefined: no answer), and what the lane does next (see the file's comment). */
  private afterRead(lane: Lane, nonce: number | undefined): void {
    const r = this.resync;
    const stopped = lane.resync;
    if (r === undefined || stopped === undefined) return;
    stopped.reading = false;
    const now = (r.now ?? Date.now)();
    const failed = lane.txs[stopped.failedAt]?.nonce ?? Number.POSITIVE_INFINITY;
    if (nonce === undefined || (nonce < failed && now - stopped.sinceMs < r.settleMs)) {
      stopped.dueMs = now + r.retryMs;
      return;
    }
    const at = lane.txs.findIndex((t) => t.nonce >= nonce);
    const from = at === -1 ? lane.txs.length : at;
    if (from < lane.next) this.counts.resent += lane.next - from;
    else this.counts.skipped += from - lane.next;
    if (lane.next >= lane.txs.length && from < lane.txs.length) this.unfinished++;
    else if (lane.next < lane.txs.length && from >= lane.txs.length) this.unfinished--;
    lane.next = from;
    lane.resync = undefined;
    this.resyncing.splice(this.resyncing.indexOf(lane), 1);
    if (lane.next < lane.txs.length) this.ready.push(lane);
  }

  /** What the lanes did after failed sends. */
  ledger(): LaneLedger {
    return { ...this.counts };
  }

  /** Transactions not yet handed out. */
  remaining(): number {
    return this.senders.reduce((sum, l) => sum + l.txs.length - l.next, 0);
  }
}

/** The engine's entry point (CreateSource): the share's lanes of the corpus named in the options. */
export const createSource: CreateSource = (options: JsonValue, share: SourceShare): RequestSource => corpusSource(options, share);

/** The share's lanes of the corpus named in the options; `resync`: how a lane finds its nonce after a failed send. */
export function corpusSource(options: JsonValue, share: SourceShare, resync?: LaneResync): CorpusSource {
  const o = corpusSourceOptions(options);
  const corpus = readCorpus(o.corpus);
  const lanes = corpus.senders.filter((_, i) => i % share.count === share.index);
  return new CorpusSource(lanes, o.method ?? corpus.method, o.batchSize, o.resumeAt, resync);
}

/** This module's URL, for a SourceSpec (`{ module: CORPUS_SOURCE_MODULE, options }`): the engine's threads load it. */
export const CORPUS_SOURCE_MODULE: string = import.meta.url;
