/**
 * chain_sendRawTransaction under load: pre-signed transfers from a corpus (`chainrpc load corpus`), one
 * lane per sender, each lane's next nonce sent only once its previous request ended
 * (load/corpus/corpusSource.ts). A scenario's mix reaches it through the transaction lanes below.
 */
import type { PlannedRequest, SourceShare } from '../engine/RequestSource.js';
import { createSource } from '../corpus/corpusSource.js';

export interface TransactionLanes {
  next(): PlannedRequest | null | undefined;
  ended(request: PlannedRequest): void;
  close(): void | Promise<void>;
}

export async function createTransactionLanes(options: { corpus: string; batchSize: number; method: string; resumeAt?: Record<string, number> }, share: SourceShare): Promise<TransactionLanes> {
  // The corpus's own source, as created in any thread (synchronous today; awaited so it may not be).
  const source = await createSource(options, share);
  return {
    next: () => source.next(),
    ended: (request) => source.onEnded?.(request),
    close: () => source.close?.(),
  };
}
