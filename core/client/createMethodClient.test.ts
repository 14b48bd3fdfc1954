import { afterEach, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../json/index.js';
import { createClient } from './RpcClient.js';
import { createMethodClient } from './createMethodClient.js';
import { JsonRpcError } from './JsonRpcError.js';
import { ResultSchemaError } from './ResultSchemaError.js';
import { startTestServer } from '../../test/support/startTestServer.js';
import type { TestServer } from '../../test/support/startTestServer.js';

const ADDRESS = '6488585c505befe4e4f4724815d3e6d0f4516e65f4dc171e3df8d69ff77e577e';
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A real loopback server answering each method with the given result. */
async function serve(results: Record<string, unknown>): Promise<TestServer> {
  server = await startTestServer((req, res) => {
    const body = parseJson(req.body.toString('utf8')) as { id: number; method: string; params: unknown[] };
    res.setHeader('content-type', 'application/json');
    const result = results[body.method];
    res.end(
      stringifyJson(
        result === undefined
          ? { jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } }
          : { jsonrpc: '2.0', id: body.id, result: typeof result === 'function' ? (result as (p: unknown[]) => unknown)(body.params) : result },
      ),
    );
  });
  return server;
}

describe('createMethodClient', () => {
  it('sends positional params and returns the typed, validated result', async () => {
    const s = await serve({ chain_getAccount: (p: unknown[]) => ({ balance: '1000000000000000000', nonce: p[0] === ADDRESS ? 3 : 0 }) });
    const client = createClient({ baseUrl: s.url });
    const node = createMethodClient(client);
    const account = await node.chain_getAccount(ADDRESS);
    expect(account).toEqual({ balance: '1000000000000000000', nonce: 3 });
    expect(parseJson(s.requests[0]?.body.toString() ?? '')).toMatchObject({ jsonrpc: '2.0', method: 'chain_getAccount', params: [ADDRESS] });
    await client.close();
  });

  it('refuses a result that breaks the schema, naming the pointer and the rule', async () => {
    const s = await serve({ chain_getAccount: { balance: 1000, nonce: 0 }, chain_blockNumber: -1 });
    const client = createClient({ baseUrl: s.url });
    const node = createMethodClient(client);
    const err = await node.chain_getAccount(ADDRESS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResultSchemaError);
    expect((err as ResultSchemaError).message).toContain('/balance must be a string; got 1000');
    await expect(node.chain_blockNumber()).rejects.toThrow(/must be at least 0/);
    await client.close();
  });

  it("validates at spec level on request: the profile's extra rules are not enforced", async () => {
    const s = await serve({ chain_getAccount: { balance: '007', nonce: 0 } });
    const client = createClient({ baseUrl: s.url });
    await expect(createMethodClient(client).chain_getAccount(ADDRESS)).rejects.toBeInstanceOf(ResultSchemaError);
    expect(await createMethodClient(client, { validate: 'spec' }).chain_getAccount(ADDRESS)).toEqual({ balance: '007', nonce: 0 });
    await client.close();
  });

  it('keeps u64 results beyond 2^53 exact', async () => {
    server = await startTestServer((req, res) => {
      const id = (parseJson(req.body.toString()) as { id: number }).id;
      res.end(`{"jsonrpc":"2.0","id":${id},"result":18446744073709551615}`);
    });
    const client = createClient({ baseUrl: server.url });
    expect(await createMethodClient(client).chain_blockNumber()).toBe(18446744073709551615n);
    await client.close();
  });

  it('passes JSON-RPC errors through as JsonRpcError', async () => {
    const s = await serve({});
    const client = createClient({ baseUrl: s.url });
    const err = await createMethodClient(client).chain_health().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JsonRpcError);
    expect((err as JsonRpcError).code).toBe(-32601);
    await client.close();
  });
});
