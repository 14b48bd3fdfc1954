/**
 * `chainrpc fuzz --replay`, in process, and the profile it judges by: the run's profile file, which report.json
 * names, loaded without --profile (and said on stderr); a usage error (exit 2) when that file is gone; an
 * explicit --profile wins; a report that names another profile without its file gets a warning. The node here
 * answers only at the profile's endpoint path, so a replay under the wrong profile cannot reach it. The
 * whole command over the build is test/cli-fuzz.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { foundCase } from '../../fuzz/run/foundCase.js';
import type { Finding } from '../../fuzz/model.js';
import { fuzz, replayProfile } from './fuzz.js';

let dir: string;
let server: Server;
let url: string;
/** The paths the node was asked at, and the methods called. */
const paths: string[] = [];
const methods: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-fuzz-cli-'));
  server = createServer((req, res) => {
    paths.push(req.url ?? '');
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      methods.push(/"method":"([^"]*)"/.exec(body)?.[1] ?? '');
      if (req.url !== '/custom' && req.url !== '/other') return void res.writeHead(404).end();
      const id = /"id":("[^"]*"|\d+)/.exec(body)?.[1] ?? 'null';
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc":"2.0","id":${id},"result":"0x2a"}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  paths.length = 0;
  methods.length = 0;
  vi.restoreAllMocks();
});

/** A report of one envelope finding on the node, judged by the profile in `profileFile` (named so in options). */
function report(name: string, options: { profile: string; profileFile?: string; rpcPath?: string; methodPrefix?: string }): string {
  const body = '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":"x"}';
  const c = { rule: 'envelope/id-type', family: 'envelope' as const, method: 'chain_blockNumber', seed: 1, index: 3, title: 'an id', risky: false, http: { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(body) } };
  const found = foundCase(c, { status: 200, text: '{"jsonrpc":"2.0","id":null,"result":"0x2a"}', ms: 1 }, `${url}/custom`);
  const finding: Finding = { id: 'F1', signature: 's', oracle: 'envelope', url, method: 'chain_blockNumber', rule: c.rule, message: 'lost the id', source: 'JSON-RPC 2.0 §5', original: found, minimal: found, count: 1, recheck: 'reproduced', atMs: 5 };
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ format: 'chainrpc-fuzz/1', options, findings: [finding] }));
  return path;
}

function profileFile(name: string, rpcPath: string): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ name: `served at ${rpcPath}`, rpcPath }));
  return path;
}

/** Runs the command, its console lines kept. */
async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((l: unknown) => void out.push(String(l)));
  vi.spyOn(console, 'error').mockImplementation((l: unknown) => void err.push(String(l)));
  const code = await fuzz.run(argv);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('chainrpc fuzz --help', () => {
  it('says a liveness finding is the request that preceded the death, not shrunk', () => {
    expect(fuzz.help.replace(/\s+/g, ' ')).toMatch(/its finding \(liveness\) names the request after which it died, as sent \(not shrunk: a dead node is sent nothing more\)/);
  });
});

describe('chainrpc fuzz --replay: the profile it judges by', () => {
  it('loads the profile file the report names when --profile is not given, and says so', async () => {
    const profile = profileFile('custom.json', '/custom');
    const r = await run('--replay', report('report.json', { profile: 'served at /custom', profileFile: profile }), 'F1');
    expect(r.err).toContain(`fuzz: --replay: judging by the run's profile, ${profile}`);
    expect(r.out).toMatch(/^now: NO LONGER SHOWS \(envelope\)$/m);
    expect(r.code).toBe(0);
    expect(paths.every((p) => p === '/custom')).toBe(true);
  });

  it('says the profile file is gone (exit 2) rather than judge by another', async () => {
    const path = report('gone.json', { profile: 'served at /custom', profileFile: join(dir, 'no-such-profile.json') });
    await expect(run('--replay', path, 'F1')).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/judged by the profile .*no-such-profile\.json, which is gone: give the same profile with --profile <file>/) as unknown });
    expect(paths).toEqual([]);
  });

  it('lets an explicit --profile win over the report\'s', async () => {
    const path = report('explicit.json', { profile: 'served at /custom', profileFile: profileFile('custom2.json', '/custom') });
    const r = await run('--replay', path, 'F1', '--profile', profileFile('other.json', '/other'));
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('judging by the run\'s profile');
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((p) => p === '/other')).toBe(true);
  });

  it('applies the run\'s --rpc-path and --method-prefix, which the report keeps (a profile file does not hold them)', async () => {
    const r = await run('--replay', report('overrides.json', { profile: 'reference', rpcPath: '/custom', methodPrefix: 'node_' }), 'F1');
    expect(r.err).toContain('fuzz: --replay: with the run\'s --rpc-path /custom and --method-prefix node_ (named in the report)');
    expect(r.code).toBe(0);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((p) => p === '/custom')).toBe(true);
    // The liveness probe is called by the node's name for it; the case goes as its bytes were.
    expect(methods).toContain('node_blockNumber');
    // The replay's own win.
    paths.length = 0;
    const own = await run('--replay', report('overrides2.json', { profile: 'reference', rpcPath: '/custom' }), 'F1', '--rpc-path', '/other');
    expect(own.code).toBe(0);
    expect(own.err).not.toContain('with the run\'s');
    expect(paths.every((p) => p === '/other')).toBe(true);
  });

  it('warns when the report names a profile other than the reference without its file', () => {
    const warned = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(replayProfile(undefined, { findings: [], profileName: 'small-batches' }, 'report.json')).toBeUndefined();
    expect(warned.mock.calls.map(([l]) => String(l)).join('\n')).toMatch(/judged by the profile "small-batches", whose file the report does not name: judging by the reference profile/);
    warned.mockClear();
    expect(replayProfile(undefined, { findings: [], profileName: 'reference' }, 'report.json')).toBeUndefined();
    expect(warned).not.toHaveBeenCalled();
  });
});
