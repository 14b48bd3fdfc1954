/**
 * The chain's key layout on top of LevelStore (docs/chain.md, "Store layout"):
 *
 *   m:meta           format u8 || chain_id u64 || genesis hash 32 || faucet address 32
 *   m:tip            height u64 || hash 32
 *   b:<height, 16 hex>  block record (blockRecord.ts)
 *   a:<address>      balance u128 || nonce u64        (absent = empty account)
 *   f:<address>      faucet claim count u64           (absent = 0)
 *   t:<tx hash>      height u64 || index u32          (the confirmed-transaction index)
 *
 * commitBlock writes one block and everything it changed in ONE synced batch, so the store always
 * holds a whole number of blocks and the state after the last of them.
 */
import type { Account, Block } from './types.js';
import type { StateChanges } from './WorldState.js';
import { ByteReader, concatBytes, hex32, u128be, u32be, u64be } from './bytes.js';
import { decodeBlockRecord, encodeBlockRecord } from './blockRecord.js';
import { LevelStore } from '../store/LevelStore.js';
import type { StoreWrite } from '../store/LevelStore.js';
import { StoreDamagedError } from '../store/StoreDamagedError.js';

export const STORE_FORMAT = 1;

export const KEY_META = 'm:meta';
export const KEY_TIP = 'm:tip';
export const blockKey = (height: bigint): string => `b:${height.toString(16).padStart(16, '0')}`;
export const accountKey = (address: string): string => `a:${address}`;
export const faucetKey = (address: string): string => `f:${address}`;
export const txKey = (hash: string): string => `t:${hash}`;

export interface ChainMeta {
  readonly chainId: bigint;
  readonly genesisHash: string;
  readonly faucetAddress: string;
}

export interface StoredTip {
  readonly height: bigint;
  readonly hash: string;
}

export interface TxLocation {
  readonly height: bigint;
  readonly index: number;
}

const encodeAccount = (account: Account): Uint8Array => concatBytes([u128be(account.balance), u64be(account.nonce)]);
const encodeLocation = (height: bigint, index: number): Uint8Array => concatBytes([u64be(height), u32be(index)]);

export class ChainStore {
  private constructor(readonly level: LevelStore) {}

  static async open(dataDir: string): Promise<ChainStore> {
    return new ChainStore(await LevelStore.open(dataDir));
  }

  get dataDir(): string {
    return this.level.dataDir;
  }

  /** Decode a record, turning any decoding failure into StoreDamagedError naming the key. */
  private decode<T>(key: string, bytes: Uint8Array, decoder: (r: ByteReader) => T): T {
    try {
      const r = new ByteReader(bytes, `value of ${key}`);
      const value = decoder(r);
      r.end();
      return value;
    } catch (error) {
      if (error instanceof StoreDamagedError) throw error;
      throw new StoreDamagedError(this.dataDir, `the value stored under key ${JSON.stringify(key)} cannot be decoded (${(error as Error).message})`, { cause: error });
    }
  }

  private decodeBlock(key: string, bytes: Uint8Array): Block {
    try {
      return decodeBlockRecord(bytes);
    } catch (error) {
      throw new StoreDamagedError(this.dataDir, `the block stored under key ${JSON.stringify(key)} cannot be decoded (${(error as Error).message})`, { cause: error });
    }
  }

  isEmpty(): Promise<boolean> {
    return this.level.isEmpty();
  }

  async readMeta(): Promise<ChainMeta | undefined> {
    const bytes = await this.level.get(KEY_META);
    if (bytes === undefined) return undefined;
    return this.decode(KEY_META, bytes, (r) => {
      const format = r.u8();
      if (format !== STORE_FORMAT) throw new RangeError(`store format ${format}; this node reads format ${STORE_FORMAT}`);
      return { chainId: r.u64(), genesisHash: r.hex(32), faucetAddress: r.hex(32) };
    });
  }

  async readTip(): Promise<StoredTip | undefined> {
    const bytes = await this.level.get(KEY_TIP);
    return bytes === undefined ? undefined : this.decode(KEY_TIP, bytes, (r) => ({ height: r.u64(), hash: r.hex(32) }));
  }

  getBlockSync(height: bigint): Block | undefined {
    const key = blockKey(height);
    const bytes = this.level.getSync(key);
    return bytes === undefined ? undefined : this.decodeBlock(key, bytes);
  }

  transactionLocationSync(hash: string): TxLocation | undefined {
    const key = txKey(hash);
    const bytes = this.level.getSync(key);
    return bytes === undefined ? undefined : this.decode(key, bytes, (r) => ({ height: r.u64(), index: r.u32() }));
  }

  /** Every stored block in height order, with the height its key names. */
  async *blocks(): AsyncGenerator<{ readonly keyHeight: bigint; readonly block: Block }> {
    for await (const [key, bytes] of this.level.entries('b:')) {
      const hex = key.slice(2);
      if (!/^[0-9a-f]{16}$/.test(hex)) throw new StoreDamagedError(this.dataDir, `unexpected block key ${JSON.stringify(key)}`);
      yield { keyHeight: BigInt(`0x${hex}`), block: this.decodeBlock(key, bytes) };
    }
  }

  private async *addressed<T>(prefix: string, decoder: (r: ByteReader) => T): AsyncGenerator<[string, T]> {
    for await (const [key, bytes] of this.level.entries(prefix)) {
      const id = key.slice(prefix.length);
      if (!/^[0-9a-f]{64}$/.test(id)) throw new StoreDamagedError(this.dataDir, `unexpected key ${JSON.stringify(key)}`);
      yield [id, this.decode(key, bytes, decoder)];
    }
  }

  accounts(): AsyncGenerator<[string, Account]> {
    return this.addressed('a:', (r) => ({ balance: r.u128(), nonce: r.u64() }));
  }

  faucetCounts(): AsyncGenerator<[string, bigint]> {
    return this.addressed('f:', (r) => r.u64());
  }

  txIndex(): AsyncGenerator<[string, TxLocation]> {
    return this.addressed('t:', (r) => ({ height: r.u64(), index: r.u32() }));
  }

  private blockWrites(block: Block, changes: StateChanges): StoreWrite[] {
    const writes: StoreWrite[] = [
      { type: 'put', key: blockKey(block.height), value: encodeBlockRecord(block) },
      { type: 'put', key: KEY_TIP, value: concatBytes([u64be(block.height), hex32(block.hash)]) },
    ];
    for (const [address, account] of changes.accounts) {
      const key = accountKey(address);
      writes.push(account.balance === 0n && account.nonce === 0n ? { type: 'del', key } : { type: 'put', key, value: encodeAccount(account) });
    }
    for (const [address, count] of changes.faucetCounts) {
      const key = faucetKey(address);
      writes.push(count === 0n ? { type: 'del', key } : { type: 'put', key, value: u64be(count) });
    }
    block.transactions.forEach((tx, index) => writes.push({ type: 'put', key: txKey(tx.hash), value: encodeLocation(block.height, index) }));
    return writes;
  }

  /** First write to an empty store: metadata, genesis block, tip and the allocation, in one batch. */
  async initialize(meta: ChainMeta, genesis: Block, state: StateChanges): Promise<void> {
    const metaBytes = concatBytes([new Uint8Array([STORE_FORMAT]), u64be(meta.chainId), hex32(meta.genesisHash), hex32(meta.faucetAddress)]);
    await this.level.write([{ type: 'put', key: KEY_META, value: metaBytes }, ...this.blockWrites(genesis, state)]);
  }

  /**
   * Make a block durable: block, tip, changed accounts and faucet counts, tx index, all in one
   * synced batch. Resolves only once LevelDB has fsynced it.
   */
  async commitBlock(block: Block, changes: StateChanges): Promise<void> {
    await this.level.write(this.blockWrites(block, changes));
  }

  close(): Promise<void> {
    return this.level.close();
  }
}
