import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LevelStore } from './LevelStore.js';
import { StoreDamagedError } from './StoreDamagedError.js';
import { StoreLockedError } from './StoreLockedError.js';
import { CHECKSUM_LENGTH, sealValue, unsealValue } from './valueChecksum.js';

const dirs: string[] = [];
const stores: LevelStore[] = [];
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'chainrpc-level-'));
  dirs.push(d);
  return d;
}
async function open(d: string): Promise<LevelStore> {
  const store = await LevelStore.open(d);
  stores.push(store);
  return store;
}

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const bytes = (...xs: number[]): Uint8Array => new Uint8Array(xs);

describe('value checksums', () => {
  it('seal and unseal; any changed byte, another key or a short value fails', () => {
    const sealed = sealValue('a:key', bytes(1, 2, 3));
    expect(sealed.length).toBe(CHECKSUM_LENGTH + 3);
    expect(unsealValue('a:key', sealed)).toEqual(bytes(1, 2, 3));
    expect(unsealValue('a:other', sealed)).toBeUndefined();
    for (let i = 0; i < sealed.length; i++) {
      const copy = sealed.slice();
      copy[i] = (copy[i] ?? 0) ^ 0x10;
      expect(unsealValue('a:key', copy)).toBeUndefined();
    }
    expect(unsealValue('a:key', bytes(1, 2))).toBeUndefined();
    expect(unsealValue('a:key', sealValue('a:key', bytes()))).toEqual(bytes());
  });
});

describe('LevelStore', () => {
  it('writes atomically, reads back (async, sync, by prefix) and verifies checksums', async () => {
    const d = dir();
    const store = await open(d);
    expect(await store.isEmpty()).toBe(true);
    await store.write([
      { type: 'put', key: 'a:1', value: bytes(1) },
      { type: 'put', key: 'a:2', value: bytes(2) },
      { type: 'put', key: 'b:1', value: bytes(3) },
    ]);
    expect(await store.isEmpty()).toBe(false);
    expect(await store.get('a:1')).toEqual(bytes(1));
    expect(store.getSync('b:1')).toEqual(bytes(3));
    expect(await store.get('a:3')).toBeUndefined();
    const entries: [string, Uint8Array][] = [];
    for await (const entry of store.entries('a:')) entries.push(entry);
    expect(entries).toEqual([
      ['a:1', bytes(1)],
      ['a:2', bytes(2)],
    ]);
    await store.write([{ type: 'del', key: 'a:1' }]);
    expect(await store.get('a:1')).toBeUndefined();

    await store.writeRawUnsafe([{ type: 'put', key: 'a:2', value: bytes(9, 9, 9, 9, 9, 9, 9, 9, 9) }]);
    await expect(store.get('a:2')).rejects.toThrow(StoreDamagedError);
    expect(() => store.getSync('a:2')).toThrow(/"a:2" fails its checksum/);
    const iterate = async (): Promise<void> => {
      for await (const _ of store.entries('a:')) void _;
    };
    await expect(iterate()).rejects.toThrow(StoreDamagedError);
  });

  it('a second open of the same directory is refused with a clear message', async () => {
    const d = dir();
    await open(d);
    const error = await LevelStore.open(d).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreLockedError);
    expect((error as Error).message).toContain(d);
    expect((error as Error).message).toMatch(/already in use by another node process/);
  });
});
