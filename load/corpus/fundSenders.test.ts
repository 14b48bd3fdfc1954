import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcClient } from '../../core/client/index.js';
import { parseJson, stringifyJson } from '../../core/json/index.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { startTestServer } from '../../test/support/startTestServer.js';
import type { TestServer } from '../../test/support/startTestServer.js';
import { FundingError } from './CorpusError.js';
import { readAccountState } from './fundSenders.js';

/** A node that refuses every call with -32005, as an outside tester's did while the senders were funded. */
let node: TestServer;
beforeAll(async () => {
  node = await startTestServer((req, res) => {
    const call = parseJson(req.body.toString()) as { id?: number };
    res.writeHead(200, { 'content-type': 'application/json' }).end(stringifyJson({ jsonrpc: '2.0', id: call.id ?? null, error: { code: -32005, message: 'injected error' } }));
  });
});
afterAll(() => node.close());

describe('readAccountState', () => {
  it('says a refused account read stopped the senders\' setup, naming the account, the code and what the profile would need', async () => {
    const client = new RpcClient({ baseUrl: node.url });
    try {
      const error = await readAccountState(client, referenceProfile(), 'ab'.repeat(32)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FundingError);
      expect((error as Error).message).toBe(
        'reading the account of abababababab… to fund the senders, chain_getAccount was refused with -32005 (injected error); an account the node does not know is empty only when the profile says so (unknownAccount, and its AccountNotFound code)',
      );
    } finally {
      await client.close();
    }
  });
});
