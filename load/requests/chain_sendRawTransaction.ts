/**
 * chain_sendRawTransaction under load: pre-signed transfers from a corpus (`chainrpc load corpus`), one
 * lane per sender, each lane's next nonce sent only once its previous request ended
 * (load/corpus/corpusSource.ts). A scenario's mix reaches it through the transaction lanes below.
 */
import type { CallResult, PlannedRequest, SourceShare } from '../engine/RequestSource.js';
import { corpusSource, type LaneResync } from '../corpus/corpusSource.js';
import type { LaneLedger } from '../model.js';

export interface TransactionLanes {
  next(): PlannedRequest | null | undefined;
  ended(request: PlannedRequest, outcomes?: readonly CallResult[]): void;
  /** What the lanes did after failed sends; undefined when no lane stopped. */
  ledger(): LaneLedger | undefined;
  close(): void | Promise<void>;
}

export function createTransactionLanes(options: { corpus: string; batchSize: number; method: string; resumeAt?: Record<string, number> }, share: SourceShare, resync?: LaneResync): TransactionLanes {
  const source = corpusSource(options, share, resync);
  return {
    next: () => source.next(),
    ended: (request, outcomes) => source.onEnded(request, outcomes),
    ledger: () => {
      const l = source.ledger();
      return l.resyncs === 0 ? undefined : l;
    },
    close: () => undefined,
  };
}
