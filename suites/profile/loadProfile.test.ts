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
    expect(p).toMatchObject({ name: 'acme', methodPrefix: 'acme_', fields: { balance: 'Balance' }, chainId: 7n, faucet: false });
    expect(p.http).toEqual({ notification: 200, wrongMethod: 405, wrongContentType: 415, bodyTooLarge: 413 });
    expect(p.errorCodes.NonceGap).toBe(-32050);
    expect(p.errorCodes.NonceTooLow).toBe(-32005);
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
