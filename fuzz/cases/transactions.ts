/**
 * Real transactions for chain_sendRawTransaction, signed through the profile's codec by fresh keys that hold
 * nothing: the node decodes and verifies them and refuses them for balance (the deep path, without spending a
 * thing), plus the codec's crafted variants and transactions for another chain. Signing costs about a
 * millisecond, so each run's seed has a small pool, each entry made on first use from (seed, entry) alone and
 * kept: the same seed gives the same bytes whatever order the cases are made in.
 *
 * Keys: where the codec takes any bytes of its key length as a private key (ed25519 does), a key is drawn from
 * the seed, so a case is the same in every process; otherwise the codec's newKey() is used, and the pool's keys
 * (and so those cases' bytes) hold only within one process.
 */
import type { TxCodec, Transfer } from '../../profile/TxCodec.js';
import { Draw } from './random.js';
import { U64_MAX } from './plausibleValues.js';

/** Keys per pool, unfunded transactions per pool, and salts that keep the pool's draws apart from the cases'. */
const KEYS = 4;
const UNFUNDED = 16;
const WRONG_CHAIN = 6;
const SALT_KEY = 0x6b6579;
const SALT_TX = 0x7478;

export interface PooledTx {
  wire: string;
  /** What it is, for a case's title ("unfunded transfer, nonce 0"). */
  what: string;
}

/** The crafted variants signed by a key of the fuzzer's (smallOrderKey has its own sender, and needs funds to mean anything). */
export type CraftedName = Exclude<keyof NonNullable<TxCodec['crafted']>, 'smallOrderKey'>;
const CRAFTED: readonly CraftedName[] = ['badSignature', 'nonCanonicalS', 'smallOrderR', 'overflow', 'wrongLength'];

/** A seed's transactions. Every method is deterministic in (seed, its argument). */
export class TxPool {
  private readonly codec: TxCodec;
  private readonly seed: number;
  private readonly chainId: bigint;
  private readonly fee: bigint;
  private readonly keys: (Uint8Array | undefined)[] = [];
  private readonly made = new Map<string, PooledTx | null>();

  constructor(codec: TxCodec, seed: number, chainId: bigint, fee: bigint) {
    this.codec = codec;
    this.seed = seed;
    this.chainId = chainId;
    this.fee = fee;
  }

  /** An unfunded transfer, entry `i % 16`. */
  unfunded(i: number): PooledTx {
    const n = i % UNFUNDED;
    return this.memo(`u${n}`, () => {
      const draw = Draw.of(this.seed, SALT_TX, 1, n);
      const tx = this.transfer(draw, this.chainId);
      return { wire: this.codec.sign(this.key(n % KEYS), tx).wire, what: `unfunded transfer, nonce ${tx.nonce}` };
    }) ?? this.fallback();
  }

  /** A crafted variant (bad signature, non-canonical S, small-order R, overflow, wrong length); undefined: the codec has none. */
  crafted(i: number): PooledTx | undefined {
    const crafted = this.codec.crafted;
    if (crafted === undefined) return undefined;
    const name = CRAFTED[i % CRAFTED.length] as CraftedName;
    const keyIndex = Math.floor(i / CRAFTED.length) % 2;
    return this.memo(`c${name}${keyIndex}`, () => {
      const tx = this.transfer(Draw.of(this.seed, SALT_TX, 2, i % (CRAFTED.length * 2)), this.chainId);
      return { wire: crafted[name](this.key(keyIndex), tx), what: `crafted: ${name}` };
    }) ?? undefined;
  }

  /** A well-signed transfer for another chain id. */
  wrongChain(i: number): PooledTx {
    const n = i % WRONG_CHAIN;
    const ids = [this.chainId + 1n, this.chainId === 0n ? 2n : this.chainId - 1n, 0n, this.chainId + 2n ** 32n, U64_MAX, this.chainId ^ 0xffn];
    const chainId = (ids[n] ?? 0n) & U64_MAX;
    return this.memo(`w${n}`, () => {
      const tx = this.transfer(Draw.of(this.seed, SALT_TX, 3, n), chainId === this.chainId ? chainId + 1n : chainId);
      return { wire: this.codec.sign(this.key(n % KEYS), tx).wire, what: `signed for chain id ${tx.chainId} (the chain's is ${this.chainId})` };
    }) ?? this.unfunded(i);
  }

  private transfer(draw: Draw, chainId: bigint): Transfer {
    const to = draw.chance(0.2) ? this.codec.addressOf(this.key(draw.int(0, KEYS - 1))) : draw.hex(64);
    const value = draw.pick([1n, 10n ** 18n, draw.bigint(0n, U64_MAX), 2n ** 100n, 0n]);
    const nonce = draw.pick([0n, 0n, 1n, draw.bigint(2n, 2n ** 32n), U64_MAX]);
    const fee = draw.pick([this.fee, this.fee, 0n, 1n]);
    return { chainId, to, value, nonce, fee };
  }

  /** Made once; null when the codec refused (then the caller falls back). */
  private memo(key: string, make: () => PooledTx): PooledTx | null {
    const known = this.made.get(key);
    if (known !== undefined) return known;
    let tx: PooledTx | null;
    try {
      tx = make();
    } catch {
      tx = null;
    }
    this.made.set(key, tx);
    return tx;
  }

  /** A transfer with the plainest values, when a drawn one was refused by the codec. */
  private fallback(): PooledTx {
    return (
      this.memo('plain', () => ({
        wire: this.codec.sign(this.key(0), { chainId: this.chainId & U64_MAX, to: '00'.repeat(32), value: 1n, nonce: 0n, fee: this.fee }).wire,
        what: 'unfunded transfer',
      })) ?? { wire: '00', what: 'no transaction (the codec signs none)' }
    );
  }

  /** Key `k` of the pool: drawn from the seed where the codec takes any bytes, else fresh. */
  key(k: number): Uint8Array {
    const known = this.keys[k];
    if (known !== undefined) return known;
    const key = derivedKey(this.codec, Draw.of(this.seed, SALT_KEY, k)) ?? this.codec.newKey().privateKey;
    this.keys[k] = key;
    return key;
  }
}

const keyLengths = new WeakMap<TxCodec, number>();

/** Random bytes of the codec's key length, if the codec takes them as a key (it gives a 64-hex address for them). */
function derivedKey(codec: TxCodec, draw: Draw): Uint8Array | undefined {
  let length = keyLengths.get(codec);
  if (length === undefined) {
    length = codec.newKey().privateKey.length;
    keyLengths.set(codec, length);
  }
  const bytes = draw.bytes(length);
  try {
    return /^[0-9a-fA-F]{64}$/.test(codec.addressOf(bytes)) ? bytes : undefined;
  } catch {
    return undefined;
  }
}

const pools = new WeakMap<TxCodec, Map<string, TxPool>>();
const POOLS_KEPT = 16;

/** The pool of (codec, seed, chain id, fee), made once and kept (the last few). */
export function txPool(codec: TxCodec, seed: number, chainId: bigint, fee: bigint): TxPool {
  let byKey = pools.get(codec);
  if (byKey === undefined) {
    byKey = new Map();
    pools.set(codec, byKey);
  }
  const key = `${seed}|${chainId}|${fee}`;
  let pool = byKey.get(key);
  if (pool === undefined) {
    if (byKey.size >= POOLS_KEPT) {
      const oldest = byKey.keys().next();
      if (oldest.done !== true) byKey.delete(oldest.value);
    }
    pool = new TxPool(codec, seed, chainId, fee);
    byKey.set(key, pool);
  }
  return pool;
}
