/**
 * A profile's exact choices as JSON Schema: per-method integer encodings (methodIntegers) beside the
 * profile's one `integers`, and the genesis block's own forms (genesisBlock); and a profile written
 * before either (genesisZeros only) gets the very schemas it always got.
 */
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../core/json/index.js';
import { schemaCatalog } from '../core/schema/schemaCatalog.js';
import { profileFromJson } from './loadProfile.js';
import type { Profile } from './Profile.js';
import { GENESIS_SCHEMA_REF, profileDocuments, profileValidators } from './profileSchemas.js';

const load = (content: Record<string, unknown>): Promise<Profile> => profileFromJson(content, 'test.json');

const HASH = 'ab'.repeat(32);
const ZEROS = '0'.repeat(64);
/** A block as the reference profile writes it, with some fields changed. */
const block = (changes: Record<string, JsonValue> = {}): Record<string, JsonValue> => ({
  height: 5,
  hash: HASH,
  parent_hash: HASH,
  timestamp: 1_795_262_400_000,
  proposer: HASH,
  transaction_count: 1,
  transactions: [HASH],
  ...changes,
});
const genesis = (changes: Record<string, JsonValue> = {}): Record<string, JsonValue> => block({ height: 0, parent_hash: ZEROS, proposer: ZEROS, timestamp: 0, transaction_count: 0, transactions: [], ...changes });

const ok = (p: Profile, method: string, result: JsonValue): boolean => profileValidators(p).result(method, result, 'profile').ok;
const genesisOk = (p: Profile, value: JsonValue): boolean => profileValidators(p).validate(GENESIS_SCHEMA_REF, value).ok;

/** Each method's result definition in a profile's documents, by method. */
function results(p: Profile): Record<string, JsonValue | undefined> {
  return Object.fromEntries(profileDocuments(p).flatMap((d) => (d.$id.includes('/methods/') && d.title !== undefined && typeof d.definitions === 'object' && d.definitions !== null && !Array.isArray(d.definitions) ? [[d.title, d.definitions.result]] : [])));
}

describe('a profile written before genesisBlock and methodIntegers', () => {
  it('gets the result schemas of schemas/ unchanged (genesisZeros true or false, either integers)', async () => {
    const catalog = Object.fromEntries(schemaCatalog().methods.map((m) => [m.title, m.definitions.result as unknown as JsonValue]));
    for (const content of [{}, { genesisZeros: true }, { genesisZeros: false }, { genesisZeros: false, integers: 'hex' }]) {
      expect(results(await load(content)), JSON.stringify(content)).toEqual(catalog);
    }
  });

  it('judges the genesis block as before: genesisZeros true or false, its fields are hashes and a timestamp of the profile', async () => {
    for (const p of [await load({ genesisZeros: true }), await load({ genesisZeros: false })]) {
      expect(genesisOk(p, genesis())).toBe(true);
      expect(genesisOk(p, genesis({ parent_hash: HASH, timestamp: 12 }))).toBe(true);
      // An empty parent_hash (the user's node) was never a hash, with either value.
      expect(genesisOk(p, genesis({ parent_hash: '' }))).toBe(false);
      expect(genesisOk(p, genesis({ proposer: null }))).toBe(false);
    }
  });
});

describe('methodIntegers', () => {
  it('one method writes hex quantities while the profile writes numbers', async () => {
    const p = await load({ methodIntegers: { net_peerCount: 'hex' } });
    expect([ok(p, 'net_peerCount', '0x3'), ok(p, 'net_peerCount', 3)]).toEqual([true, false]);
    expect([ok(p, 'chain_blockNumber', 3), ok(p, 'chain_blockNumber', '0x3')]).toEqual([true, false]);
    expect(ok(p, 'chain_getBlockByHeight', block())).toBe(true);
  });

  it('one method writes numbers while the profile writes hex quantities', async () => {
    const p = await load({ integers: 'hex', methodIntegers: { net_peerCount: 'number' } });
    expect([ok(p, 'net_peerCount', 3), ok(p, 'net_peerCount', '0x3')]).toEqual([true, false]);
    expect([ok(p, 'chain_blockNumber', '0x3'), ok(p, 'chain_blockNumber', 3)]).toEqual([true, false]);
  });

  it("reaches the integers inside shared definitions (a block's height, count and timestamp), keeping the profile's other choices", async () => {
    const p = await load({ keyCase: 'camelCase', hexCase: 'upper', methodIntegers: { chain_getBlockByHeight: 'hex', chain_pouPeers: 'hex' } });
    const upper = HASH.toUpperCase();
    const hexBlock = { height: '0x5', hash: upper, parentHash: upper, timestamp: '0x1a1f3b6c000', proposer: upper, transactionCount: '0x1', transactions: [upper] };
    expect(ok(p, 'chain_getBlockByHeight', hexBlock)).toBe(true);
    expect(ok(p, 'chain_getBlockByHeight', { ...hexBlock, height: 5 })).toBe(false);
    expect(ok(p, 'chain_getBlockByHeight', { ...hexBlock, hash: HASH })).toBe(false);
    const { parentHash: _p, ...snakeParent } = hexBlock;
    expect(ok(p, 'chain_getBlockByHeight', { ...snakeParent, parent_hash: upper })).toBe(false);
    expect(ok(p, 'chain_pouPeers', { peers: { [upper]: '0x7' } })).toBe(true);
    expect(ok(p, 'chain_pouPeers', { peers: { [upper]: 7 } })).toBe(false);
    // The account is not overridden: its nonce stays a number.
    expect(ok(p, 'chain_getAccount', { balance: '1', nonce: 2 })).toBe(true);
  });

  it('profiles that differ only in methodIntegers get their own validators', async () => {
    const a = await load({});
    const b = await load({ methodIntegers: { chain_blockNumber: 'hex' } });
    expect([ok(a, 'chain_blockNumber', '0x1'), ok(b, 'chain_blockNumber', '0x1')]).toEqual([false, true]);
  });
});

describe('genesisBlock', () => {
  it('an empty parent_hash at genesis only; every other block keeps its hash', async () => {
    const p = await load({ genesisBlock: { parent_hash: 'empty' } });
    expect(genesisOk(p, genesis({ parent_hash: '' }))).toBe(true);
    expect(genesisOk(p, genesis())).toBe(false);
    expect(ok(p, 'chain_getBlockByHeight', block({ parent_hash: '' }))).toBe(false);
  });

  it('null, absent, and a timestamp of any value, in the profile\'s key names and integers', async () => {
    const p = await load({ keyCase: 'camelCase', methodIntegers: { chain_getBlockByHeight: 'hex' }, genesisBlock: { parent_hash: 'null', proposer: 'absent', timestamp: 'any' } });
    const hexGenesis = { height: '0x0', hash: HASH, parentHash: null, timestamp: '0x1a1f3b6c000', transactionCount: '0x0', transactions: [] };
    expect(genesisOk(p, hexGenesis)).toBe(true);
    expect(genesisOk(p, { ...hexGenesis, parentHash: ZEROS })).toBe(false);
    expect(genesisOk(p, { ...hexGenesis, height: 0 })).toBe(false);
    // "absent" drops the key from what is required; that the key is really absent is the genesis check's to judge.
    expect(genesisOk(p, { ...hexGenesis, proposer: ZEROS })).toBe(true);
  });

  it('a field the profile says the node has not at all is left alone', async () => {
    const p = await load({ fields: { parent_hash: null }, genesisBlock: { parent_hash: 'empty' } });
    const { parent_hash: _p, ...noParent } = genesis();
    expect(genesisOk(p, noParent)).toBe(true);
  });
});

describe('hashPrefix, faucetResult and peerCountResult in the derived schemas', () => {
  it('hashPrefix "0x": every hash (block hash, parent_hash, transactions, the transaction and faucet hashes) carries 0x; identifiers do not', async () => {
    const p = await load({ hashPrefix: '0x' });
    const x = `0x${HASH}`;
    expect(ok(p, 'chain_getBlockByHeight', block({ hash: x, parent_hash: x, transactions: [x] }))).toBe(true);
    expect(ok(p, 'chain_getBlockByHeight', block())).toBe(false);
    expect(ok(p, 'chain_getBlockByHeight', block({ hash: x, parent_hash: x, transactions: [x], proposer: x }))).toBe(false);
    expect([ok(p, 'chain_sendRawTransaction', x), ok(p, 'chain_sendRawTransaction', HASH)]).toEqual([true, false]);
    expect(ok(p, 'chain_faucetClaim', { transaction_hash: x, amount: '10' })).toBe(true);
    expect(genesisOk(p, genesis({ hash: x, parent_hash: `0x${ZEROS}` }))).toBe(true);
    const problems = profileValidators(p).result('chain_sendRawTransaction', HASH, 'profile');
    expect(problems.ok ? '' : problems.problems.map((q) => q.message).join()).toMatch(/must be 0x followed by 64 lower-case hexadecimal characters/);
    // With upper-case hex, and either way ('any').
    expect(ok(await load({ hashPrefix: '0x', hexCase: 'upper' }), 'chain_sendRawTransaction', `0x${HASH.toUpperCase()}`)).toBe(true);
    const either = await load({ hashPrefix: 'any' });
    expect([ok(either, 'chain_sendRawTransaction', x), ok(either, 'chain_sendRawTransaction', HASH)]).toEqual([true, true]);
    // The reference: no prefix.
    expect(ok(await load({}), 'chain_sendRawTransaction', x)).toBe(false);
  });

  it('faucetResult "hash": the claim is answered with the hash itself', async () => {
    const p = await load({ faucetResult: 'hash' });
    expect([ok(p, 'chain_faucetClaim', HASH), ok(p, 'chain_faucetClaim', { transaction_hash: HASH, amount: '10' })]).toEqual([true, false]);
    expect(ok(await load({ faucetResult: 'hash', hashPrefix: '0x' }), 'chain_faucetClaim', `0x${HASH}`)).toBe(true);
    expect(ok(await load({}), 'chain_faucetClaim', HASH)).toBe(false);
  });

  it('peerCountResult "object": an object whose count member (fields.count) holds the count, in the method\'s integers', async () => {
    const p = await load({ peerCountResult: 'object' });
    expect([ok(p, 'net_peerCount', { count: 3, max: 50 }), ok(p, 'net_peerCount', 3), ok(p, 'net_peerCount', { max: 50 }), ok(p, 'net_peerCount', { count: '0x3' })]).toEqual([true, false, false, false]);
    const hex = await load({ peerCountResult: 'object', integers: 'hex' });
    expect([ok(hex, 'net_peerCount', { count: '0x0', max: '0x32' }), ok(hex, 'net_peerCount', { count: 0 })]).toEqual([true, false]);
    expect(ok(await load({ peerCountResult: 'object', methodIntegers: { net_peerCount: 'hex' } }), 'net_peerCount', { count: '0x3' })).toBe(true);
    expect(ok(await load({ peerCountResult: 'object', fields: { count: 'peers' } }), 'net_peerCount', { peers: 2 })).toBe(true);
  });

  it('peerCountResult "decimal": the count as a decimal string of a u64, "0" or no leading zeros, whatever the integers', async () => {
    const p = await load({ peerCountResult: 'decimal' });
    const u64Max = ((1n << 64n) - 1n).toString();
    for (const good of ['0', '2', '50', '9999999999999999999', '10000000000000000000', '18446744073709551599', u64Max]) expect([good, ok(p, 'net_peerCount', good)]).toEqual([good, true]);
    for (const bad of [2, '', '02', '00', '-1', '+2', '2.0', ' 2', '0x2', '18446744073709551616', '18446744073709551620', '19000000000000000000', '99999999999999999999', '100000000000000000000', { count: '2' }]) {
      expect([bad, ok(p, 'net_peerCount', bad)]).toEqual([bad, false]);
    }
    // methodIntegers and integers say how integers are written; a decimal string is no integer of theirs.
    expect(ok(await load({ peerCountResult: 'decimal', integers: 'hex', methodIntegers: { net_peerCount: 'number' } }), 'net_peerCount', '3')).toBe(true);
    const problems = profileValidators(p).result('net_peerCount', 2, 'profile');
    expect(problems.ok ? '' : problems.problems.map((q) => q.message).join()).toMatch(/must be .*string/);
    const shown = profileValidators(p).result('net_peerCount', '02', 'profile');
    expect(shown.ok ? '' : shown.problems.map((q) => q.message).join()).toMatch(/must be the peer count as a decimal string of an unsigned 64-bit integer \("2": "0" or no leading zeros/);
    // The reference: the count itself, a JSON number.
    expect([ok(await load({}), 'net_peerCount', '2'), ok(await load({}), 'net_peerCount', 2)]).toEqual([false, true]);
  });
});
