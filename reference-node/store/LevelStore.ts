/**
 * The one file that knows the storage engine (classic-level: LevelDB). Everything else sees a
 * small key-value API with string keys and byte values, every value sealed with a checksum
 * (valueChecksum.ts) that is verified on every read. Swapping the engine means rewriting this file.
 */
import { mkdir } from 'node:fs/promises';
import { ClassicLevel } from 'classic-level';
import { StoreDamagedError } from './StoreDamagedError.js';
import { StoreLockedError } from './StoreLockedError.js';
import { sealValue, unsealValue } from './valueChecksum.js';

export type StoreWrite = { readonly type: 'put'; readonly key: string; readonly value: Uint8Array } | { readonly type: 'del'; readonly key: string };

/** The LevelDB error code of an error or of its cause, if any. */
function levelCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'LEVEL_LOCKED' || code === 'LEVEL_CORRUPTION') return code;
  }
  return undefined;
}

export class LevelStore {
  private constructor(
    private readonly db: ClassicLevel<string, Uint8Array>,
    readonly dataDir: string,
  ) {}

  /** Opens (creating if missing) the store in dataDir. A held lock -> StoreLockedError. */
  static async open(dataDir: string): Promise<LevelStore> {
    await mkdir(dataDir, { recursive: true });
    const db = new ClassicLevel<string, Uint8Array>(dataDir, { keyEncoding: 'utf8', valueEncoding: 'view' });
    try {
      await db.open();
    } catch (error) {
      const code = levelCode(error);
      if (code === 'LEVEL_LOCKED') throw new StoreLockedError(dataDir, { cause: error });
      if (code === 'LEVEL_CORRUPTION') throw new StoreDamagedError(dataDir, `LevelDB cannot open it (${String((error as Error).cause ?? error)})`, { cause: error });
      throw error;
    }
    return new LevelStore(db, dataDir);
  }

  private damaged(problem: string, cause?: unknown): StoreDamagedError {
    return new StoreDamagedError(this.dataDir, problem, cause === undefined ? undefined : { cause });
  }

  private unseal(key: string, stored: Uint8Array): Uint8Array {
    const payload = unsealValue(key, stored);
    if (payload === undefined) throw this.damaged(`the value stored under key ${JSON.stringify(key)} fails its checksum`);
    // LevelDB hands out Buffers; callers get plain Uint8Array views of the same bytes.
    return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  }

  private rethrow(error: unknown, key: string): never {
    if (levelCode(error) === 'LEVEL_CORRUPTION') throw this.damaged(`LevelDB reports corruption reading key ${JSON.stringify(key)}`, error);
    throw error;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    let stored: Uint8Array | undefined;
    try {
      stored = await this.db.get(key);
    } catch (error) {
      this.rethrow(error, key);
    }
    return stored === undefined ? undefined : this.unseal(key, stored);
  }

  /** Synchronous read (LevelDB's block cache makes this cheap); for the few reads that cannot be async. */
  getSync(key: string): Uint8Array | undefined {
    let stored: Uint8Array | undefined;
    try {
      stored = this.db.getSync(key);
    } catch (error) {
      this.rethrow(error, key);
    }
    return stored === undefined ? undefined : this.unseal(key, stored);
  }

  /** Every [key, payload] whose key starts with prefix, in key order. Keys are ASCII. */
  async *entries(prefix: string): AsyncGenerator<[string, Uint8Array]> {
    try {
      for await (const [key, stored] of this.db.iterator({ gte: prefix, lt: `${prefix}\xff` })) {
        yield [key, this.unseal(key, stored)];
      }
    } catch (error) {
      this.rethrow(error, `${prefix}*`);
    }
  }

  /** Is there any key at all? */
  async isEmpty(): Promise<boolean> {
    for await (const _key of this.db.keys({ limit: 1 })) return false;
    return true;
  }

  /**
   * Apply all writes atomically and durably: one LevelDB batch with sync (fsync of the log before
   * it resolves). After a crash, either every write of the batch is there or none is.
   */
  async write(writes: readonly StoreWrite[]): Promise<void> {
    await this.db.batch(
      writes.map((w) => (w.type === 'put' ? { type: 'put' as const, key: w.key, value: sealValue(w.key, w.value) } : w)),
      { sync: true },
    );
  }

  /**
   * Writes stored bytes as given, without a checksum. For tests that simulate damage and for
   * repair tools; never used by the chain.
   */
  async writeRawUnsafe(writes: readonly StoreWrite[]): Promise<void> {
    await this.db.batch(writes.map((w) => ({ ...w })), { sync: true });
  }

  /** Stored bytes (checksum included) of a key, unverified: tests and tools only. */
  async getRawUnsafe(key: string): Promise<Uint8Array | undefined> {
    return this.db.get(key);
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}
