import { createTransactionSigner } from '../../core/codec/index.js';
import type { Transfer, TxCodec } from '../../profile/TxCodec.js';
import { deriveKey } from './deriveKey.js';

/** Which codec signs: the reference codec's fast signer, or a profile's codec module (loadable in any thread). */
export type CodecSpec = { kind: 'reference' } | { kind: 'module'; path: string };

/** One lane to sign: sender `index`, `count` transactions from `firstNonce`. */
export interface LaneJob {
  index: number;
  firstNonce: number;
  count: number;
}

/** What every lane of a corpus shares (JSON: it crosses to worker threads). */
export interface SignJob {
  seed: string;
  /** u64 / u128 as decimal strings. */
  chainId: string;
  value: string;
  fee: string;
  recipients: string[];
  lanes: LaneJob[];
}

/** A signed lane: its JSON text as it goes into the corpus file (Corpus.senders[i]). */
export interface SignedLane {
  index: number;
  address: string;
  count: number;
  text: string;
}

/** Signs one sender's transfers with one key prepared once. */
export type LaneSigner = (privateKey: Uint8Array) => { address: string; sign(tx: Transfer): { wire: string; hash: string | null } };

/**
 * The signer of a codec. The reference codec builds its OpenSSL key object once per sender
 * (createTransactionSigner: about 0.3 ms a key, then ~40 µs a signature); another codec signs through its
 * TxCodec, one call per transaction.
 */
export async function laneSigner(codec: CodecSpec | TxCodec): Promise<LaneSigner> {
  if ('kind' in codec && codec.kind === 'reference') {
    return (privateKey) => {
      const signer = createTransactionSigner(privateKey);
      return { address: signer.address, sign: (tx) => signer.sign(tx) };
    };
  }
  // Loaded only for another codec: the reference path keeps a signing thread's imports (and start) small.
  const txCodec = 'kind' in codec ? await (await import('../../profile/detect/loadCodecModule.js')).loadCodecModule(codec.path) : codec;
  return (privateKey) => ({
    address: txCodec.addressOf(privateKey),
    sign: (tx) => {
      const encoded = txCodec.sign(privateKey, tx);
      return { wire: encoded.wire.toLowerCase(), hash: encoded.hash?.toLowerCase() ?? null };
    },
  });
}

/**
 * Signs one lane and writes it as corpus JSON, one transaction a line. Sender `index` pays recipient
 * `(index + nonce) % recipients.length`, so a lane spreads its transfers over every recipient.
 */
export function signLane(signer: LaneSigner, job: SignJob, lane: LaneJob): SignedLane {
  const key = signer(deriveKey(job.seed, 'sender', lane.index));
  const chainId = BigInt(job.chainId);
  const value = BigInt(job.value);
  const fee = BigInt(job.fee);
  const lines: string[] = [];
  for (let i = 0; i < lane.count; i++) {
    const nonce = lane.firstNonce + i;
    const to = job.recipients[(lane.index + nonce) % job.recipients.length] ?? '';
    const signed = key.sign({ chainId, to, value, nonce: BigInt(nonce), fee });
    lines.push(`{"nonce":${nonce},"tx":${JSON.stringify(signed.wire)},"hash":${JSON.stringify(signed.hash)}}`);
  }
  const address = key.address.toLowerCase();
  return { index: lane.index, address, count: lane.count, text: `{"index":${lane.index},"address":${JSON.stringify(address)},"txs":[\n${lines.join(',\n')}\n]}` };
}
