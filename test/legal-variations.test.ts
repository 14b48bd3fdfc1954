/**
 * Legal variations stay green. A proxy in front of a reference node changes what JSON-RPC 2.0 and the
 * spec allow: batch responses in another order, extra fields in results, notifications answered with
 * HTTP 200 and an empty body (another status policy). MUST and SHOULD checks must not mind; PROFILE
 * checks pass too once a profile file names the other status policy. And a network with other method
 * and field names (the spec's `chain_` prefix stands in for a product name) is certified through a
 * profile that names them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../core/json/index.js';
import type { JsonValue } from '../core/json/index.js';
import { catalogue } from '../suites/catalogue.js';
import { loadProfile } from '../suites/profile/loadProfile.js';
import { describeResults, runChecks, startProxy, startTestNode, TEST_BLOCK_MS } from '../suites/testSupport.js';
import type { ProxiedResponse, Proxy, TestNode } from '../suites/testSupport.js';

let node: TestNode;
let varying: Proxy;
let renamed: Proxy;
let dir: string;
const nodeChecks = catalogue().filter((c) => c.scope === 'node');

/** Adds an `x-` field to every object result (OpenRPC allows x- members too); reverses batch answers. */
function vary(body: JsonValue): JsonValue {
  const extra = (r: JsonValue): JsonValue =>
    typeof r === 'object' && r !== null && !Array.isArray(r) && typeof r.result === 'object' && r.result !== null && !Array.isArray(r.result) ? { ...r, result: { ...r.result, 'x-vendor': 'legal' } } : r;
  return Array.isArray(body) ? [...body].reverse().map(extra) : extra(body);
}

const rewriteJson = (res: ProxiedResponse, change: (text: string) => string): ProxiedResponse => {
  if (res.status === 204) return { status: 200, headers: { ...res.headers, 'content-length': '0' }, body: '' };
  return res.status === 200 && res.body !== '' ? { ...res, body: change(res.body) } : res;
};

async function profileFile(name: string, content: object): Promise<Awaited<ReturnType<typeof loadProfile>>> {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ blockTimeMs: TEST_BLOCK_MS, ...content }));
  return loadProfile(path);
}

beforeAll(async () => {
  node = await startTestNode();
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-variations-'));
  varying = await startProxy(node.url, (res) =>
    rewriteJson(res, (text) => {
      try {
        return stringifyJson(vary(parseJson(text)));
      } catch {
        return text;
      }
    }),
  );
  // "acme": methods acme_* on the wire, and Balance / txCount for two of the spec's field names.
  renamed = await startProxy(
    node.url,
    (res) => ({ ...res, body: res.body.replace(/"chain_(?!id")/g, '"acme_').replace(/"balance":/g, '"Balance":').replace(/"transaction_count":/g, '"txCount":') }),
    undefined,
    (body) => body.replace(/"acme_/g, '"chain_'),
  );
});

afterAll(async () => {
  await varying.close();
  await renamed.close();
  await node.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('legal variations', () => {
  it('MUST and SHOULD checks all pass through the varying proxy; only the status-policy check differs', async () => {
    const results = await runChecks(nodeChecks, [varying.url]);
    const notPassing = results.filter((r) => r.status !== 'pass' && r.status !== 'skip');
    expect(describeResults(notPassing.filter((r) => r.level !== 'PROFILE'))).toEqual([]);
    expect(notPassing.map((r) => r.id)).toEqual(['transport/notification-status']);
  }, 120_000);

  it('with a profile naming HTTP 200 for notifications, every check passes', async () => {
    const profile = await profileFile('notifications-200.json', { name: 'notifications-200', http: { notification: 200 } });
    const results = await runChecks(nodeChecks, [varying.url], { profile });
    expect(describeResults(results.filter((r) => r.status !== 'pass' && r.status !== 'skip'))).toEqual([]);
  }, 120_000);

  it('a network with other method and field names passes every check under a profile that names them', async () => {
    const profile = await profileFile('acme.json', { name: 'acme', methodPrefix: 'acme_', fields: { balance: 'Balance', transaction_count: 'txCount' } });
    const results = await runChecks(nodeChecks, [renamed.url], { profile });
    expect(describeResults(results.filter((r) => r.status !== 'pass' && r.status !== 'skip'))).toEqual([]);
    // Without the profile the same node is not even reachable as a chain_ node: its calls are unknown methods.
    const plain = await runChecks(nodeChecks, [renamed.url]);
    expect(plain.filter((r) => r.status === 'fail').length).toBeGreaterThan(10);
  }, 120_000);
});
