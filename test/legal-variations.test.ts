/**
 * Legal variations stay green. A proxy in front of a reference node changes what JSON-RPC 2.0 and the
 * spec allow: batch responses in another order, extra fields in results, notifications answered with
 * HTTP 200 and an empty body (another status policy). MUST and SHOULD checks must not mind; PROFILE
 * checks pass too once a profile file names the other status policy.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../core/client/index.js';
import type { RpcClient } from '../core/client/index.js';
import { parseJson, stringifyJson } from '../core/json/index.js';
import type { JsonValue } from '../core/json/index.js';
import { catalogue } from '../suites/catalogue.js';
import { loadProfile } from '../suites/profile/loadProfile.js';
import { describeResults, runChecks, startTestNode, TEST_BLOCK_MS } from '../suites/testSupport.js';
import type { TestNode } from '../suites/testSupport.js';

let node: TestNode;
let upstream: RpcClient;
let proxy: Server;
let proxyUrl: string;
let dir: string;

/** Adds a field to every object result; reverses batch answers. */
function vary(body: JsonValue): JsonValue {
  const extra = (r: JsonValue): JsonValue =>
    typeof r === 'object' && r !== null && !Array.isArray(r) && typeof r.result === 'object' && r.result !== null && !Array.isArray(r.result) ? { ...r, result: { ...r.result, 'x-vendor': 'legal' } } : r;
  return Array.isArray(body) ? [...body].reverse().map(extra) : extra(body);
}

beforeAll(async () => {
  node = await startTestNode();
  upstream = createClient({ baseUrl: node.url, connections: 16 });
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length' && k !== 'connection') headers[k] = v;
      upstream
        .raw({ method: req.method ?? 'POST', path: req.url ?? '/rpc', headers, body: Buffer.concat(chunks) })
        .then((answer) => {
          if (answer.status === 204) {
            res.writeHead(200, { 'content-length': '0' }).end();
            return;
          }
          let text = answer.text;
          if (answer.status === 200 && (req.url ?? '').startsWith('/rpc')) {
            try {
              text = stringifyJson(vary(parseJson(answer.text)));
            } catch {
              // not JSON: pass it on as it is
            }
          }
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries(answer.headers)) if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection' && k !== 'keep-alive') out[k] = v;
          res.writeHead(answer.status, out).end(text);
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-variations-'));
});

afterAll(async () => {
  await new Promise<void>((r) => proxy.close(() => r()));
  proxy.closeAllConnections();
  await upstream.close();
  await node.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('legal variations', () => {
  it('MUST and SHOULD checks all pass through the varying proxy; only the status-policy check differs', async () => {
    const results = await runChecks(catalogue().filter((c) => c.scope === 'node'), [proxyUrl]);
    const notPassing = results.filter((r) => r.status !== 'pass' && r.status !== 'skip');
    expect(describeResults(notPassing.filter((r) => r.level !== 'PROFILE'))).toEqual([]);
    expect(notPassing.map((r) => r.id)).toEqual(['transport/notification-status']);
  }, 120_000);

  it('with a profile naming HTTP 200 for notifications, every check passes', async () => {
    const path = join(dir, 'profile.json');
    writeFileSync(path, JSON.stringify({ name: 'notifications-200', http: { notification: 200 }, blockTimeMs: TEST_BLOCK_MS }));
    const profile = await loadProfile(path);
    const results = await runChecks(catalogue().filter((c) => c.scope === 'node'), [proxyUrl], { profile });
    expect(describeResults(results.filter((r) => r.status !== 'pass' && r.status !== 'skip'))).toEqual([]);
  }, 120_000);
});
