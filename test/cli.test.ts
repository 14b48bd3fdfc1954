/**
 * The chainrpc binary as users run it: a real process from dist/ (npm test builds it first),
 * talking to a real loopback HTTP server where it talks to a node.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../core/client/startTestServer.js';
import type { TestServer } from '../core/client/startTestServer.js';
import { parseJson } from '../core/json/index.js';
import { packageRoot } from '../core/paths.js';

const BIN = join(packageRoot, 'dist', 'cli', 'chainrpc.js');
const vectors = JSON.parse(readFileSync(join(packageRoot, 'core/codec/tx-vectors.json'), 'utf8')) as {
  vectors: { privateKey: string; address: string; seed: string; tx: { chainId: string; to: string; value: string; nonce: string; fee: string }; wire: string; hash: string }[];
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function chainrpc(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npm run build (npm test does it first)`);
});

describe('chainrpc', () => {
  it('--help lists every command and the exit codes', async () => {
    const r = await chainrpc('--help');
    expect(r.code).toBe(0);
    for (const c of ['call', 'methods', 'tx', 'keygen']) expect(r.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect(r.stdout).toContain('3 target unreachable');
  });

  it('an unknown command or option is a usage error (exit 2)', async () => {
    expect((await chainrpc('frobnicate')).code).toBe(2);
    const r = await chainrpc('keygen', '--bogus');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Unknown option '--bogus'");
  });

  it('tx sign reproduces the committed test vector exactly', async () => {
    const v = vectors.vectors[0];
    if (!v) throw new Error('no vectors');
    const r = await chainrpc('tx', 'sign', '--key', v.privateKey, '--to', v.tx.to, '--value', v.tx.value, '--nonce', v.tx.nonce, '--fee', v.tx.fee, '--chain-id', v.tx.chainId);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ hash: v.hash, wire: v.wire, sender: v.address });
  });

  it('tx decode verifies strictly: a changed signature byte exits 1, bad hex exits 2', async () => {
    const v = vectors.vectors[0];
    if (!v) throw new Error('no vectors');
    const ok = await chainrpc('tx', 'decode', v.wire);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ signature_valid: true, value_tokens: '1.5', fee_tokens: '0.001' });
    const i = v.wire.length - 10;
    const tampered = v.wire.slice(0, i) + (v.wire[i] === '0' ? '1' : '0') + v.wire.slice(i + 1);
    const bad = await chainrpc('tx', 'decode', tampered);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ signature_valid: false });
    const odd = await chainrpc('tx', 'decode', v.wire.slice(1));
    expect(odd.code).toBe(2);
    expect(odd.stderr).toContain('odd length');
  });

  it('keygen --seed is reproducible and matches the vectors', async () => {
    const v = vectors.vectors[0];
    if (!v) throw new Error('no vectors');
    const r = await chainrpc('keygen', '--seed', v.seed);
    expect(JSON.parse(r.stdout)).toEqual({ private_key: v.privateKey, address: v.address });
  });

  it('call prints the result exactly (bigints too), exits 1 on a JSON-RPC error, 3 when unreachable', async () => {
    server = await startTestServer((req, res) => {
      const body = parseJson(req.body.toString()) as { id: number; method: string; params: unknown[] };
      res.setHeader('content-type', 'application/json');
      if (body.method === 'chain_getBlockByHeight' && body.params[0] === 12) {
        res.end(`{"jsonrpc":"2.0","id":${body.id},"result":{"height":12,"big":18446744073709551615}}`);
      } else {
        res.end(`{"jsonrpc":"2.0","id":${body.id},"error":{"code":-32601,"message":"Method not found"}}`);
      }
    });
    const ok = await chainrpc('call', '--url', server.url, 'chain_getBlockByHeight', '12');
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim()).toBe('{"height":12,"big":18446744073709551615}');
    const err = await chainrpc('call', '--url', server.url, 'nope');
    expect(err.code).toBe(1);
    expect(err.stderr).toContain('"code":-32601');
    const url = server.url;
    await server.close();
    server = undefined;
    const down = await chainrpc('call', '--url', url, 'chain_health');
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('Could not reach');
  });
});
