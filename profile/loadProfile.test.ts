import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../core/paths.js';
import { loadProfile, loadProfileSource, profileFromJson, ProfileError } from './loadProfile.js';
import { GENESIS_ANY, GENESIS_ZEROS, integersOf } from './Profile.js';
import type { Profile } from './Profile.js';
import { referenceProfile } from './referenceProfile.js';

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-profile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('loadProfile', () => {
  it('is the reference profile without a file', async () => {
    const p = await loadProfile(undefined);
    expect(p).toMatchObject({ name: 'reference', methodPrefix: 'chain_', faucet: true });
    expect(p.errorCodes.NonceGap).toBe(-32006);
  });

  it('overrides only what the file names', async () => {
    const p = await loadProfile(write('p.json', JSON.stringify({ name: 'acme', methodPrefix: 'acme_', fields: { balance: 'Balance' }, http: { notification: 200 }, errorCodes: { NonceGap: -32050 }, chainId: '7', faucet: false })));
    expect(p).toMatchObject({ name: 'acme', methodPrefix: 'acme_', fields: { balance: 'Balance' }, chainId: 7n, faucet: false, rpcPath: '/rpc', genesisHeight: 0, hexCase: 'lower' });
    expect(p.http).toEqual({ notification: 200, error: 200, errorByCode: {}, wrongMethod: 405, wrongContentType: 415, bodyTooLarge: 413 });
    expect(p.errorCodes.NonceGap).toBe(-32050);
    expect(p.errorCodes.NonceTooLow).toBe(-32005);
  });

  it("leaves the node's own settings unknown unless named (limits, faucet limit), also when named null", async () => {
    const unnamed = await loadProfile(write('no-limits.json', JSON.stringify({ name: 'other' })));
    expect([unnamed.maxBatch, unnamed.maxBodyBytes, unnamed.faucetLimit]).toEqual([undefined, undefined, undefined]);
    const nulls = await loadProfile(write('null-limits.json', JSON.stringify({ maxBatch: null, maxBodyBytes: null, faucetLimit: null })));
    expect([nulls.maxBatch, nulls.maxBodyBytes, nulls.faucetLimit]).toEqual([undefined, undefined, undefined]);
    const named = await loadProfile(write('limits.json', JSON.stringify({ maxBatch: 50, maxBodyBytes: 65536, faucetLimit: 3 })));
    expect([named.maxBatch, named.maxBodyBytes, named.faucetLimit]).toEqual([50, 65536, 3]);
  });

  it('reads every choice a real node makes', async () => {
    const p = await loadProfile(
      write(
        'foreign.json',
        JSON.stringify({
          $comment: 'annotations starting with $ are not read',
          $detect: { findings: {} },
          rpcPath: '/',
          keyCase: 'camelCase',
          fields: { transaction_count: 'txCount', parent_hash: null },
          http: { error: 400, errorByCode: { '-32601': 404 } },
          errorCodes: { 'InvalidParams/tx-hex': -32002, AccountNotFound: -32040, TxDuplicate: null },
          errorData: 'string',
          params: { extra: 'accepted', byName: 'accepted', hexPrefix: 'accepted', stringIntegers: 'accepted' },
          health: { status: ['healthy'], mode: ['validator', 'full'] },
          genesisHeight: 1,
          genesisZeros: false,
          hexCase: 'upper',
          timestamps: 'iso8601',
          integers: 'hex',
          identifiers: 'string',
          scores: 'number',
          unknownHeight: 'null',
          unknownAccount: 'error',
          txResult: 'object',
          faucetCredit: 'direct',
          nonceGap: 'held',
          sequentialNonces: 'refused',
          droppedLater: ['InsufficientBalance'],
          fee: '1000000000000000000',
        }),
      ),
    );
    expect(p).toMatchObject({
      rpcPath: '/',
      keyCase: 'camelCase',
      fields: { transaction_count: 'txCount', parent_hash: null },
      http: { error: 400, errorByCode: { '-32601': 404 } },
      errorData: 'string',
      params: { extra: 'accepted', byName: 'accepted', hexPrefix: 'accepted', stringIntegers: 'accepted' },
      health: { status: ['healthy'], mode: ['validator', 'full'] },
      genesisHeight: 1,
      genesisBlock: GENESIS_ANY,
      hexCase: 'upper',
      timestamps: 'iso8601',
      integers: 'hex',
      methodIntegers: {},
      identifiers: 'string',
      scores: 'number',
      unknownHeight: 'null',
      unknownAccount: 'error',
      txResult: 'object',
      faucetCredit: 'direct',
      nonceGap: 'held',
      sequentialNonces: 'refused',
      droppedLater: ['InsufficientBalance'],
      fee: 10n ** 18n,
    });
    expect(p.errorCodes).toMatchObject({ 'InvalidParams/tx-hex': -32002, AccountNotFound: -32040, TxDuplicate: null, InvalidParams: -32602 });
  });

  it('reads a file written before genesisBlock and methodIntegers (genesisZeros only) as it always meant', async () => {
    const without = (p: Profile): Omit<Profile, 'name' | 'source' | 'codec'> => {
      const { name: _n, source: _s, codec: _c, ...rest } = p;
      return rest;
    };
    const named = async (content: Record<string, unknown>): Promise<Profile> => loadProfile(write(`old${Math.random()}.json`, JSON.stringify({ maxBatch: 1000, maxBodyBytes: 1048576, faucetLimit: 1, ...content })));
    // true: the reference profile, every key; false: the genesis block's fields are not compared beyond their type.
    expect(without(await named({ genesisZeros: true }))).toEqual(without(referenceProfile()));
    const off = await named({ genesisZeros: false, integers: 'hex' });
    expect(without(off)).toEqual(without({ ...referenceProfile(), genesisBlock: { ...GENESIS_ANY }, integers: 'hex' }));
    expect(off.genesisBlock).toEqual({ parent_hash: 'any', proposer: 'any', timestamp: 'any' });
    // No per-method encodings: every method writes the one `integers` names.
    expect(['chain_blockNumber', 'chain_getBlockByHeight', 'net_peerCount'].map((m) => integersOf(off, m))).toEqual(['hex', 'hex', 'hex']);
    expect((await named({})).genesisBlock).toEqual(GENESIS_ZEROS);
  });

  it('reads genesisBlock over genesisZeros (or over the reference), and methodIntegers over integers', async () => {
    const over = await loadProfile(write('genesis-over.json', JSON.stringify({ genesisZeros: false, genesisBlock: { parent_hash: 'empty' } })));
    expect(over.genesisBlock).toEqual({ parent_hash: 'empty', proposer: 'any', timestamp: 'any' });
    const alone = await loadProfile(write('genesis-alone.json', JSON.stringify({ genesisBlock: { proposer: 'absent', timestamp: 'null' } })));
    expect(alone.genesisBlock).toEqual({ parent_hash: 'zeros', proposer: 'absent', timestamp: 'null' });
    const mixed = await loadProfile(write('integers.json', JSON.stringify({ integers: 'number', methodIntegers: { net_peerCount: 'hex' } })));
    expect(mixed.methodIntegers).toEqual({ net_peerCount: 'hex' });
    expect([integersOf(mixed, 'net_peerCount'), integersOf(mixed, 'chain_blockNumber')]).toEqual(['hex', 'number']);
  });

  it('loads a codec module named relative to the profile file', async () => {
    const codecUrl = pathToFileURL(join(packageRoot, 'profile/referenceCodec.ts')).href;
    write('codec.mjs', `import { referenceCodec } from '${codecUrl}';\nexport default { ...referenceCodec, name: 'wrapped' };\n`);
    const p = await loadProfile(write('with-codec.json', JSON.stringify({ codec: './codec.mjs' })));
    expect(p.codec.name).toBe('wrapped');
    expect(p.codec.newKey().address).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses unknown keys, bad values and broken codec modules, saying what is wrong', async () => {
    const bad = async (content: unknown): Promise<string> => {
      const err = await loadProfile(write(`bad${Math.random()}.json`, JSON.stringify(content))).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProfileError);
      return (err as Error).message;
    };
    expect(await bad({ methodPrefx: 'x_' })).toMatch(/unknown key\(s\) methodPrefx/);
    expect(await bad({ fields: { balanse: 'b' } })).toMatch(/fields\.balanse is not a result field/);
    expect(await bad({ errorCodes: { 'InvalidParams/tx-hexx': 1 } })).toMatch(/no such condition/);
    expect(await bad({ genesisHeight: -1 })).toMatch(/genesisHeight must be a whole number, 0 or more/);
    expect(await bad({ genesisHeight: 1.5 })).toMatch(/genesisHeight must be a whole number/);
    expect(await bad({ droppedLater: ['TxMalformed'] })).toMatch(/droppedLater must be an array of error names from/);
    expect(await bad({ txResult: 'object', fields: { transaction_hash: null } })).toMatch(/txResult "object" needs the transaction_hash field/);
    expect(await bad({ integers: 'decimal' })).toMatch(/integers must be "number" or "hex"/);
    expect(await bad({ methodIntegers: { net_peercount: 'hex' } })).toMatch(/methodIntegers\.net_peercount is not a method of the interface/);
    expect(await bad({ methodIntegers: { 'rpc.discover': 'hex' } })).toMatch(/methodIntegers\.rpc\.discover is not a method/);
    expect(await bad({ methodIntegers: { net_peerCount: 'decimal' } })).toMatch(/methodIntegers\.net_peerCount must be "number" or "hex"/);
    expect(await bad({ methodIntegers: 'hex' })).toMatch(/methodIntegers must be an object/);
    expect(await bad({ genesisZeros: 'yes' })).toMatch(/genesisZeros must be true or false/);
    expect(await bad({ genesisBlock: { parentHash: 'empty' } })).toMatch(/genesisBlock: unknown key\(s\) parentHash/);
    expect(await bad({ genesisBlock: { parent_hash: 'zero' } })).toMatch(/genesisBlock\.parent_hash must be "zeros" or "any" or "empty" or "null" or "absent"/);
    expect(await bad({ genesisBlock: { timestamp: 'empty' } })).toMatch(/genesisBlock\.timestamp must be "zero" or "any" or "null" or "absent"/);
    expect(await bad({ params: { extra: 'ignored' } })).toMatch(/params\.extra must be "refused" or "accepted"/);
    expect(await bad({ http: { errorByCode: { x: 400 } } })).toMatch(/not an error code/);
    expect(await bad({ rpcPath: 'rpc' })).toMatch(/rpcPath must be a path/);
    expect(await bad({ health: { status: [] } })).toMatch(/health\.status must be a non-empty array/);
    expect(await bad({ http: { notification: 42 } })).toMatch(/HTTP status/);
    expect(await bad({ errorCodes: { NoSuchError: 1 } })).toMatch(/not an error of the profile/);
    expect(await bad({ privateKey: 'abc' })).toMatch(/64 hex/);
    expect(await bad({ blockTimeMs: 0 })).toMatch(/positive integer/);
    write('broken.mjs', 'export default { name: "x" };\n');
    expect(await bad({ codec: './broken.mjs' })).toMatch(/must export default/);
    const notJson = await loadProfile(write('nope.json', '{')).catch((e: unknown) => e);
    expect(notJson).toBeInstanceOf(ProfileError);
  });
});

describe('loadProfile: the choices the spec leaves open that an outside tester found no key for', () => {
  it('genesisHeight is read exactly, beyond 2^53: a JSON integer or a decimal string (heights are u64)', async () => {
    const exact = async (text: string): Promise<bigint> => (await loadProfile(write(`g${Math.random()}.json`, text))).genesisHeightExact;
    expect(await exact('{"genesisHeight": 1152921504606846983}')).toBe(1152921504606846983n);
    expect(await exact('{"genesisHeight": "1152921504606846983"}')).toBe(1152921504606846983n);
    expect(await exact('{"genesisHeight": 9007199254740993}')).toBe(9007199254740993n);
    expect(await exact('{"genesisHeight": "18446744073709551615"}')).toBe(18446744073709551615n);
    expect(await exact('{"genesisHeight": 5}')).toBe(5n);
    const p = await loadProfile(write('g5.json', '{"genesisHeight": "5"}'));
    expect([p.genesisHeightExact, p.genesisHeight]).toEqual([5n, 5]);
    const refused = async (text: string): Promise<string> => ((await loadProfile(write(`g${Math.random()}.json`, text)).catch((e: unknown) => e)) as Error).message;
    expect(await refused('{"genesisHeight": "18446744073709551616"}')).toMatch(/genesisHeight must be a whole number, 0 or more .*at most 2\^64-1/);
    expect(await refused('{"genesisHeight": "01"}')).toMatch(/genesisHeight must be/);
    expect(await refused('{"genesisHeight": "-1"}')).toMatch(/genesisHeight must be/);
    // A number already rounded by whoever parsed it (JSON.parse) is refused, saying how to write it.
    await expect(profileFromJson({ genesisHeight: Number('1152921504606846983') }, 'rounded.json')).rejects.toThrow(/got 1152921504606847000, a number above 2\^53 that was rounded .*write it as a decimal string/);
  });

  it('hashPrefix, faucetResult and peerCountResult: each legal value, the reference by default, and a refusal naming the choices', async () => {
    const p = await profileFromJson({ hashPrefix: '0x', faucetResult: 'hash', peerCountResult: 'object' }, 'forms.json');
    expect([p.hashPrefix, p.faucetResult, p.peerCountResult]).toEqual(['0x', 'hash', 'object']);
    expect([referenceProfile().hashPrefix, referenceProfile().faucetResult, referenceProfile().peerCountResult]).toEqual(['none', 'object', 'integer']);
    expect((await profileFromJson({ hashPrefix: 'any' }, 'any.json')).hashPrefix).toBe('any');
    await expect(profileFromJson({ hashPrefix: '0X' }, 'bad.json')).rejects.toThrow(/hashPrefix must be "none" or "0x" or "any"/);
    await expect(profileFromJson({ faucetResult: 'string' }, 'bad.json')).rejects.toThrow(/faucetResult must be "object" or "hash"/);
    expect((await profileFromJson({ peerCountResult: 'decimal' }, 'decimal.json')).peerCountResult).toBe('decimal');
    await expect(profileFromJson({ peerCountResult: 'number' }, 'bad.json')).rejects.toThrow(/peerCountResult must be "integer" or "decimal" or "object"; got "number"/);
    await expect(profileFromJson({ peerCountResult: 'object', fields: { count: null } }, 'bad.json')).rejects.toThrow(/peerCountResult "object" needs the count field/);
    expect((await profileFromJson({ peerCountResult: 'object', fields: { count: 'peers' } }, 'renamed.json')).fields.count).toBe('peers');
  });
});

describe('loadProfileSource (what a load thread is given)', () => {
  it('reads a file, a profile held as JSON (detected, no file), or none (the reference profile)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'chainrpc-profile-source-'));
    try {
      const file = join(folder, 'p.json');
      writeFileSync(file, '{"maxBatch": 8}');
      expect((await loadProfileSource(file)).maxBatch).toBe(8);
      expect((await loadProfileSource({ json: { maxBatch: 9, rpcPath: '/' }, name: 'the detected profile' })).maxBatch).toBe(9);
      expect((await loadProfileSource(null)).maxBatch).toBe(referenceProfile().maxBatch);
      await expect(loadProfileSource({ json: { maxBatchh: 9 }, name: 'the detected profile' })).rejects.toThrow(/the detected profile/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
