/**
 * A request source over a pre-signed corpus (load/engine/RequestSource.ts): the engine loads this module in
 * each of its threads and calls `createSource`. Thread i of n sends the lanes (senders) i, i + n, ..., so no
 * two threads ever hold the same sender; each lane is strictly in order: its next transaction is handed
 * out only when the request that carried the previous one has ended (whatever its outcome).
 */
import type { JsonValue } from '../../core/json/index.js';
import type { CreateSource, PlannedCall, PlannedRequest, RequestSource, SourceShare } from '../engine/RequestSource.js';
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
}

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
  private readonly lanes: Lane[];
  /** Lanes ready to send, oldest first (round robin). */
  private readonly ready: Lane[];
  /** Lanes with transactions not yet handed out (ready, or busy with more to come). */
  private unfinished: number;
  private readonly carried = new WeakMap<PlannedRequest, Lane[]>();
  private nextId = 1;

  constructor(
    lanes: readonly CorpusLane[],
    private readonly method: string,
    private readonly batchSize: number,
    resumeAt: Readonly<Record<string, number>> = {},
  ) {
    const first = (l: CorpusLane): number => {
      const from = resumeAt[l.address];
      if (from === undefined) return 0;
      const at = l.txs.findIndex((t) => t.nonce >= from);
      return at === -1 ? l.txs.length : at;
    };
    this.lanes = lanes.map((l) => ({ address: l.address, txs: l.txs, next: first(l), busy: false })).filter((l) => l.next < l.txs.length);
    this.ready = [...this.lanes];
    this.unfinished = this.lanes.length;
  }

  /** undefined once every transaction has been handed out (some may still be in flight). */
  next(): PlannedRequest | null | undefined {
    if (this.unfinished === 0) return undefined;
    const take = Math.min(this.batchSize, this.unfinished);
    if (this.ready.length < take) return null;
    const lanes = this.ready.splice(0, take);
    const calls: PlannedCall[] = [];
    const bodies: string[] = [];
    for (const lane of lanes) {
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
    this.carried.set(request, lanes);
    return request;
  }

  onEnded(request: PlannedRequest): void {
    const lanes = this.carried.get(request);
    if (lanes === undefined) return;
    this.carried.delete(request);
    for (const lane of lanes) {
      lane.busy = false;
      if (lane.next < lane.txs.length) this.ready.push(lane);
    }
  }

  /** Transactions not yet handed out. */
  remaining(): number {
    return this.lanes.reduce((sum, l) => sum + l.txs.length - l.next, 0);
  }
}

/** The engine's entry point (CreateSource): the share's lanes of the corpus named in the options. */
export const createSource: CreateSource = (options: JsonValue, share: SourceShare): RequestSource => {
  const o = corpusSourceOptions(options);
  const corpus = readCorpus(o.corpus);
  const lanes = corpus.senders.filter((_, i) => i % share.count === share.index);
  return new CorpusSource(lanes, o.method ?? corpus.method, o.batchSize, o.resumeAt);
};

/** This module's URL, for a SourceSpec (`{ module: CORPUS_SOURCE_MODULE, options }`): the engine's threads load it. */
export const CORPUS_SOURCE_MODULE: string = import.meta.url;
