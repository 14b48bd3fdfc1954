/**
 * `chainrpc profile detect` (cli/commands/profile.ts), run in-process against a reference node: where
 * the JSON, the table and the progress go, the codec path it writes, and its exit codes.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { profile } from './profile.js';
import { CliError, EXIT } from '../CliError.js';
import { packageRoot } from '../../core/paths.js';
import { loadProfile } from '../../profile/loadProfile.js';
import { startTestNode } from '../../test/support/suites.js';
import type { TestNode } from '../../test/support/suites.js';

let node: TestNode;
let dir: string;

/** Runs the command with stdout and stderr captured. */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void (stdout += `${args.join(' ')}\n`));
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  const code = await profile.run(argv);
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

beforeAll(async () => {
  node = await startTestNode();
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-detect-'));
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  await node.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('chainrpc profile detect', () => {
  it('--out writes the profile; the table, the path and the next step go to stdout, progress to stderr', async () => {
    const out = join(dir, 'sub', 'node.json');
    const r = await run(['detect', '--url', `${node.url}/`, '--out', out, '--no-limits']);
    expect(r.code).toBe(EXIT.ok);
    const loaded = await loadProfile(out);
    expect([loaded.name, loaded.faucetLimit, loaded.maxBatch]).toEqual([`detected ${new URL(node.url).host}`, 1, undefined]);
    expect(r.stdout).toMatch(/^key +value +conf +evidence$/m);
    expect(r.stdout).toMatch(/^rpcPath +"\/rpc" +high +POST \/rpc/m);
    expect(r.stdout).toContain(`profile written to ${out}`);
    expect(r.stdout).toContain(`next: chainrpc test --url ${node.url} --profile ${out} --level profile`);
    expect(r.stderr).toMatch(/^detect: rpcPath: \/rpc/m);
  });

  it('without --out the JSON goes to stdout and the table to stderr', async () => {
    const r = await run(['detect', '--url', node.url, '--no-limits', '--no-transactions', '--no-faucet']);
    expect(r.code).toBe(EXIT.ok);
    const json = JSON.parse(r.stdout) as { name: string; $detect: { findings: Record<string, unknown> } };
    expect(json.name).toBe(`detected ${new URL(node.url).host}`);
    expect(Object.keys(json.$detect.findings)).toContain('rpcPath');
    expect(r.stderr).toMatch(/^key +value +conf +evidence$/m);
  });

  it('--codec names the module in the profile, relative to the profile file', async () => {
    const module = join(dir, 'codecs', 'copy.mjs');
    mkdirSync(join(dir, 'codecs'), { recursive: true });
    writeFileSync(module, `import { referenceCodec } from ${JSON.stringify(join(packageRoot, 'profile/referenceCodec.ts'))};\nexport default { ...referenceCodec, name: 'copy-of-reference' };\n`);
    const out = join(dir, 'profiles', 'with-codec.json');
    const r = await run(['detect', '--url', node.url, '--out', out, '--codec', module, '--no-limits', '--no-faucet']);
    expect(r.code).toBe(EXIT.ok);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { codec: string }).codec).toBe('../codecs/copy.mjs');
    expect((await loadProfile(out)).codec.name).toBe('copy-of-reference');
  });

  it('usage errors exit 2; a URL with no JSON-RPC behind it exits 3, listing what each path answered', async () => {
    const code = async (argv: string[]): Promise<number | undefined> => {
      try {
        await run(argv);
        return undefined;
      } catch (err) {
        return err instanceof CliError ? err.exitCode : undefined;
      }
    };
    expect(await code([])).toBe(EXIT.usage);
    expect(await code(['frob'])).toBe(EXIT.usage);
    expect(await code(['detect'])).toBe(EXIT.usage);
    expect(await code(['detect', '--url', 'ftp://x'])).toBe(EXIT.usage);
    expect(await code(['detect', '--url', node.url, '--deadline', '0'])).toBe(EXIT.usage);
    expect(await code(['detect', '--url', node.url, '--rpc-path', 'rpc'])).toBe(EXIT.usage);
    expect(await code(['detect', '--url', node.url, '--codec', join(dir, 'missing.mjs')])).toBe(EXIT.usage);
    const error = await run(['detect', '--url', node.url, '--rpc-path', '/nothing']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(EXIT.unreachable);
    expect((error as CliError).message).toMatch(/POST \/nothing: HTTP 404/);
  });

  it('detect --help says what it sends and how to avoid it', () => {
    const help = profile.subcommands?.find((s) => 'detect' === s.name)?.help ?? '';
    for (const flag of ['--no-transactions', '--no-faucet', '--no-limits', '--deadline', '--out', '--codec']) expect(help).toContain(flag);
  });

  it('a --url that ends in /rpc is the endpoint\'s own URL (said on stderr); a port nobody listens on asks whether the node runs there, with no word about paths', async () => {
    const r = await run(['detect', '--url', `${node.url}/rpc`, '--no-limits', '--no-transactions', '--no-faucet']);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stderr).toContain(`profile detect: --url ${node.url}/rpc ends in the endpoint path /rpc: using base URL ${node.url}\n`);
    expect((JSON.parse(r.stdout) as { rpcPath: string }).rpcPath).toBe('/rpc');
    const error = await run(['detect', '--url', 'http://127.0.0.1:9/api']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(EXIT.unreachable);
    expect((error as CliError).message).toMatch(/^profile detect: nothing answered at http:\/\/127\.0\.0\.1:9\/api \(REFUSED: .*\): is the node running at http:\/\/127\.0\.0\.1:9\/api\?$/);
  });
});
