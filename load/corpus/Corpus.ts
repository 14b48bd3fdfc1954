/**
 * A pre-signed transaction corpus as it is written to disk (format "chainrpc-corpus/1"): plain JSON, so
 * `chainrpc load` and a k6 script (`JSON.parse(open(path))`, a SharedArray over `senders`) read the same
 * file. schemas/load/corpus.schema.json describes it; docs/load-transactions.md documents every field.
 * The file holds no private key and no seed: only addresses, signed transactions and their hashes.
 */

/** The format and version a reader checks first. A new field with a changed meaning makes a new version. */
export const CORPUS_FORMAT = 'chainrpc-corpus/1';

/** One pre-signed transaction of a lane. */
export interface CorpusTx {
  /** The sender's nonce this transaction carries (a lane's nonces are consecutive, ascending). */
  nonce: number;
  /** The chain_sendRawTransaction parameter (hex, as the profile's codec wrote it). */
  tx: string;
  /** The transaction hash the node should answer with; null when the codec cannot compute it. */
  hash: string | null;
}

/** One sender's transactions, in the order they must arrive. */
export interface CorpusLane {
  /** The sender's index in the derivation (`<seed>/sender/<index>`), 0-based. */
  index: number;
  address: string;
  txs: CorpusTx[];
}

export interface Corpus {
  format: typeof CORPUS_FORMAT;
  /** ISO 8601. */
  createdAt: string;
  tool: { name: 'chainrpc'; version: string };
  /** Loud and first in the file: what this file is and is not. */
  warning: string;
  /** The chain id the transactions are signed for, u64 as a decimal string. */
  chainId: string;
  /** The codec's name (the reference profile's is "chainrpc-tx-v1"). */
  codec: string;
  /** The profile the corpus was made with (its method and field names). */
  profile: string;
  /** The method a sender calls with `tx`, as the network names it ("chain_sendRawTransaction"). */
  method: string;
  /** How sender and recipient keys were derived, and a fingerprint of the seed (never the seed). */
  keys: { derivation: string; seedSha256: string };
  /** Every transaction's value and fee, base units as decimal strings. */
  value: string;
  fee: string;
  /** The addresses the transfers go to (sender i's nonce n pays recipients[(i + n) % length]). */
  recipients: string[];
  senders: CorpusLane[];
}
