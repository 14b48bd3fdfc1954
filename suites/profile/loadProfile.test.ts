import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../core/paths.js';
import { loadProfile, ProfileError } from './loadProfile.js';

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
      fee: 10n ** 18n,
    });
    expect(p.errorCodes).toMatchObject({ 'InvalidParams/tx-hex': -32002, AccountNotFound: -32040, TxDuplicate: null, InvalidParams: -32602 });
  });

  it('loads a codec module named relative to the profile file', async () => {
    const codecUrl = pathToFileURL(join(packageRoot, 'suites/profile/referenceCodec.ts')).href;
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
    expect(await bad({ genesisHeight: 2 })).toMatch(/genesisHeight must be 0 or 1/);
    expect(await bad({ droppedLater: ['TxMalformed'] })).toMatch(/droppedLater must be an array of error names from/);
    expect(await bad({ txResult: 'object', fields: { transaction_hash: null } })).toMatch(/txResult "object" needs the transaction_hash field/);
    expect(await bad({ integers: 'decimal' })).toMatch(/integers must be "number" or "hex"/);
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
