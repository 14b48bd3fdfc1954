import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { genesisBlock } from '../chain/index.js';
import { GENESIS_FILE, GENESIS_FORMAT, GENESIS_FORMAT_TIMED, genesisConfig, keptNetworkGenesis, networkGenesis, readNetworkGenesis, writeNetworkGenesis } from './NetworkGenesis.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);

let dir = '';
let file = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'network-genesis-'));
  file = join(dir, GENESIS_FILE);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Reading `text` as the genesis file fails with an error naming the file and `reason`. */
function refused(text: string, reason: RegExp): void {
  writeFileSync(file, text);
  expect(() => readNetworkGenesis(file)).toThrow(new RegExp(`^${escape(file)} is not a network genesis: `));
  expect(() => readNetworkGenesis(file)).toThrow(reason);
}

const doc = (over: Record<string, unknown>): string => JSON.stringify({ format: GENESIS_FORMAT, chain_id: '7', members: [A, B], ...over });

describe('network genesis file', () => {
  it('writes and reads back the same genesis, members sorted', () => {
    const genesis = networkGenesis(7n, [C, A, B]);
    expect(genesis).toEqual({ chainId: 7n, members: [A, B, C] });
    writeNetworkGenesis(file, genesis);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ format: GENESIS_FORMAT, chain_id: '7', members: [A, B, C] });
    expect(readNetworkGenesis(file)).toEqual(genesis);
  });

  it('sorts members written by hand in any order', () => {
    writeFileSync(file, doc({ members: [C, A], chain_id: '18446744073709551615' }));
    expect(readNetworkGenesis(file)).toEqual({ chainId: 0xffff_ffff_ffff_ffffn, members: [A, C] });
  });

  it('refuses a missing file, naming it', () => {
    expect(() => readNetworkGenesis(file)).toThrow(new RegExp(`^${escape(file)} is not a network genesis: no such file$`));
  });

  it('refuses text that is not JSON, or JSON that is not an object', () => {
    refused('{"format": ', /not JSON \(/);
    refused('[]', /not a JSON object/);
  });

  it('refuses another format', () => {
    refused(doc({ format: 'chainrpc-genesis/3' }), new RegExp(`format must be "${escape(GENESIS_FORMAT_TIMED)}" \\(or "${escape(GENESIS_FORMAT)}", without a block time\\)`));
    refused(JSON.stringify({ chain_id: '7', members: [A] }), /format must be/);
  });

  it('refuses a chain_id that is not a decimal string of a u64', () => {
    for (const chainId of [7, '07', '-1', '1.0', '', '18446744073709551616']) refused(doc({ chain_id: chainId }), /chain_id must be a decimal string of a u64/);
  });

  it('refuses a member that is not a node id', () => {
    refused(doc({ members: [A, A.toUpperCase()] }), /member "A{64}" is not a node id \(64 lower-case hex characters\)/);
    refused(doc({ members: [A, 'b'.repeat(63)] }), /is not a node id/);
    refused(doc({ members: [A, 5] }), /members must be an array of node ids/);
    refused(doc({ members: A }), /members must be an array of node ids/);
  });

  it('refuses a member listed twice', () => {
    refused(doc({ members: [A, B, A] }), new RegExp(`member ${A} is listed twice`));
  });

  it('refuses a field it does not know (a misspelt one would be silently ignored)', () => {
    refused(doc({ member: [A] }), /unknown field "member"/);
  });

  it('writes the block time when it has one (format 2), reads it back, and finds a data dir\'s own', () => {
    const genesis = networkGenesis(7n, [B, A], 250);
    expect(genesis).toEqual({ chainId: 7n, members: [A, B], blockTimeMs: 250 });
    writeNetworkGenesis(file, genesis);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ format: GENESIS_FORMAT_TIMED, chain_id: '7', block_time_ms: 250, members: [A, B] });
    expect(readNetworkGenesis(file)).toEqual(genesis);
    expect(keptNetworkGenesis(dir)).toEqual(genesis);
    expect(keptNetworkGenesis(join(dir, 'elsewhere'))).toBeUndefined();
  });

  it('refuses a block time that is missing, not a whole number of ms, or too short, and one in a format-1 file', () => {
    const timed = (over: Record<string, unknown>): string => doc({ format: GENESIS_FORMAT_TIMED, block_time_ms: 1000, ...over });
    for (const t of [undefined, '1000', 10.5, 9, -1, 0]) refused(timed({ block_time_ms: t }), /block_time_ms must be a whole number of ms, at least 10/);
    refused(doc({ block_time_ms: 1000 }), /unknown field "block_time_ms" \(the fields of chainrpc-genesis\/1 are format, chain_id, members\)/);
    expect(() => networkGenesis(1n, [A], 5)).toThrow(/at least 10; got 5/);
  });

  it('refuses a network of no members', () => {
    refused(doc({ members: [] }), /a network needs at least one member/);
  });
});

describe('genesisConfig', () => {
  it('commits the genesis hash to the member set, not to its order', () => {
    const hashOf = (chainId: bigint, members: string[]): string => genesisBlock(genesisConfig(networkGenesis(chainId, members))).hash;
    const ab = hashOf(1n, [A, B]);
    expect(hashOf(1n, [B, A])).toBe(ab);
    expect(hashOf(1n, [A, C])).not.toBe(ab);
    expect(hashOf(1n, [A, B, C])).not.toBe(ab);
    expect(hashOf(1n, [A])).not.toBe(ab);
    expect(hashOf(2n, [A, B])).not.toBe(ab);
    // Even unsorted by hand, the order does not count.
    expect(genesisBlock(genesisConfig({ chainId: 1n, members: [B, A] })).hash).toBe(ab);
  });

  it('lists each member with score 0 in the genesis snapshot', () => {
    expect(genesisBlock(genesisConfig(networkGenesis(1n, [B, A]))).pou).toEqual({ [A]: 0n, [B]: 0n });
  });
});
