import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { RpcClient } from '../../core/client/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { packageVersion } from '../../core/packageVersion.js';
import type { Profile } from '../../profile/Profile.js';
import { wireMethod } from '../../profile/Profile.js';
import { referenceCodec } from '../../profile/referenceCodec.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { asU64, readField } from '../../profile/readWire.js';
import { CORPUS_FORMAT } from './Corpus.js';
import type { Corpus } from './Corpus.js';
import { CorpusError, FundingError } from './CorpusError.js';
import { deriveKey, KEY_DERIVATION } from './deriveKey.js';
import { fundSenders } from './fundSenders.js';
import type { Funding } from './fundSenders.js';
import type { CodecSpec, SignJob } from './signLanes.js';
import { SigningPool } from './SigningPool.js';
import { claimCorpusFile, writeCorpus } from './writeCorpus.js';

/** The seed when none is given: public, so anyone can derive these keys. Test money only. */
export const DEFAULT_CORPUS_SEED = 'chainrpc-load';

export const CORPUS_DEFAULTS = {
  seed: DEFAULT_CORPUS_SEED,
  /** One base unit: the smallest transfer, so the funding goes to fees. */
  value: 1n,
  recipients: 16,
  concurrency: 8,
} as const;

export interface MakeCorpusOptions {
  /** The node's base URL (the profile's rpcPath is appended). */
  url: string;
  /** The corpus file to write (atomically). */
  out: string;
  /** N: senders, one lane each. */
  senders: number;
  /** M: transactions per sender (consecutive nonces from the sender's current nonce). */
  perSender: number;
  /** Method names, field names, codec, fee, faucet; the reference profile by default. */
  profile?: Profile;
  /** Derives every key (docs/load-transactions.md); default "chainrpc-load", which is public. */
  seed?: string;
  /** Default: the faucet when the profile has one. */
  funding?: Funding;
  /** Base units each transfer sends; default 1. */
  value?: bigint;
  /** Base units each transfer pays; default the profile's fee (10^15 in the reference profile). */
  fee?: bigint;
  /** Recipient addresses derived from the seed; default 16. */
  recipients?: number;
  /** Signing threads; default one per SIGNING_THREAD_SHARE transactions up to every core (os.availableParallelism()), and none (this thread) for fewer. */
  threads?: number;
  /** The codec module the profile names, so worker threads can load it; without it another codec signs in this thread. */
  codecModule?: string;
  /** Default: the profile's chainId, else chain_health's chain_id, else 1. */
  chainId?: bigint;
  /** Wait for funding at most this long; default 50 block times, at least 30 s. */
  fundingTimeoutMs?: number;
  /** Calls at once while funding. */
  concurrency?: number;
  onProgress?: (progress: CorpusProgress) => void;
  /** Stops the funding wait and skips the signing once aborted: rejects with the signal's reason (an AbortError); no file is written. */
  signal?: AbortSignal;
}

export interface CorpusProgress {
  phase: 'funding' | 'signing';
  /** Senders funded, or lanes signed, so far. */
  done: number;
  total: number;
}

export interface CorpusSummary {
  path: string;
  format: typeof CORPUS_FORMAT;
  chainId: string;
  senders: number;
  perSender: number;
  transactions: number;
  /** Senders that had to be funded (a re-used seed may find them funded already). */
  funded: number;
  funding: Funding['kind'];
  /** The lowest and highest nonce a lane starts at (above 0 when the seed was used before). */
  firstNonce: { min: number; max: number };
  signing: { threads: number; ms: number; perSecond: number };
  bytes: number;
}

function positiveInteger(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new CorpusError(`${what} must be a positive integer; got ${value}`);
  return value;
}

/** The chain id transactions must carry: given, the profile's, or the node's (chain_health's chain_id). */
async function chainIdOf(client: RpcClient, profile: Profile, given: bigint | undefined): Promise<bigint> {
  if (given !== undefined) return given;
  if (profile.chainId !== undefined) return profile.chainId;
  const health = await client.call<JsonValue>(wireMethod(profile, 'chain_health'));
  return asU64(readField(profile, health, 'chain_id')) ?? 1n;
}

const WARNING =
  'TEST MONEY ONLY. Every sender key of this corpus follows from a seed (keys.derivation); whoever knows the seed can spend what the senders hold, and the default seed is public. The file holds no key and no seed: it can be shared, but the transactions in it are valid until sent.';

/**
 * Transactions worth a signing thread of their own: a thread takes longer to start (tens of ms) than this
 * thread takes to sign fewer (about 15,000 a second, docs/benchmarks.md), so a small corpus is signed here.
 */
export const SIGNING_THREAD_SHARE = 2_000;

/**
 * `chainrpc load corpus`: derives N sender keys from the seed, funds the senders that need it (faucet or a
 * funded key) and waits for their balances, reads each sender's nonce, pre-signs M transfers per sender on
 * every core, and writes the corpus file atomically (docs/load-transactions.md).
 */
export async function makeCorpus(options: MakeCorpusOptions): Promise<CorpusSummary> {
  const profile = options.profile ?? referenceProfile();
  const senders = positiveInteger(options.senders, 'senders');
  const perSender = positiveInteger(options.perSender, 'transactions per sender');
  const recipientCount = positiveInteger(options.recipients ?? CORPUS_DEFAULTS.recipients, 'recipients');
  // By default one thread per SIGNING_THREAD_SHARE transactions, up to every core; one signs in this thread.
  const threads = options.threads === undefined ? Math.min(availableParallelism(), Math.ceil((senders * perSender) / SIGNING_THREAD_SHARE)) : positiveInteger(options.threads, 'threads');
  const seed = options.seed ?? CORPUS_DEFAULTS.seed;
  if (seed.length === 0) throw new CorpusError('the seed is empty; give a non-empty string (or none for the default)');
  // Before any funding or signing: a file of the user's at --out is refused, not replaced (NotOursError).
  claimCorpusFile(options.out);
  const value = options.value ?? CORPUS_DEFAULTS.value;
  const fee = options.fee ?? profile.fee;
  if (value < 0n || fee < 0n) throw new CorpusError('value and fee must not be negative');
  const funding: Funding = options.funding ?? (profile.faucet ? { kind: 'faucet' } : { kind: 'none' });

  const client = new RpcClient({ baseUrl: options.url, rpcPath: profile.rpcPath, connections: options.concurrency ?? CORPUS_DEFAULTS.concurrency });
  // Signing threads start now and load while the senders are funded (which waits for blocks).
  const spec = codecSpec(profile, options.codecModule);
  const pool = spec === undefined || (options.threads === undefined && threads === 1) ? undefined : SigningPool.start(spec, threads);
  try {
    const chainId = await chainIdOf(client, profile, options.chainId);
    const addresses = Array.from({ length: senders }, (_, i) => profile.codec.addressOf(deriveKey(seed, 'sender', i)).toLowerCase());
    const recipients = Array.from({ length: recipientCount }, (_, k) => profile.codec.addressOf(deriveKey(seed, 'recipient', k)).toLowerCase());

    const need = BigInt(perSender) * (value + fee);
    const { accounts, funded } = await fundSenders({
      client,
      profile,
      addresses,
      need,
      funding,
      chainId,
      timeoutMs: options.fundingTimeoutMs ?? Math.max(30_000, 50 * profile.blockTimeMs),
      concurrency: options.concurrency ?? CORPUS_DEFAULTS.concurrency,
      onProgress: (done, total) => options.onProgress?.({ phase: 'funding', done, total }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    options.signal?.throwIfAborted();
    const firstNonces = accounts.map((a, i) => {
      if (a.nonce + BigInt(perSender) > BigInt(Number.MAX_SAFE_INTEGER)) throw new FundingError(`sender ${i}'s nonce ${a.nonce} is too high for a corpus (nonces are kept below 2^53)`);
      return Number(a.nonce);
    });

    const job: SignJob = {
      seed,
      chainId: chainId.toString(),
      value: value.toString(),
      fee: fee.toString(),
      recipients,
      lanes: firstNonces.map((firstNonce, index) => ({ index, firstNonce, count: perSender })),
    };
    const header: Omit<Corpus, 'senders'> = {
      format: CORPUS_FORMAT,
      createdAt: new Date().toISOString(),
      tool: { name: 'chainrpc', version: packageVersion() },
      warning: WARNING,
      chainId: job.chainId,
      codec: profile.codec.name,
      profile: profile.name,
      method: wireMethod(profile, 'chain_sendRawTransaction'),
      keys: { derivation: KEY_DERIVATION, seedSha256: createHash('sha256').update(seed, 'utf8').digest('hex') },
      value: job.value,
      fee: job.fee,
      recipients,
    };
    const written = await writeCorpus({
      out: options.out,
      header,
      job,
      signer: pool ?? profile.codec,
      onLane: (done, total) => options.onProgress?.({ phase: 'signing', done, total }),
    });
    const transactions = senders * perSender;
    return {
      path: written.path,
      format: CORPUS_FORMAT,
      chainId: job.chainId,
      senders,
      perSender,
      transactions,
      funded,
      funding: funding.kind,
      firstNonce: { min: firstNonces.reduce((a, b) => Math.min(a, b)), max: firstNonces.reduce((a, b) => Math.max(a, b)) },
      signing: { threads: written.threads, ms: Math.round(written.ms), perSecond: Math.round(transactions / (written.ms / 1000)) },
      bytes: written.bytes,
    };
  } finally {
    await Promise.all([client.close(), pool?.close()]);
  }
}

/** How worker threads can sign with the profile's codec; undefined: only this thread can (a codec object without its module path). */
function codecSpec(profile: Profile, codecModule: string | undefined): CodecSpec | undefined {
  if (codecModule !== undefined) return { kind: 'module', path: resolve(codecModule) };
  if (profile.codec === referenceCodec || profile.codec.name === referenceCodec.name) return { kind: 'reference' };
  return undefined;
}
