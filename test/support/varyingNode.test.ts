/**
 * The varying test node, mode by mode, with plain HTTP calls: each mode alone changes what it says and
 * leaves the rest as the reference node answers it; then several modes together. One reference node (an
 * MN) is shared by the file; a second one, an LN peering with it, gives chain_pouPeers a peer to list and
 * health-values an LN to describe.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeypair, signTransaction } from '../../core/codec/index.js';
import type { Keypair, SignedTransaction } from '../../core/codec/index.js';
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { startTestNode } from './suites.js';
import type { TestNode } from './suites.js';
import type { JsonObject } from './jsonShapes.js';
import { startVaryingNode, VARIATIONS } from './varyingNode.js';
import type { VariationName } from './varyingNode.js';

const CALL_TIMEOUT_MS = 10_000;
const FEE = 10n ** 15n;
const FAUCET_AMOUNT = '10000000000000000000';
const FAR_HEIGHT = 1_000_000_000;
const HEX64_LOWER = /^[0-9a-f]{64}$/;
const HEX64_UPPER = /^[0-9A-F]{64}$/;

let node: TestNode;
let peer: TestNode;
let funded: Keypair;
let fundedNonce = 0n;
/** A block that carries a transaction (the funding transfer), so hash lists are not empty. */
let txHeight: number;
const open = new Set<{ close(): Promise<void> }>();
const tested = new Set<VariationName>();

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body; undefined when it is empty or not JSON. */
  body: JsonValue | undefined;
}

const request = (method: string, params: JsonValue = [], id: JsonValue = 1): JsonObject => ({ jsonrpc: '2.0', id, method, params });
const notification = (method: string, params: JsonValue = []): JsonObject => ({ jsonrpc: '2.0', method, params });

async function post(url: string, body: string | Uint8Array, contentType: string | undefined = 'application/json'): Promise<Reply> {
  const res = await fetch(url, { method: 'POST', headers: contentType === undefined ? {} : { 'content-type': contentType }, body, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
  const text = await res.text();
  let parsed: JsonValue | undefined;
  try {
    parsed = text === '' ? undefined : parseJson(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

const rpc = (base: string, body: JsonValue, path = '/rpc'): Promise<Reply> => post(`${base}${path}`, stringifyJson(body));

function asObject(value: JsonValue | undefined, what: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what} is not an object: ${value === undefined ? 'nothing' : stringifyJson(value)}`);
  return value;
}

/** The result of one call; fails the test when the answer is not a result. */
async function result(base: string, method: string, params: JsonValue = [], path = '/rpc'): Promise<JsonValue> {
  const reply = await rpc(base, request(method, params), path);
  const body = asObject(reply.body, `${method} answer`);
  if (!Object.hasOwn(body, 'result')) throw new Error(`${method} answered ${reply.text}`);
  return body.result ?? null;
}

/** The error object of one call; fails the test when the answer is not an error. */
async function errorOf(base: string, method: string, params: JsonValue = [], id: JsonValue = 1): Promise<JsonObject> {
  const reply = await rpc(base, request(method, params, id));
  const body = asObject(reply.body, `${method} answer`);
  expect(body.id).toEqual(id);
  return asObject(body.error, `${method} error (answer ${reply.text})`);
}

const direct = (method: string, params: JsonValue = []): Promise<JsonValue> => result(node.url, method, params);

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A varying node with these modes in front of `upstream` (the shared MN by default), closed after `use`. */
async function withVarying(modes: VariationName[], use: (url: string) => Promise<void>, upstream = node.url): Promise<void> {
  const varying = await startVaryingNode(upstream, modes);
  open.add(varying);
  try {
    await use(varying.url);
  } finally {
    open.delete(varying);
    await varying.close();
  }
}

/** One test per mode, named by what a client of such a node sees. */
function modeTest(mode: VariationName, body: () => Promise<void>): void {
  tested.add(mode);
  it(`${mode}: ${VARIATIONS[mode].description}`, body);
}

/** A transfer from the funded key with its next nonce (the node queues consecutive nonces). */
function nextTransfer(): SignedTransaction {
  const tx = signTransaction({ chainId: 1n, to: generateKeypair().address, value: 1n, nonce: fundedNonce, fee: FEE }, funded.privateKey);
  fundedNonce++;
  return tx;
}

const freshAddress = (): string => generateKeypair().address;

beforeAll(async () => {
  node = await startTestNode();
  peer = await startTestNode({ kind: 'LN', peers: [node.node.p2pUrl], genesis: node.node.network });
  await eventually('the LN and the MN to see each other', () => Promise.resolve(node.node.peers.live().length === 1 && peer.node.peers.live().length === 1 ? true : undefined));
  // A funded key for transfers; the block its faucet transfer lands in is one with a transaction.
  funded = generateKeypair();
  const claim = asObject(await direct('chain_faucetClaim', [funded.address]), 'claim');
  await eventually('the faucet transfer to be included', async () => {
    const account = asObject(await direct('chain_getAccount', [funded.address]), 'account');
    return account.balance === FAUCET_AMOUNT ? true : undefined;
  });
  const tip = Number(await direct('chain_blockNumber'));
  for (let height = tip; height >= 1; height--) {
    const block = asObject(await direct('chain_getBlockByHeight', [height]), 'block');
    if ((block.transactions as JsonValue[]).includes(claim.transaction_hash ?? null)) txHeight = height;
  }
  expect(txHeight).toBeGreaterThan(0);
});

afterAll(async () => {
  await Promise.all([...open].map((v) => v.close()));
  await peer?.stop();
  await node?.stop();
});

describe('startVaryingNode', () => {
  it('with no modes, passes everything through unchanged', async () => {
    await withVarying([], async (url) => {
      for (const body of [request('chain_health'), request('chain_getBlockByHeight', [0]), request('chain_getBlockByHeight', [-1], 'x'), [request('chain_health', [], 1), notification('chain_health')]]) {
        const [through, straight] = await Promise.all([rpc(url, body), rpc(node.url, body)]);
        expect(through.status).toBe(straight.status);
        expect(through.text).toBe(straight.text);
      }
      expect((await rpc(url, notification('chain_health'))).status).toBe(204);
      expect((await post(`${url}/rpc`, '{')).body).toEqual((await post(`${node.url}/rpc`, '{')).body);
      // Other HTTP methods and other paths reach the same place upstream.
      const get = await fetch(`${url}/rpc`, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
      await get.text();
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST');
      const other = await post(`${url}/nowhere`, '{}');
      expect(other.status).toBe((await post(`${node.url}/nowhere`, '{}')).status);
    });
  });

  it('refuses a body over its own 4 MiB cap with 413, before reading it', async () => {
    await withVarying([], async (url) => {
      expect(await postDeclared(`${url}/rpc`, 5 * 1024 * 1024)).toBe(413);
      expect(await postDeclared(`${url}/rpc`, 1000)).toBe(200);
    });
  });

  it('closes cleanly with a call still waiting for upstream', async () => {
    const held: ServerResponse[] = [];
    const stub = await startStub((_req, res) => void held.push(res));
    try {
      const varying = await startVaryingNode(stub.url, []);
      const pending = rpc(varying.url, request('chain_health')).then(
        () => 'answered',
        () => 'dropped',
      );
      await eventually('the call to reach upstream', () => Promise.resolve(held.length > 0 ? true : undefined));
      await varying.close();
      expect(await pending).toBe('dropped');
      // close() is idempotent.
      await varying.close();
    } finally {
      await stub.close();
    }
  });

  it('answers 502 when the upstream node cannot be reached', async () => {
    const gone = await startTestNode();
    const url = gone.url;
    await gone.stop();
    await withVarying([], async (varying) => {
      expect((await rpc(varying, request('chain_health'))).status).toBe(502);
    }, url);
  });

  it('refuses an unknown mode name', async () => {
    await expect(startVaryingNode(node.url, ['no-such-mode' as VariationName])).rejects.toThrow(/unknown variation/);
  });

  modeTest('method-prefix', async () => {
    await withVarying(['method-prefix'], async (url) => {
      const address = freshAddress();
      expect(await result(url, 'acme_getAccount', [address])).toEqual(await direct('chain_getAccount', [address]));
      const refused = await errorOf(url, 'chain_getAccount', [address], 'id-7');
      expect(refused.code).toBe(-32601);
      expect(refused.message).toBe('Method not found');
      // Names outside the prefix keep theirs.
      expect(await result(url, 'net_peerCount')).toBe(1);
      const doc = asObject(await result(url, 'rpc.discover'), 'OpenRPC document');
      const names = (doc.methods as JsonObject[]).map((m) => m.name);
      expect(names).toContain('acme_getBlockByHeight');
      expect(names).toContain('net_peerCount');
      expect(names).toContain('rpc.discover');
      expect(names.filter((n) => typeof n === 'string' && n.startsWith('chain_'))).toEqual([]);
      // In a batch: each call answered by id; a notification for a method the node lacks gets nothing.
      const batch = await rpc(url, [request('acme_blockNumber', [], 1), request('chain_blockNumber', [], 2), notification('chain_health'), request('acme_nothing', [], 3)]);
      const answers = batch.body as JsonObject[];
      expect(answers).toHaveLength(3);
      const byId = new Map(answers.map((a) => [a.id, a]));
      expect(typeof byId.get(1)?.result).toBe('number');
      expect(asObject(byId.get(2)?.error, 'error').code).toBe(-32601);
      expect(asObject(byId.get(3)?.error, 'error').code).toBe(-32601);
      expect((await rpc(url, notification('chain_health'))).status).toBe(204);
    });
  });

  modeTest('path-root', async () => {
    await withVarying(['path-root'], async (url) => {
      expect(await result(url, 'chain_health', [], '/')).toEqual(await direct('chain_health'));
      const old = await rpc(url, request('chain_health'));
      expect(old.status).toBe(404);
      expect(old.text).toBe('');
      const get = await fetch(`${url}/`, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
      await get.text();
      expect(get.status).toBe(405);
    });
  });

  modeTest('path-v1', async () => {
    await withVarying(['path-v1'], async (url) => {
      expect(await result(url, 'chain_health', [], '/v1/jsonrpc')).toEqual(await direct('chain_health'));
      const old = await rpc(url, request('chain_health'));
      expect(old.status).toBe(404);
      expect(old.text).toBe('');
      expect((await rpc(url, request('chain_health'), '/')).status).toBe(404);
    });
  });

  modeTest('camel-keys', async () => {
    await withVarying(['camel-keys'], async (url) => {
      const block = asObject(await direct('chain_getBlockByHeight', [txHeight]), 'block');
      expect(await result(url, 'chain_getBlockByHeight', [txHeight])).toEqual({
        height: block.height,
        hash: block.hash,
        parentHash: block.parent_hash,
        timestamp: block.timestamp,
        proposer: block.proposer,
        transactionCount: block.transaction_count,
        transactions: block.transactions,
      });
      const health = asObject(await result(url, 'chain_health'), 'health');
      expect(Object.keys(health).sort()).toEqual(['chainId', 'mode', 'status']);
      const pou = asObject(await result(url, 'chain_pouLocal'), 'pou');
      expect(Object.keys(pou).sort()).toEqual(['leader', 'localIsLeader', 'localScore']);
      // The peers map's keys are identifiers, not field names: unchanged.
      const peers = asObject(asObject(await result(url, 'chain_pouPeers'), 'pouPeers').peers, 'peers');
      expect(Object.keys(peers)).toEqual(Object.keys(asObject(asObject(await direct('chain_pouPeers'), 'pouPeers').peers, 'peers')));
      expect(Object.keys(peers)[0]).toMatch(HEX64_LOWER);
      const claim = asObject(await result(url, 'chain_faucetClaim', [freshAddress()]), 'claim');
      expect(Object.keys(claim).sort()).toEqual(['amount', 'transactionHash']);
      expect(await result(url, 'chain_getAccount', [funded.address])).toHaveProperty('balance');
      // Error objects as they were.
      expect(await errorOf(url, 'chain_getBlockByHeight', [-1])).toEqual(await errorOf(node.url, 'chain_getBlockByHeight', [-1]));
    });
  });

  modeTest('renamed-fields', async () => {
    await withVarying(['renamed-fields'], async (url) => {
      const account = asObject(await direct('chain_getAccount', [funded.address]), 'account');
      const renamed = asObject(await result(url, 'chain_getAccount', [funded.address]), 'account');
      expect(Object.keys(renamed).sort()).toEqual(['Balance', 'nonce']);
      expect(typeof renamed.Balance).toBe('string');
      expect(typeof account.balance).toBe('string');
      const block = asObject(await direct('chain_getBlockByHeight', [txHeight]), 'block');
      const { transaction_count: count, ...rest } = block;
      expect(await result(url, 'chain_getBlockByHeight', [txHeight])).toEqual({ ...rest, txCount: count });
    });
  });

  modeTest('genesis-at-1', async () => {
    await withVarying(['genesis-at-1'], async (url) => {
      const before = Number(await direct('chain_blockNumber'));
      const tip = Number(await result(url, 'chain_blockNumber'));
      const after = Number(await direct('chain_blockNumber'));
      expect(tip).toBeGreaterThanOrEqual(before + 1);
      expect(tip).toBeLessThanOrEqual(after + 1);
      const genesis = asObject(await direct('chain_getBlockByHeight', [0]), 'genesis');
      expect(await result(url, 'chain_getBlockByHeight', [1])).toEqual({ ...genesis, height: 1 });
      const first = asObject(await direct('chain_getBlockByHeight', [1]), 'block 1');
      expect(await result(url, 'chain_getBlockByHeight', [2])).toEqual({ ...first, height: 2 });
      // Height 0 is now below the chain: the answer is upstream's for a height above its tip.
      const zero = await errorOf(url, 'chain_getBlockByHeight', [0]);
      expect(zero.code).toBe(-32001);
      const data = asObject(zero.data, 'data');
      expect(data.height).toBe(0);
      expect(data.latest).toBeGreaterThanOrEqual(before + 1);
      expect(data.reason).toBe(`no block at height 0; the latest is ${stringifyJson(data.latest ?? null)}`);
      const far = asObject((await errorOf(url, 'chain_getBlockByHeight', [FAR_HEIGHT])).data, 'data');
      expect(far.height).toBe(FAR_HEIGHT);
      expect(far.latest).toBeGreaterThanOrEqual(before + 1);
      expect((await errorOf(url, 'chain_getBlockByHeight', [-1])).code).toBe(-32602);
    });
  });

  modeTest('genesis-at-5', async () => {
    await withVarying(['genesis-at-5'], async (url) => {
      const before = Number(await direct('chain_blockNumber'));
      expect(Number(await result(url, 'chain_blockNumber'))).toBeGreaterThanOrEqual(before + 5);
      const genesis = asObject(await direct('chain_getBlockByHeight', [0]), 'genesis');
      expect(await result(url, 'chain_getBlockByHeight', [5])).toEqual({ ...genesis, height: 5 });
      for (const below of [0, 1, 4]) {
        const refused = await errorOf(url, 'chain_getBlockByHeight', [below]);
        expect(refused.code).toBe(-32001);
        expect(asObject(refused.data, 'data').height).toBe(below);
      }
    });
  });

  modeTest('upper-hex', async () => {
    await withVarying(['upper-hex'], async (url) => {
      const block = asObject(await direct('chain_getBlockByHeight', [txHeight]), 'block');
      const upper = asObject(await result(url, 'chain_getBlockByHeight', [txHeight]), 'block');
      expect((block.transactions as string[]).length).toBeGreaterThan(0);
      expect(upper).toEqual({
        ...block,
        hash: (block.hash as string).toUpperCase(),
        parent_hash: (block.parent_hash as string).toUpperCase(),
        proposer: (block.proposer as string).toUpperCase(),
        transactions: (block.transactions as string[]).map((t) => t.toUpperCase()),
      });
      expect(asObject(await result(url, 'chain_pouLocal'), 'pou').leader).toBe((asObject(await direct('chain_pouLocal'), 'pou').leader as string).toUpperCase());
      const peers = Object.keys(asObject(asObject(await result(url, 'chain_pouPeers'), 'pouPeers').peers, 'peers'));
      expect(peers).toEqual(Object.keys(asObject(asObject(await direct('chain_pouPeers'), 'pouPeers').peers, 'peers')).map((k) => k.toUpperCase()));
      expect(asObject(await result(url, 'chain_faucetClaim', [freshAddress()]), 'claim').transaction_hash).toMatch(HEX64_UPPER);
      const tx = nextTransfer();
      expect(await result(url, 'chain_sendRawTransaction', [tx.wire])).toBe(tx.hash.toUpperCase());
      // Requests are unchanged: the reference node reads either case.
      expect(await result(url, 'chain_getAccount', [funded.address.toUpperCase()])).toHaveProperty('balance');
    });
  });

  modeTest('timestamps-seconds', async () => {
    await withVarying(['timestamps-seconds'], async (url) => {
      const block = asObject(await direct('chain_getBlockByHeight', [1]), 'block');
      expect(await result(url, 'chain_getBlockByHeight', [1])).toEqual({ ...block, timestamp: Math.floor(Number(block.timestamp) / 1000) });
      expect(asObject(await result(url, 'chain_getBlockByHeight', [0]), 'genesis').timestamp).toBe(0);
    });
  });

  modeTest('timestamps-iso', async () => {
    await withVarying(['timestamps-iso'], async (url) => {
      const block = asObject(await direct('chain_getBlockByHeight', [1]), 'block');
      expect(await result(url, 'chain_getBlockByHeight', [1])).toEqual({ ...block, timestamp: new Date(Number(block.timestamp)).toISOString() });
      expect(asObject(await result(url, 'chain_getBlockByHeight', [0]), 'genesis').timestamp).toBe('1970-01-01T00:00:00.000Z');
    });
  });

  modeTest('unknown-height-null', async () => {
    await withVarying(['unknown-height-null'], async (url) => {
      const far = await rpc(url, request('chain_getBlockByHeight', [FAR_HEIGHT], 'h'));
      expect(far.body).toEqual({ jsonrpc: '2.0', id: 'h', result: null });
      expect(await result(url, 'chain_getBlockByHeight', [1])).toEqual(await direct('chain_getBlockByHeight', [1]));
      expect((await errorOf(url, 'chain_getBlockByHeight', [-1])).code).toBe(-32602);
    });
  });

  modeTest('unknown-account-error', async () => {
    await withVarying(['unknown-account-error'], async (url) => {
      const address = freshAddress();
      expect(await direct('chain_getAccount', [address])).toEqual({ balance: '0', nonce: 0 });
      expect(await errorOf(url, 'chain_getAccount', [address], 'acct')).toEqual({ code: -32040, message: 'Account not found', data: { reason: 'no account with this address' } });
      expect(asObject(await result(url, 'chain_getAccount', [funded.address]), 'account').balance).not.toBe('0');
    });
  });

  modeTest('unknown-account-null', async () => {
    await withVarying(['unknown-account-null'], async (url) => {
      const address = freshAddress();
      expect(await direct('chain_getAccount', [address])).toEqual({ balance: '0', nonce: 0 });
      expect(await result(url, 'chain_getAccount', [address])).toBeNull();
      expect(asObject(await result(url, 'chain_getAccount', [funded.address]), 'account').balance).not.toBe('0');
    });
  });

  modeTest('tx-result-object', async () => {
    await withVarying(['tx-result-object'], async (url) => {
      const tx = nextTransfer();
      expect(await result(url, 'chain_sendRawTransaction', [tx.wire])).toEqual({ transaction_hash: tx.hash });
      // Refusals stay refusals.
      expect((await errorOf(url, 'chain_sendRawTransaction', ['abcd'])).code).toBe(-32002);
    });
  });

  modeTest('faucet-direct', async () => {
    await withVarying(['faucet-direct'], async (url) => {
      const address = freshAddress();
      expect(await result(url, 'chain_faucetClaim', [address])).toEqual({ amount: FAUCET_AMOUNT });
      // The credit still arrives with the next block.
      await eventually('the faucet credit', async () => (asObject(await result(url, 'chain_getAccount', [address]), 'account').balance === FAUCET_AMOUNT ? true : undefined));
    });
  });

  modeTest('error-data-string', async () => {
    await withVarying(['error-data-string'], async (url) => {
      const far = await errorOf(url, 'chain_getBlockByHeight', [FAR_HEIGHT]);
      expect(far.code).toBe(-32001);
      expect(far.data).toMatch(new RegExp(`^no block at height ${FAR_HEIGHT}; the latest is \\d+$`));
      expect((await errorOf(url, 'chain_nope')).data).toBe('this node has no method named "chain_nope"');
      const invalid = await errorOf(url, 'chain_getBlockByHeight', [-1]);
      expect(invalid.data).toBe(asObject((await errorOf(node.url, 'chain_getBlockByHeight', [-1])).data, 'data').reason);
    });
  });

  modeTest('error-data-absent', async () => {
    await withVarying(['error-data-absent'], async (url) => {
      expect(await errorOf(url, 'chain_getBlockByHeight', [FAR_HEIGHT])).toEqual({ code: -32001, message: 'Block not found' });
      expect(asObject((await post(`${url}/rpc`, '{')).body, 'answer')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      expect(await result(url, 'chain_health')).toEqual(await direct('chain_health'));
    });
  });

  modeTest('hex-quantities', async () => {
    await withVarying(['hex-quantities'], async (url) => {
      const hex = /^0x(0|[1-9a-f][0-9a-f]*)$/;
      expect(await result(url, 'chain_blockNumber')).toMatch(hex);
      expect(await result(url, 'net_peerCount')).toBe('0x1');
      const block = asObject(await direct('chain_getBlockByHeight', [1]), 'block');
      const encoded = { ...block, height: '0x1', timestamp: `0x${Number(block.timestamp).toString(16)}`, transaction_count: `0x${Number(block.transaction_count).toString(16)}` };
      expect(await result(url, 'chain_getBlockByHeight', [1])).toEqual(encoded);
      // A height may be given as a hex quantity.
      expect(await result(url, 'chain_getBlockByHeight', ['0x1'])).toEqual(encoded);
      expect(await result(url, 'chain_getAccount', [freshAddress()])).toEqual({ balance: '0', nonce: '0x0' });
      expect(asObject(await result(url, 'chain_health'), 'health').chain_id).toBe('0x1');
      expect(asObject(await result(url, 'chain_pouLocal'), 'pou').local_score).toMatch(hex);
      for (const score of Object.values(asObject(asObject(await result(url, 'chain_pouPeers'), 'pouPeers').peers, 'peers'))) expect(score).toMatch(hex);
      // Not inside error data.
      expect(asObject((await errorOf(url, 'chain_getBlockByHeight', [FAR_HEIGHT])).data, 'data').height).toBe(FAR_HEIGHT);
    });
  });

  modeTest('string-identifiers', async () => {
    await withVarying(['string-identifiers'], async (url) => {
      const leader = asObject(await direct('chain_pouLocal'), 'pou').leader as string;
      expect(asObject(await result(url, 'chain_pouLocal'), 'pou').leader).toBe(`node-${leader.slice(0, 16)}`);
      const ids = Object.keys(asObject(asObject(await direct('chain_pouPeers'), 'pouPeers').peers, 'peers'));
      expect(Object.keys(asObject(asObject(await result(url, 'chain_pouPeers'), 'pouPeers').peers, 'peers'))).toEqual(ids.map((id) => `node-${id.slice(0, 16)}`));
      // A block's proposer stays 64 hex (the spec says so for it).
      expect(await result(url, 'chain_getBlockByHeight', [1])).toEqual(await direct('chain_getBlockByHeight', [1]));
    });
  });

  modeTest('float-scores', async () => {
    await withVarying(['float-scores'], async (url) => {
      const pou = asObject(await result(url, 'chain_pouLocal'), 'pou');
      // Scores move with use, so the check is on the form: an integer plus one half.
      expect(Number(pou.local_score) % 1).toBe(0.5);
      expect(pou.leader).toBe(asObject(await direct('chain_pouLocal'), 'pou').leader);
      const scores = Object.values(asObject(asObject(await result(url, 'chain_pouPeers'), 'pouPeers').peers, 'peers'));
      expect(scores).toHaveLength(1);
      for (const score of scores) expect(Number(score) % 1).toBe(0.5);
    });
  });

  modeTest('pou-other-types', async () => {
    await withVarying(['pou-other-types'], async (url) => {
      const pou = asObject(await result(url, 'chain_pouLocal'), 'pou');
      expect(pou.local_score).toMatch(/^[0-9]+$/);
      expect(pou.leader).toEqual({ id: asObject(await direct('chain_pouLocal'), 'pou').leader });
      // Peers' scores stay numbers: the spec says they are orderable numbers.
      for (const score of Object.values(asObject(asObject(await result(url, 'chain_pouPeers'), 'pouPeers').peers, 'peers'))) expect(typeof score).toBe('number');
    });
  });

  modeTest('tx-hex-code', async () => {
    await withVarying(['tx-hex-code'], async (url) => {
      expect((await errorOf(node.url, 'chain_sendRawTransaction', ['zz'])).code).toBe(-32602);
      const notHex = await errorOf(url, 'chain_sendRawTransaction', ['zz']);
      expect(notHex.code).toBe(-32002);
      expect(notHex.message).toBe('Transaction malformed');
      expect((await errorOf(url, 'chain_sendRawTransaction', ['abc'])).code).toBe(-32002);
      // Other -32602 refusals, and upstream's own -32002, as they were.
      expect(await errorOf(url, 'chain_sendRawTransaction', [])).toEqual(await errorOf(node.url, 'chain_sendRawTransaction', []));
      expect(await errorOf(url, 'chain_sendRawTransaction', [5])).toEqual(await errorOf(node.url, 'chain_sendRawTransaction', [5]));
      expect(await errorOf(url, 'chain_sendRawTransaction', ['abcd'])).toEqual(await errorOf(node.url, 'chain_sendRawTransaction', ['abcd']));
    });
  });

  modeTest('admits-overspends', async () => {
    await withVarying(['admits-overspends'], async (url) => {
      // An empty key sending 1: the reference node refuses it (-32007); this node answers its hash.
      const empty = generateKeypair();
      const to = generateKeypair().address;
      const wire = signTransaction({ chainId: 1n, to, value: 1n, nonce: 0n, fee: FEE }, empty.privateKey).wire;
      expect((await errorOf(node.url, 'chain_sendRawTransaction', [wire])).code).toBe(-32007);
      const answer = await result(url, 'chain_sendRawTransaction', [wire]);
      expect(answer).toBe(signTransaction({ chainId: 1n, to, value: 1n, nonce: 0n, fee: FEE }, empty.privateKey).hash);
      // Other refusals as they were.
      expect(await errorOf(url, 'chain_sendRawTransaction', ['abcd'])).toEqual(await errorOf(node.url, 'chain_sendRawTransaction', ['abcd']));
    });
  });

  modeTest('lenient-params', async () => {
    await withVarying(['lenient-params'], async (url) => {
      const block = await direct('chain_getBlockByHeight', [1]);
      const account = await direct('chain_getAccount', [funded.address]);
      // Each of these is -32602 straight from the reference node.
      const lenient: [string, JsonValue, JsonValue][] = [
        ['chain_getBlockByHeight', [1, 'extra'], block],
        ['chain_getBlockByHeight', { height: 1 }, block],
        ['chain_getBlockByHeight', ['1'], block],
        ['chain_getBlockByHeight', ['0x1'], block],
        ['chain_getAccount', { address: funded.address }, account],
        ['chain_getAccount', [`0x${funded.address}`], account],
        ['chain_getAccount', [`0X${funded.address}`, true], account],
        ['chain_health', [1, 2], await direct('chain_health')],
        ['chain_health', {}, await direct('chain_health')],
      ];
      for (const [method, params, expected] of lenient) {
        expect((await errorOf(node.url, method, params)).code).toBe(-32602);
        expect(await result(url, method, params)).toEqual(expected);
      }
      expect(asObject(await result(url, 'chain_faucetClaim', { address: `0x${freshAddress()}` }), 'claim').amount).toBe(FAUCET_AMOUNT);
      // The 0x comes off a transaction too: what is left is judged as a transaction (-32002), not as a bad param.
      expect((await errorOf(url, 'chain_sendRawTransaction', ['0Xabcd'])).code).toBe(-32002);
      expect((await errorOf(url, 'chain_getBlockByHeight', [-1])).code).toBe(-32602);
    });
  });

  modeTest('health-values', async () => {
    await withVarying(['health-values'], async (url) => {
      expect(await direct('chain_health')).toEqual({ status: 'ok', mode: 'MN', chain_id: 1 });
      expect(await result(url, 'chain_health')).toEqual({ status: 'healthy', mode: 'validator', chain_id: 1 });
    });
    await withVarying(['health-values'], async (url) => {
      const health = asObject(await result(url, 'chain_health'), 'health');
      expect(health.mode).toBe('full');
      expect(['healthy', 'catching_up']).toContain(health.status);
    }, peer.url);
  });

  modeTest('notifications-200', async () => {
    await withVarying(['notifications-200'], async (url) => {
      expect((await rpc(node.url, notification('chain_health'))).status).toBe(204);
      for (const body of [notification('chain_health'), [notification('chain_health'), notification('chain_blockNumber')]]) {
        const reply = await rpc(url, body);
        expect(reply.status).toBe(200);
        expect(reply.text).toBe('');
      }
      const call = await rpc(url, request('chain_health'));
      expect(call.status).toBe(200);
      expect(asObject(call.body, 'answer').result).toEqual(await direct('chain_health'));
    });
  });

  modeTest('error-statuses', async () => {
    await withVarying(['error-statuses'], async (url) => {
      const parse = await post(`${url}/rpc`, '{');
      expect(parse.status).toBe(400);
      expect(asObject(asObject(parse.body, 'answer').error, 'error').code).toBe(-32700);
      expect((await rpc(url, { jsonrpc: '2.0', id: 1 })).status).toBe(400);
      expect((await rpc(url, [])).status).toBe(400);
      const unknown = await rpc(url, request('chain_nope'));
      expect(unknown.status).toBe(404);
      expect(asObject(asObject(unknown.body, 'answer').error, 'error').code).toBe(-32601);
      // Other codes, batches, results and notifications keep their status.
      expect((await rpc(url, request('chain_getBlockByHeight', [FAR_HEIGHT]))).status).toBe(200);
      expect((await rpc(url, request('chain_getBlockByHeight', [-1]))).status).toBe(200);
      expect((await rpc(url, [request('chain_nope', [], 1), request('chain_nope', [], 2)])).status).toBe(200);
      expect((await rpc(url, request('chain_health'))).status).toBe(200);
      expect((await rpc(url, notification('chain_nope'))).status).toBe(204);
    });
    // -32603: the reference node gives none on its own, so a stub upstream answers it.
    const internal = '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error","data":{"reason":"stub"}}}';
    const stub = await startStub((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(internal);
    });
    try {
      await withVarying(['error-statuses'], async (url) => {
        const reply = await rpc(url, request('chain_health'));
        expect(reply.status).toBe(500);
        expect(reply.text).toBe(internal);
      }, stub.url);
    } finally {
      await stub.close();
    }
  });

  modeTest('text-plain-served', async () => {
    await withVarying(['text-plain-served'], async (url) => {
      const body = stringifyJson(request('chain_health'));
      expect((await post(`${node.url}/rpc`, body, 'text/plain')).status).toBe(415);
      for (const type of ['text/plain', 'text/plain; charset=utf-8', undefined]) {
        const reply = await post(`${url}/rpc`, new TextEncoder().encode(body), type);
        expect(reply.status).toBe(200);
        expect(asObject(reply.body, 'answer').result).toEqual(await direct('chain_health'));
      }
      expect((await post(`${url}/rpc`, body, 'application/xml')).status).toBe(415);
    });
  });

  modeTest('small-limits', async () => {
    await withVarying(['small-limits'], async (url) => {
      const batch = (n: number): JsonObject[] => Array.from({ length: n }, (_, i) => request('chain_blockNumber', [], i));
      const over = await rpc(url, batch(51));
      expect(over.status).toBe(200);
      expect(over.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } });
      expect((await rpc(url, batch(50))).body).toHaveLength(50);
      const big = stringifyJson({ ...request('chain_health'), padding: 'x'.repeat(70_000) });
      expect((await post(`${node.url}/rpc`, big)).status).toBe(200);
      const refused = await post(`${url}/rpc`, big);
      expect(refused.status).toBe(413);
      expect(refused.text).toBe('');
      // No declared length (chunked): refused once the body grows past the limit.
      expect(await postChunked(`${url}/rpc`, 8, 10_000)).toBe(413);
      expect(await postChunked(`${url}/rpc`, 1, 100)).toBe(200);
    });
  });

  modeTest('batch-refused-per-call', async () => {
    await withVarying(['batch-refused-per-call'], async (url) => {
      const batch = (n: number): JsonObject[] => Array.from({ length: n }, (_, i) => request('chain_blockNumber', [], i));
      const over = await rpc(url, batch(51));
      expect(over.status).toBe(200);
      expect(over.body).toEqual(batch(51).map((r) => ({ jsonrpc: '2.0', id: r.id, error: { code: -32600, message: 'batch too large' } })));
      expect((await rpc(url, batch(50))).body).toHaveLength(50);
    });
  });

  modeTest('tiny-batches', async () => {
    await withVarying(['tiny-batches'], async (url) => {
      const batch = (n: number): JsonObject[] => Array.from({ length: n }, (_, i) => request('chain_blockNumber', [], i));
      expect((await rpc(url, batch(3))).body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32070, message: 'Batch too large' } });
      expect((await post(`${url}/rpc`, '[1,2,3]')).text).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32070,"message":"Batch too large"}}');
      expect((await rpc(url, batch(2))).body).toHaveLength(2);
    });
  });

  modeTest('no-discover', async () => {
    await withVarying(['no-discover'], async (url) => {
      expect(asObject(await direct('rpc.discover'), 'OpenRPC document').openrpc).toBeDefined();
      const refused = await errorOf(url, 'rpc.discover', [], 'd-1');
      expect(refused.code).toBe(-32601);
      expect(await result(url, 'chain_health')).toEqual(await direct('chain_health'));
    });
  });

  modeTest('genesis-parent-empty', async () => {
    await withVarying(['genesis-parent-empty'], async (url) => {
      const genesis = asObject(await direct('chain_getBlockByHeight', [0]), 'genesis');
      expect(await result(url, 'chain_getBlockByHeight', [0])).toEqual({ ...genesis, parent_hash: '' });
      // Every other block keeps its parent's hash.
      expect(await result(url, 'chain_getBlockByHeight', [txHeight])).toEqual(await direct('chain_getBlockByHeight', [txHeight]));
    });
    // With camelCase keys too: the key is found in its spelling.
    await withVarying(['genesis-parent-empty', 'camel-keys'], async (url) => {
      expect(asObject(await result(url, 'chain_getBlockByHeight', [0]), 'genesis').parentHash).toBe('');
    });
  });

  modeTest('hex-peer-count', async () => {
    await withVarying(['hex-peer-count'], async (url) => {
      expect(await result(url, 'net_peerCount')).toBe('0x1');
      expect(await result(url, 'chain_blockNumber')).toEqual(expect.any(Number));
      expect(asObject(await result(url, 'chain_getAccount', [freshAddress()]), 'account').nonce).toBe(0);
      const batch = await rpc(url, [request('net_peerCount', [], 'p'), request('chain_blockNumber', [], 'n')]);
      const byId = new Map((batch.body as JsonObject[]).map((a) => [a.id, a]));
      expect([byId.get('p')?.result, typeof byId.get('n')?.result]).toEqual(['0x1', 'number']);
    });
  });

  modeTest('genesis-above-2-53', async () => {
    await withVarying(['genesis-above-2-53'], async (url) => {
      const shift = (1n << 53n) + 3n;
      const before = BigInt(await direct('chain_blockNumber') as number);
      // Read without loss: heights beyond 2^53 are bigints here, and are written as exact JSON integers.
      expect(await result(url, 'chain_blockNumber')).toBeGreaterThanOrEqual(before + shift);
      const genesis = asObject(await direct('chain_getBlockByHeight', [0]), 'genesis');
      expect(await result(url, 'chain_getBlockByHeight', [shift])).toEqual({ ...genesis, height: shift });
      const below = await errorOf(url, 'chain_getBlockByHeight', [shift - 1n]);
      expect([below.code, asObject(below.data, 'data').height]).toEqual([-32001, shift - 1n]);
      expect((await rpc(url, request('chain_getBlockByHeight', [shift]))).text).toContain(`"height":${shift}`);
    });
  });

  modeTest('hash-prefix', async () => {
    await withVarying(['hash-prefix'], async (url) => {
      const block = asObject(await direct('chain_getBlockByHeight', [txHeight]), 'block');
      expect((block.transactions as string[]).length).toBeGreaterThan(0);
      expect(await result(url, 'chain_getBlockByHeight', [txHeight])).toEqual({
        ...block,
        hash: `0x${block.hash as string}`,
        parent_hash: `0x${block.parent_hash as string}`,
        transactions: (block.transactions as string[]).map((t) => `0x${t}`),
      });
      expect(asObject(await result(url, 'chain_getBlockByHeight', [0]), 'genesis').parent_hash).toBe(`0x${'0'.repeat(64)}`);
      const tx = nextTransfer();
      expect(await result(url, 'chain_sendRawTransaction', [tx.wire])).toBe(`0x${tx.hash}`);
      const claim = asObject(await result(url, 'chain_faucetClaim', [freshAddress()]), 'claim');
      expect(claim.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
      // Addresses and identifiers keep no prefix.
      expect(asObject(await result(url, 'chain_pouLocal'), 'pou').leader).toMatch(HEX64_LOWER);
    });
  });

  modeTest('faucet-hash', async () => {
    await withVarying(['faucet-hash'], async (url) => {
      const address = freshAddress();
      const hash = await result(url, 'chain_faucetClaim', [address]);
      expect(hash).toMatch(HEX64_LOWER);
      await eventually('the faucet credit', async () => (asObject(await result(url, 'chain_getAccount', [address]), 'account').balance === FAUCET_AMOUNT ? true : undefined));
    });
  });

  modeTest('block-transaction-objects', async () => {
    await withVarying(['block-transaction-objects'], async (url) => {
      const upstream = asObject(await direct('chain_getBlockByHeight', [txHeight]), 'block with a transaction');
      const block = asObject(await result(url, 'chain_getBlockByHeight', [txHeight]), 'block');
      expect(block.transactions).toEqual((upstream.transactions as JsonValue[]).map((hash) => ({ hash, kind: 'transfer' })));
      expect(block.transaction_count).toBe(upstream.transaction_count);
    });
  });

  modeTest('peer-count-object', async () => {
    await withVarying(['peer-count-object'], async (url) => {
      expect(await result(url, 'net_peerCount')).toEqual({ count: await direct('net_peerCount'), max: 50 });
      expect(await result(url, 'chain_blockNumber')).toEqual(expect.any(Number));
    });
  });

  modeTest('peer-count-decimal', async () => {
    const count = await direct('net_peerCount');
    expect(count).toEqual(expect.any(Number));
    await withVarying(['peer-count-decimal'], async (url) => {
      expect(await result(url, 'net_peerCount')).toBe(`${count as number}`);
      expect(await result(url, 'chain_blockNumber')).toEqual(expect.any(Number));
    });
    // Under hex-quantities too: the count stays a decimal string.
    await withVarying(['peer-count-decimal', 'hex-quantities'], async (url) => {
      expect(await result(url, 'net_peerCount')).toBe(`${count as number}`);
      expect(await result(url, 'chain_blockNumber')).toMatch(/^0x[0-9a-f]+$/);
    });
  });

  modeTest('faucet-renamed', async () => {
    await withVarying(['faucet-renamed'], async (url) => {
      const claim = asObject(await result(url, 'chain_faucet', [freshAddress()]), 'claim');
      expect(claim.amount).toBe(FAUCET_AMOUNT);
      expect((await errorOf(url, 'chain_faucetClaim', [freshAddress()], 'f-1')).code).toBe(-32601);
      const names = (asObject(await result(url, 'rpc.discover'), 'OpenRPC document').methods as JsonObject[]).map((m) => m.name);
      expect(names).toContain('chain_faucet');
      expect(names).not.toContain('chain_faucetClaim');
    });
    // Under method-prefix's names: acme_faucet.
    await withVarying(['faucet-renamed', 'method-prefix'], async (url) => {
      expect(asObject(await result(url, 'acme_faucet', [freshAddress()]), 'claim').amount).toBe(FAUCET_AMOUNT);
      expect((await errorOf(url, 'acme_faucetClaim', [freshAddress()])).code).toBe(-32601);
    });
  });

  modeTest('prefix-unlisted', async () => {
    await withVarying(['prefix-unlisted'], async (url) => {
      const address = freshAddress();
      expect(await result(url, 'nova_getAccount', [address])).toEqual(await direct('chain_getAccount', [address]));
      expect(await result(url, 'net_peerCount')).toBe(1);
      for (const [method, id] of [['chain_getAccount', 'u-1'], ['rpc.discover', 'u-2'], ['acme_getAccount', 'u-3'], ['nova_nothing', 'u-4']] as const) {
        const refused = await errorOf(url, method, [], id);
        expect([method, refused.code]).toEqual([method, -32601]);
      }
      // A batch: the refused call answered here, the rest by upstream, a notification for a name it lacks gets nothing.
      const batch = await rpc(url, [request('nova_blockNumber', [], 1), request('chain_blockNumber', [], 2), notification('chain_health')]);
      const byId = new Map((batch.body as JsonObject[]).map((a) => [a.id, a]));
      expect([byId.size, typeof byId.get(1)?.result, asObject(byId.get(2)?.error, 'error').code]).toEqual([2, 'number', -32601]);
      const all = await rpc(url, [request('chain_blockNumber', [], 1)]);
      // Every call of a batch refused here: the answer is still an array.
      const [only, ...rest] = all.body as JsonObject[];
      expect([rest.length, only?.id, asObject(only?.error, 'error').code]).toEqual([0, 1, -32601]);
      expect((await rpc(url, notification('rpc.discover'))).status).toBe(204);
    });
    await expect(startVaryingNode(node.url, ['prefix-unlisted', 'method-prefix'])).rejects.toThrow(/method-prefix and prefix-unlisted cannot be made at once/);
  });

  it('every variation has a test', () => {
    expect([...tested].sort()).toEqual(Object.keys(VARIATIONS).sort());
  });

  it('modes compose: path-root + camel-keys + genesis-at-1 + upper-hex + hex-quantities + unknown-account-error', async () => {
    await withVarying(['path-root', 'camel-keys', 'genesis-at-1', 'upper-hex', 'hex-quantities', 'unknown-account-error'], async (url) => {
      expect((await rpc(url, request('chain_health'))).status).toBe(404);
      const genesis = asObject(await direct('chain_getBlockByHeight', [0]), 'genesis');
      const first = asObject(await direct('chain_getBlockByHeight', [txHeight]), 'block with a transaction');
      const reply = await rpc(url, [request('chain_getBlockByHeight', ['0x1'], 'g'), request('chain_getBlockByHeight', [txHeight + 1], 'b'), request('chain_getAccount', [freshAddress()], 'a'), request('chain_blockNumber', [], 'n')], '/');
      const byId = new Map((reply.body as JsonObject[]).map((a) => [a.id, a]));
      // Asked as hex for height 1: upstream's genesis, its height shifted, then hex, upper-case and camelCase.
      expect(byId.get('g')?.result).toEqual({
        height: '0x1',
        hash: (genesis.hash as string).toUpperCase(),
        parentHash: '0'.repeat(64),
        timestamp: '0x0',
        proposer: '0'.repeat(64),
        transactionCount: '0x0',
        transactions: [],
      });
      expect(byId.get('b')?.result).toEqual({
        height: `0x${(txHeight + 1).toString(16)}`,
        hash: (first.hash as string).toUpperCase(),
        parentHash: (first.parent_hash as string).toUpperCase(),
        timestamp: `0x${Number(first.timestamp).toString(16)}`,
        proposer: (first.proposer as string).toUpperCase(),
        transactionCount: `0x${Number(first.transaction_count).toString(16)}`,
        transactions: (first.transactions as string[]).map((t) => t.toUpperCase()),
      });
      expect(asObject(byId.get('a')?.error, 'error').code).toBe(-32040);
      expect(Number(byId.get('n')?.result)).toBeGreaterThanOrEqual(txHeight + 1);
      // Error data keeps plain numbers, shifted: height 0 is below this chain.
      const zero = asObject(await rpc(url, request('chain_getBlockByHeight', [0]), '/').then((r) => r.body), 'answer');
      const data = asObject(asObject(zero.error, 'error').data, 'data');
      expect(data.height).toBe(0);
      expect(typeof data.latest).toBe('number');
      const pou = asObject(await result(url, 'chain_pouLocal', [], '/'), 'pou');
      expect(Object.keys(pou).sort()).toEqual(['leader', 'localIsLeader', 'localScore']);
      expect(pou.leader).toMatch(HEX64_UPPER);
      expect(pou.localScore).toMatch(/^0x[0-9a-f]+$/);
    });
  });
});

/** A stub upstream on loopback for answers the reference node never gives. */
async function startStub(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handle(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A POST declaring `length` bytes with Expect: 100-continue: the body (a call padded with spaces) is sent
 * only if the server says continue, so a refusal never races a half-sent body. Resolves with the status.
 */
function postDeclared(url: string, length: number): Promise<number> {
  const call = stringifyJson(request('chain_health'));
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': length, expect: '100-continue' }, timeout: CALL_TIMEOUT_MS }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('continue', () => req.end(' '.repeat(length - call.length) + call));
  });
}

/** A POST with a chunked body (no declared length) of `count` chunks of `size` bytes; resolves with the status. */
function postChunked(url: string, count: number, size: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, timeout: CALL_TIMEOUT_MS }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    // The server may hang up while the rest of a refused body is still being written: the status already says it all.
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timed out')));
    // Leading whitespace is still JSON, so a small enough body is an ordinary call.
    for (let i = 0; i < count; i++) req.write(' '.repeat(size));
    req.end(stringifyJson(request('chain_health')));
  });
}
