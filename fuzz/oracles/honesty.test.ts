/**
 * The oracles against the honest reference node: a real node in process on loopback, ~200 hand-written
 * requests over real HTTP (valid calls of every method, invalid params, envelope oddities, batches,
 * notifications, HTTP variations), and not one violation. The reference node implements JSON-RPC 2.0 and the
 * reference profile exactly, so a violation here means the oracles' model is wrong (docs: ARCHITECTURE.md,
 * "the proof": the checker is held to the honest node before it is trusted on others).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../core/client/index.js';
import type { RpcClient } from '../../core/client/index.js';
import { TransportError } from '../../core/client/TransportError.js';
import type { Profile } from '../../profile/Profile.js';
import { startTestNode, testProfile } from '../../test/support/suites.js';
import type { TestNode } from '../../test/support/suites.js';
import type { FuzzAnswer, FuzzHttp } from '../model.js';
import { judge } from './judge.js';
import { slowBoundMs } from './slowBound.js';

const LIMITS = { maxBatch: 10, maxBodyBytes: 64 * 1024 };

let node: TestNode;
let client: RpcClient;
let profile: Profile;

beforeAll(async () => {
  node = await startTestNode(LIMITS);
  profile = testProfile(LIMITS);
  client = createClient({ baseUrl: node.url, rpcPath: profile.rpcPath, connections: 2, maxResponseBytes: 4 * 1024 * 1024 });
});
afterAll(async () => {
  await client.close();
  await node.stop();
});

/** Sends a request as exact bytes and returns what came back (as the fuzzer's runner does). */
async function send(http: FuzzHttp): Promise<FuzzAnswer> {
  const t0 = performance.now();
  const exact = http.omitContentLength === true || http.body.length > LIMITS.maxBodyBytes;
  try {
    const r = await client.raw({
      method: http.method,
      body: http.body.length === 0 && http.method !== 'POST' ? undefined : http.body,
      headers: http.contentType === undefined ? {} : { 'content-type': http.contentType },
      timeoutMs: 10_000,
      ...(exact ? { exact: true, omitContentLength: http.omitContentLength === true } : {}),
    });
    return { status: r.status, headers: { ...r.headers }, text: r.text, ms: performance.now() - t0 };
  } catch (err) {
    if (err instanceof TransportError) return { failure: { code: err.code, message: err.message }, ms: performance.now() - t0 };
    throw err;
  }
}

const bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');
const post = (body: string | Uint8Array, over: Partial<FuzzHttp> = {}): FuzzHttp => ({ method: 'POST', contentType: 'application/json', body: typeof body === 'string' ? bytes(body) : body, ...over });
const call = (method: string, params: string | undefined, id?: string): string =>
  `{"jsonrpc":"2.0","method":${JSON.stringify(method)}${params === undefined ? '' : `,"params":${params}`}${id === undefined ? '' : `,"id":${id}`}}`;

/** Transactions signed with the profile's codec, for chain_sendRawTransaction. */
function transactions(): Record<string, string> {
  const codec = profile.codec;
  const key = codec.newKey();
  const to = codec.newKey().address;
  const tx = { chainId: 1n, to, value: 0n, nonce: 0n, fee: 0n };
  const crafted = codec.crafted;
  if (crafted === undefined) throw new Error('the reference codec crafts bad transactions');
  return {
    free: codec.sign(key.privateKey, tx).wire,
    gap: codec.sign(codec.newKey().privateKey, { ...tx, nonce: 5n }).wire,
    wrongChain: codec.sign(codec.newKey().privateKey, { ...tx, chainId: 2n }).wire,
    overspend: codec.sign(codec.newKey().privateKey, { ...tx, value: 10n ** 30n }).wire,
    badSignature: crafted.badSignature(codec.newKey().privateKey, tx),
    smallOrderR: crafted.smallOrderR(codec.newKey().privateKey, tx),
    overflow: crafted.overflow(codec.newKey().privateKey, tx),
    wrongLength: crafted.wrongLength(codec.newKey().privateKey, tx),
  };
}

/** ~200 requests: every method, good and bad params, envelope oddities, batches, notifications, HTTP variations. */
function requests(): [string, FuzzHttp][] {
  const fresh = (): string => profile.codec.newKey().address;
  const a = fresh();
  const tx = transactions();
  const ids = ['1', '0', '-1', '42', '"42"', '""', '"chainrpc-7"', 'null', '1.5', '0.1', '-0', '1E2', '1e20', '9007199254740993', '-9007199254740993', '18446744073709551616', '"ünï\\u0000"', `"${'x'.repeat(500)}"`];
  const list: [string, string | FuzzHttp][] = [];
  const add = (name: string, body: string | FuzzHttp): void => void list.push([name, body]);

  // Valid calls of every method, with every kind of id.
  for (const [i, id] of ids.entries()) add(`chain_blockNumber id ${id}`, call(['chain_blockNumber', 'chain_health', 'net_peerCount'][i % 3] ?? 'chain_blockNumber', '[]', id));
  for (const m of ['chain_health', 'chain_blockNumber', 'chain_pouLocal', 'chain_pouPeers', 'net_peerCount', 'rpc.discover']) add(`${m} []`, call(m, '[]', '1'));
  for (const h of ['0', '1', '2', '1000000', '18446744073709551615', '9007199254740993', '1.0', '0e0']) add(`chain_getBlockByHeight [${h}]`, call('chain_getBlockByHeight', `[${h}]`, '2'));
  for (const addr of [a, a.toUpperCase(), fresh(), '0'.repeat(64)]) add(`chain_getAccount [${addr.slice(0, 8)}…]`, call('chain_getAccount', `["${addr}"]`, '3'));
  const claimed = fresh();
  add('chain_faucetClaim [fresh]', call('chain_faucetClaim', `["${claimed}"]`, '4'));
  add('chain_faucetClaim [same again: over the limit]', call('chain_faucetClaim', `["${claimed}"]`, '5'));
  for (const [name, wire] of Object.entries(tx)) add(`chain_sendRawTransaction ${name}`, call('chain_sendRawTransaction', `["${wire}"]`, '6'));
  add('chain_sendRawTransaction free again (duplicate)', call('chain_sendRawTransaction', `["${tx.free ?? ''}"]`, '7'));
  add('chain_sendRawTransaction [00]', call('chain_sendRawTransaction', '["00"]', '8'));
  add('chain_sendRawTransaction upper-case hex', call('chain_sendRawTransaction', `["${(tx.gap ?? '').toUpperCase()}"]`, '9'));

  // Invalid params.
  for (const p of ['[-1]', '[1.5]', '["one"]', '[]', '[0,0]', '["0"]', '["0x1"]', '[null]', '[{}]', '[[1]]', '[18446744073709551616]', '[true]', '{"height":0}', '{}', '[-0.5]', '[1e400]']) add(`chain_getBlockByHeight ${p}`, call('chain_getBlockByHeight', p, '10'));
  for (const p of [`["${a.slice(1)}"]`, `["zz${a.slice(2)}"]`, '[12345]', '[]', `["${a}","${a}"]`, `["0x${a}"]`, `{"address":"${a}"}`, '{}', `{"address":"${a}","x":1}`, '[""]', `["${a} "]`]) add(`chain_getAccount ${p.slice(0, 20)}`, call('chain_getAccount', p, '11'));
  for (const p of ['["zz"]', '["abc"]', '[]', '[12345]', '["0x00"]', `["${tx.free ?? ''}","extra"]`, '[""]', '[null]', `{"signed_transaction":"00"}`]) add(`chain_sendRawTransaction ${p.slice(0, 20)}`, call('chain_sendRawTransaction', p, '12'));
  for (const p of ['[null]', '[]', `["${a.slice(1)}"]`, `["0x${fresh()}"]`]) add(`chain_faucetClaim ${p.slice(0, 20)}`, call('chain_faucetClaim', p, '13'));
  for (const m of ['chain_blockNumber', 'chain_health', 'chain_pouLocal', 'chain_pouPeers', 'net_peerCount', 'rpc.discover']) {
    for (const p of ['[1]', '["latest"]', '{}', '{"a":1}', '[null]']) add(`${m} ${p}`, call(m, p, '14'));
  }
  add('chain_blockNumber without params', call('chain_blockNumber', undefined, '15'));
  add('chain_getAccount without params', call('chain_getAccount', undefined, '16'));

  // Bodies that are not JSON, values that are not requests, invalid request objects.
  for (const body of ['{"jsonrpc":', '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]', `${call('chain_blockNumber', '[]', '1')}x`, `${call('chain_blockNumber', '[]', '1')}${call('chain_blockNumber', '[]', '2')}`, call('chain_blockNumber', '[]', '1').slice(0, -1), '', '   \n', 'nul', 'NaN', "{'a':1}", '[1,]', '{"a":1,}', '"\\x"', '01', '\u0000']) add(`not JSON: ${JSON.stringify(body.slice(0, 30))}`, body);
  add('a byte order mark', post(`\uFEFF${call('chain_blockNumber', '[]', '1')}`));
  add('invalid UTF-8', post(new Uint8Array([...bytes('{"jsonrpc":"2.0","method":"chain_getAccount","params":["'), 0xff, 0xfe, ...bytes('"],"id":1}')])));
  add('a lone surrogate escape', call('chain_getAccount', '["\\ud800"]', '1'));
  add('nested 600 deep', `${'['.repeat(600)}${']'.repeat(600)}`);
  add('nested 100000 deep (over the body limit)', `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
  add('nested 30000 deep', `${'['.repeat(30_000)}${']'.repeat(30_000)}`);
  add('objects nested 513 deep', `${'{"a":'.repeat(513)}1${'}'.repeat(513)}`);
  add('params nested 300 deep', call('chain_getAccount', `[${'['.repeat(300)}${']'.repeat(300)}]`, '1'));
  for (const body of ['1', '"x"', 'true', 'null', '[]', '[1]', '[1,2,3]', '[null]', '[[]]', '[{}]', '{}']) add(`not a request: ${body}`, body);
  const bad = ['{"foo":"bar"}', '{"jsonrpc":"1.0","method":"chain_blockNumber","params":[],"id":3}', '{"method":"chain_blockNumber","params":[],"id":4}', '{"jsonrpc":2.0,"method":"chain_blockNumber","params":[],"id":5}',
    '{"jsonrpc":"2.0","method":1,"params":"bar"}', '{"jsonrpc":"2.0","method":1,"params":[],"id":5}', '{"jsonrpc":"2.0","method":null,"id":6}', '{"jsonrpc":"2.0","method":"chain_blockNumber","params":"bar","id":7}',
    '{"jsonrpc":"2.0","method":"chain_blockNumber","params":null,"id":8}', '{"jsonrpc":"2.0","method":"chain_blockNumber","params":1}', '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":{}}',
    '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":[1]}', '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":true}', '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1e400}',
    '{"jsonrpc":"2.0 ","method":"chain_blockNumber","params":[],"id":9}', '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":10,"extra":true}'];
  for (const body of bad) add(`request object ${body.slice(0, 50)}`, body);
  for (const m of ['chainrpc_noSuchMethod', '', '__proto__', 'toString', 'constructor', 'rpc.foo', 'rpc.', 'CHAIN_BLOCKNUMBER', 'chain_blockNumber ', 'at handle (/srv/app/server.js:12:7)', 'TypeError: x']) add(`unknown method ${JSON.stringify(m)}`, call(m, '[]', '"m"'));

  // Notifications.
  for (const [m, p] of [['chain_blockNumber', '[]'], ['chainrpc_noSuchMethod', '[]'], ['chain_getBlockByHeight', '["one"]'], ['chain_getAccount', `{"address":"${a}"}`], ['chain_health', undefined]] as const) add(`notification ${m}`, call(m, p));

  // Duplicate member names.
  add('duplicate method', '{"jsonrpc":"2.0","method":"chain_getAccount","method":"chain_blockNumber","params":[],"id":1}');
  add('duplicate id', '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1,"id":"two"}');
  add('duplicate params', '{"jsonrpc":"2.0","method":"chain_getBlockByHeight","params":[0],"params":["x"],"id":1}');
  add('duplicate jsonrpc', '{"jsonrpc":"1.0","jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1}');
  add('duplicate in by-name params', `{"jsonrpc":"2.0","method":"chain_getAccount","params":{"address":"x","address":"${a}"},"id":1}`);
  add('duplicate in a batch element', `[{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"params":[1],"id":1},${call('chain_health', '[]', '2')}]`);

  // Batches.
  const bn = (id: number): string => call('chain_blockNumber', '[]', String(id));
  add('batch of one', `[${bn(11)}]`);
  add('mixed batch (§7)', `[${call('chain_blockNumber', '[]', '"1"')},${call('chain_blockNumber', '[]')},${call('chain_getBlockByHeight', '[0]', '"2"')},{"foo":"boo"},${call('chainrpc_noSuchMethod', '[]', '"5"')},${call('chain_health', '[]', '"9"')}]`);
  add('batch with duplicate ids', `[${bn(1)},${bn(1)},${call('chain_getBlockByHeight', '[-1]', '1')}]`);
  add('batch with null ids', `[${call('chain_blockNumber', '[]', 'null')},{"jsonrpc":"1.0","method":"x","id":2},1,${call('chain_health', '[]', 'null')}]`);
  add('batch of notifications', `[${call('chain_blockNumber', '[]')},${call('chain_health', '[]')}]`);
  add('batch of invalid elements', '[1,"x",null,[],{},{"jsonrpc":"2.0"}]');
  add('batch at maxBatch', `[${Array.from({ length: LIMITS.maxBatch }, (_, i) => bn(i + 1)).join(',')}]`);
  add('batch over maxBatch', `[${Array.from({ length: LIMITS.maxBatch + 1 }, (_, i) => bn(i + 1)).join(',')}]`);
  add('batch over maxBatch of notifications', `[${Array.from({ length: LIMITS.maxBatch + 1 }, () => call('chain_blockNumber', '[]')).join(',')}]`);
  add('batch with every method', `[${['chain_health', 'chain_blockNumber', 'chain_pouLocal', 'chain_pouPeers', 'net_peerCount', 'rpc.discover'].map((m, i) => call(m, '[]', String(i))).join(',')},${call('chain_getAccount', `["${a}"]`, '"acc"')},${call('chain_getBlockByHeight', '[0]', '"blk"')}]`);
  add('batch with bad params and by-name', `[${call('chain_getAccount', '[12345]', '1')},${call('chain_getAccount', `{"address":"${a}"}`, '2')},${call('chain_blockNumber', '[1]', '3')}]`);
  add('batch with a BOM', post(`\uFEFF[${bn(1)},${bn(2)}]`));
  add('batch with big and fractional ids', `[${bn(1)},${call('chain_blockNumber', '[]', '9007199254740993')},${call('chain_blockNumber', '[]', '1.5')},${call('chain_blockNumber', '[]', '"1"')}]`);

  // HTTP variations.
  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']) add(`HTTP ${method}`, post(method === 'GET' || method === 'HEAD' ? '' : bn(30), { method }));
  for (const type of [undefined, 'text/plain', 'application/x-www-form-urlencoded', 'application/jsonx', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;charset=latin1']) add(`content type ${String(type)}`, post(bn(31), { contentType: type }));
  add('a body over maxBodyBytes', post(bn(29) + ' '.repeat(LIMITS.maxBodyBytes)));
  add('a body at maxBodyBytes', post(bn(28) + ' '.repeat(LIMITS.maxBodyBytes - bn(28).length)));
  add('no Content-Length', post('', { omitContentLength: true }));
  add('no Content-Length, the body sent all the same', post(bn(27), { omitContentLength: true }));
  add('a huge string param', call('chain_getAccount', `["${'a'.repeat(60_000)}"]`, '26'));
  return list.map(([name, body]) => [name, typeof body === 'string' ? post(body) : body]);
}

describe('the oracles on the honest reference node', () => {
  it('find no violation in ~200 varied requests', async () => {
    const cases = requests();
    expect(cases.length).toBeGreaterThanOrEqual(200);
    const wrong: string[] = [];
    const ms: number[] = [];
    for (const [name, http] of cases) {
      const answer = await send(http);
      ms.push(answer.ms);
      // The time bound is generous here: two shared cores, and 'slow' is not what this test is about.
      const violations = judge({ http }, answer, { profile, slowBoundMs: slowBoundMs(0, { floorMs: 10_000 }) });
      for (const v of violations) wrong.push(`${name}: ${v.oracle}: ${v.message} [${v.source}] ${v.excerpt ?? ''}`);
    }
    expect(wrong).toEqual([]);
  });
});
