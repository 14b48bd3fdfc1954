/**
 * Fault injection (TEST-ONLY, docs/faults.md): every conformance fault of the catalogue is visible through
 * real HTTP (the robustness faults, the fuzzer's proof, are shown in robustness.test.ts). Each fault has a
 * small probe that answers "is the deviation there?"; every probe must say no
 * against an honest node (so it is not vacuous) and yes against a node started with its fault, which
 * must also keep serving and producing blocks. Network-scope faults are probed on small in-process
 * networks. Also: unknown fault names are refused (node start, CLI exit 2), --help marks --fault as
 * test-only, the CLI and the devnet pass faults through, and docs/faults.md lists every fault.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  bytesToHex,
  createMessageSigner,
  createTransactionSigner,
  encodeTransactionBody,
  generateKeypair,
  generatePrivateKey,
  hexToBytes,
  identityRSignature,
  signingMessageForBody,
  U128_MAX,
} from '../../core/codec/index.js';
import type { SignedTransaction, TransactionSigner } from '../../core/codec/index.js';
import { ANY_MESSAGE_SIGNATURE, IDENTITY } from '../../core/codec/craftSignature.js';
import { parseJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { packageRoot } from '../../core/paths.js';
import { startDevnet } from '../devnet/startDevnet.js';
import { networkGenesis } from '../node/NetworkGenesis.js';
import { loadOrCreateIdentity } from '../node/NodeIdentity.js';
import { ReferenceNode } from '../node/ReferenceNode.js';
import type { NodeOptions } from '../node/ReferenceNode.js';
import { NODE_DEFAULTS } from '../node/nodeDefaults.js';
import { httpRequest, post, startRpcServer } from '../../test/support/rpc.js';
import { withFaults } from './applyFaults.js';
import { CONFORMANCE_FAULTS, FAULT_CATALOGUE, FAULT_NAMES, FaultSet, RESILIENCE_FAULTS, ROBUSTNESS_FAULTS, UnknownFaultError } from './faultCatalogue.js';
import type { ConformanceFaultName } from './faultCatalogue.js';
import { runChainrpc } from '../../test/runChainrpc.js';
import { testNodeOptions } from '../../test/support/nodeOptions.js';

const TOKEN = 10n ** 18n;
const FEE = 10n ** 15n;
const MAX_BATCH = 5;
const MAX_BODY = 4096;
const BIN = join(packageRoot, 'dist', 'cli', 'chainrpc.js');

// ---------------------------------------------------------------------------------------------
// Nodes and HTTP

interface Started {
  node: ReferenceNode;
  url: string;
  logged: string[];
  stop(): Promise<void>;
}

async function startNode(faults: readonly string[], extra: Partial<NodeOptions> = {}, dir = mkdtempSync(join(tmpdir(), 'chainrpc-fault-'))): Promise<Started> {
  const logged: string[] = [];
  const node = await ReferenceNode.start(
    withFaults(testNodeOptions(dir, { faucet: { amount: 10n * TOKEN, limit: 1 }, maxBodyBytes: MAX_BODY, maxBatch: MAX_BATCH, log: (line) => logged.push(line), ...extra }), faults),
  ).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    node,
    url: node.url,
    logged,
    stop: async () => {
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed losslessly; undefined when empty or not JSON. */
  json: JsonValue | undefined;
}

async function send(url: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }, method = 'POST'): Promise<Answer> {
  const a = await httpRequest(url, { method, headers, body });
  let json: JsonValue | undefined;
  try {
    json = a.body === '' ? undefined : parseJson(a.body);
  } catch {
    json = undefined;
  }
  return { status: a.status, headers: a.headers, text: a.body, json };
}

/** The error code of an exchange that got no answer (ECONNRESET, ECONNREFUSED); undefined when it was answered. */
const noAnswer = (url: string, body: string): Promise<string | undefined> =>
  send(url, body).then(
    () => undefined,
    (err: unknown) => String((err as NodeJS.ErrnoException).code ?? err),
  );

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One exchange over a raw socket, exactly the bytes given (no client library adds a header); the request should ask for Connection: close. */
function rawHttp(url: string, request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, split === -1 ? text.length : split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: split === -1 ? '' : text.slice(split + 4) });
    });
    socket.end(request);
  });
}

/** POST /rpc with no body and neither Content-Length nor Transfer-Encoding (RFC 9112 §6.3: an empty body). */
const BARE_POST = 'POST /rpc HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n';

/** A JavaScript stack frame with a file path and a line ("at f (/x/y.ts:1:2)"). */
const STACK_FRAME = /\bat .*[/\\][^/\\\s]+\.[cm]?[jt]s:\d+:\d+/;

type Obj = Record<string, JsonValue>;
const isObj = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: JsonValue | undefined): Obj => (isObj(v) ? v : {});
const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');

/** One call with id 1; the whole response object ({} when there is none). */
async function call(url: string, method: string, params: JsonValue[] = []): Promise<Obj> {
  return obj((await send(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).json);
}

const result = async (url: string, method: string, params: JsonValue[] = []): Promise<JsonValue | undefined> => (await call(url, method, params)).result;
const errorCode = async (url: string, method: string, params: JsonValue[] = []): Promise<JsonValue | undefined> => obj((await call(url, method, params)).error).code;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** The height of the block holding a transaction (read in-process: waiting only, never what is shown). */
const confirmedAt = (n: Started, hash: string): Promise<bigint> =>
  waitFor(`transaction ${hash} confirmed`, () => {
    const s = n.node.chain.transactionStatus(hash);
    return s?.status === 'confirmed' ? s.height : undefined;
  });

const waitHeight = (n: Started, height: bigint): Promise<bigint> => waitFor(`height ${height}`, () => (n.node.chain.height() >= height ? n.node.chain.height() : undefined));

// ---------------------------------------------------------------------------------------------
// Transactions

const freshSigner = (): TransactionSigner => createTransactionSigner(generatePrivateKey());
const someAddress = (): string => freshSigner().address;
const tx = (signer: TransactionSigner, value: bigint, nonce: bigint, fee = 0n, chainId = 1n, to = someAddress()): SignedTransaction => signer.sign({ chainId, to, value, nonce, fee });

function flipSignatureByte(wire: string): string {
  const i = wire.length - 20;
  return wire.slice(0, i) + (wire[i] === '0' ? '1' : '0') + wire.slice(i + 1);
}

/** A correctly signed transaction with value = 2^128-1 and fee = 1 (the encoder refuses it, so by hand). */
function overflowingWire(): string {
  const signer = createMessageSigner(generatePrivateKey());
  const body = encodeTransactionBody({ chainId: 1n, sender: signer.address, to: someAddress(), value: U128_MAX, nonce: 0n, fee: 0n });
  body[body.length - 1] = 1;
  return bytesToHex(body) + bytesToHex(signer.sign(signingMessageForBody(body)));
}

/** A zero transfer from a fresh key signed with a small-order R (R = identity): strict verification refuses it, OpenSSL accepts it. */
function smallOrderRWire(): string {
  const kp = generateKeypair();
  const body = encodeTransactionBody({ chainId: 1n, sender: bytesToHex(kp.publicKey), to: someAddress(), value: 0n, nonce: 0n, fee: 0n });
  return bytesToHex(body) + bytesToHex(identityRSignature(kp.privateKey, kp.publicKey, signingMessageForBody(body)));
}

/** A free transfer from the identity point as public key, signed R = B, S = 1: it holds for any message under that key. */
function smallOrderKeyWire(): string {
  const body = encodeTransactionBody({ chainId: 1n, sender: bytesToHex(IDENTITY), to: someAddress(), value: 0n, nonce: 0n, fee: 0n });
  return bytesToHex(body) + bytesToHex(ANY_MESSAGE_SIGNATURE);
}

const sendRaw = (url: string, wire: string): Promise<Obj> => call(url, 'chain_sendRawTransaction', [wire]);

/** A signer with 10 tokens, its faucet claim confirmed. */
async function funded(n: Started): Promise<TransactionSigner> {
  const signer = freshSigner();
  const claim = obj(await result(n.url, 'chain_faucetClaim', [signer.address]));
  await confirmedAt(n, str(claim.transaction_hash));
  return signer;
}

/** Options a fault's probe node needs beside the usual ones: a batch limit above the batches the fault cuts. */
const PROBE_NODE_OPTIONS: Partial<Record<ConformanceFaultName, Partial<NodeOptions>>> = { 'batch-cut-at-16': { maxBatch: 100 } };

// ---------------------------------------------------------------------------------------------
// Probes: true when the deviation is visible through HTTP.

type Probe = (n: Started) => Promise<boolean>;

const BN = '{"jsonrpc":"2.0","id":1,"method":"chain_blockNumber","params":[]}';
const bn = (id: number): string => `{"jsonrpc":"2.0","id":${id},"method":"chain_blockNumber","params":[]}`;

const PROBES: Record<Exclude<ConformanceFaultName, 'two-leaders' | 'peers-empty' | 'no-relay' | 'fork-view' | 'proposer-self' | 'height-far-ahead' | 'peer-score-fraction' | 'chain-id-differs'>, Probe> = {
  // transport
  'id-type-changed': async (n) => {
    const a = obj((await send(n.url, '{"jsonrpc":"2.0","id":7,"method":"chain_blockNumber"}')).json);
    const b = obj((await send(n.url, '{"jsonrpc":"2.0","id":"8","method":"chain_blockNumber"}')).json);
    return a.id === '7' && b.id === 8;
  },
  'large-id-rounded': async (n) => {
    const a = obj((await send(n.url, '{"jsonrpc":"2.0","id":18446744073709551617,"method":"chain_blockNumber"}')).json);
    return typeof a.id === 'bigint' && a.id !== 18446744073709551617n;
  },
  'id-crossed-now-and-then': async (n) => {
    // 50 calls one after the other: two (or so) carry the id of the call before, the rest their own.
    const answered: JsonValue[] = [];
    for (let id = 1; id <= 50; id++) answered.push(obj((await send(n.url, bn(id))).json).id ?? null);
    const crossed = answered.flatMap((id, i) => (id === i + 1 ? [] : [[i + 1, id]]));
    return crossed.length >= 1 && crossed.length <= 3 && crossed.every(([sent, got]) => got === Number(sent) - 1);
  },
  'null-id-dropped': async (n) => {
    const a = await send(n.url, '{"jsonrpc":"2.0","id":null,"method":"chain_blockNumber"}');
    return a.status === 204 && a.text === '';
  },
  'batch-one-unwrapped': async (n) => isObj((await send(n.url, `[${BN}]`)).json),
  'batch-answered-with-first': async (n) => {
    const two = obj((await send(n.url, `[${BN},{"jsonrpc":"2.0","id":2,"method":"chain_health"}]`)).json);
    const one = await send(n.url, `[${BN}]`);
    return two.id === 1 && 'result' in two && Array.isArray(one.json) && one.json.length === 1;
  },
  'empty-batch-array': async (n) => (await send(n.url, '[]')).text === '[]',
  'notification-answered': async (n) => {
    const single = await send(n.url, '{"jsonrpc":"2.0","method":"chain_blockNumber"}');
    const batch = await send(n.url, '[{"jsonrpc":"2.0","method":"chain_blockNumber"},{"jsonrpc":"2.0","method":"chain_health"}]');
    return single.status === 200 && 'result' in obj(single.json) && Array.isArray(batch.json) && batch.json.length === 2;
  },
  'parse-error-code': async (n) => obj(obj((await send(n.url, '{"jsonrpc":')).json).error).code === -32600,
  'parse-error-id': async (n) => obj((await send(n.url, '{"jsonrpc":')).json).id === 0,
  'invalid-request-ignored': async (n) => {
    const one = await send(n.url, '1');
    const foo = await send(n.url, '{"foo":1}');
    const many = await send(n.url, '[1,2,3]');
    return [one, foo, many].every((a) => a.status === 204);
  },
  'unknown-method-code': async (n) => (await errorCode(n.url, 'chain_noSuchMethod')) === -32600,
  'invalid-params-code': async (n) => (await errorCode(n.url, 'chain_getAccount', ['xyz'])) === -32603,
  'missing-param-internal': async (n) => (await errorCode(n.url, 'chain_getAccount', [])) === -32603 && (await errorCode(n.url, 'chain_getAccount', ['xyz'])) === -32602,
  'result-and-error': async (n) => {
    const r = await call(n.url, 'chain_noSuchMethod');
    return 'error' in r && 'result' in r;
  },
  'jsonrpc-missing-on-results': async (n) => {
    const result = obj((await send(n.url, BN)).json);
    const error = obj((await send(n.url, '{"jsonrpc":"2.0","id":2,"method":"no_such_method"}')).json);
    return 'result' in result && !('jsonrpc' in result) && error.jsonrpc === '2.0';
  },
  'jsonrpc-missing': async (n) => {
    const single = obj((await send(n.url, BN)).json);
    const batch = (await send(n.url, `[${bn(1)},${bn(2)}]`)).json;
    return !('jsonrpc' in single) && Array.isArray(batch) && batch.every((r) => isObj(r) && !('jsonrpc' in r));
  },
  'http-500-on-error': async (n) => (await send(n.url, '{"jsonrpc":"2.0","id":1,"method":"chain_noSuchMethod"}')).status === 500,
  'get-accepted': async (n) => (await send(n.url, '', {}, 'GET')).status === 200,
  'any-content-type': async (n) => {
    const a = await send(n.url, BN, { 'content-type': 'text/plain' });
    return a.status === 200 && 'result' in obj(a.json);
  },
  'response-content-type': async (n) => String((await send(n.url, BN)).headers['content-type']).startsWith('text/plain'),
  'batch-limit-ignored': async (n) => {
    const a = await send(n.url, `[${Array.from({ length: MAX_BATCH + 1 }, (_, i) => bn(i + 1)).join(',')}]`);
    return Array.isArray(a.json) && a.json.length === MAX_BATCH + 1;
  },
  'batch-cut-at-16': async (n) => {
    const batch = (k: number): string => `[${Array.from({ length: k }, (_, i) => bn(i + 1)).join(',')}]`;
    const sixteen = (await send(n.url, batch(16))).json;
    const forty = (await send(n.url, batch(40))).json;
    return Array.isArray(sixteen) && sixteen.length === 16 && Array.isArray(forty) && forty.length === 16;
  },
  'batch-reversed-and-truncated': async (n) => {
    const a = (await send(n.url, `[${bn(1)},${bn(2)},${bn(3)}]`)).json;
    return Array.isArray(a) && a.length === 2 && !a.some((r) => obj(r).id === 3);
  },
  'body-limit-ignored': async (n) => {
    const a = await send(n.url, BN + ' '.repeat(MAX_BODY));
    return a.status === 200 && 'result' in obj(a.json);
  },
  'by-name-params-accepted': async (n) => {
    const a = obj((await send(n.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'chain_getAccount', params: { address: someAddress() } }))).json);
    return 'result' in a;
  },
  // transport: behaviours of real JSON-RPC servers
  'notification-not-run': async (n) => {
    // A transaction sent as a notification, then as a call: an honest node ran the first, so the second is a duplicate.
    const b = tx(freshSigner(), 0n, 0n);
    const note = await send(n.url, `{"jsonrpc":"2.0","method":"chain_sendRawTransaction","params":["${b.wire}"]}`);
    return note.status === 204 && (await sendRaw(n.url, b.wire)).result === b.hash;
  },
  'dies-on-null': async (n) => (await noAnswer(n.url, 'null')) !== undefined && (await noAnswer(n.url, BN)) === 'ECONNREFUSED',
  'scalars-parse-error': async (n) => {
    for (const body of ['null', 'true', 'false', '"chain_blockNumber"', '1']) {
      const a = obj((await send(n.url, body)).json);
      if (obj(a.error).code !== -32700 || a.id !== null) return false;
    }
    return true;
  },
  'absent-params-refused': async (n) => {
    const bare = obj((await send(n.url, '{"jsonrpc":"2.0","method":"chain_blockNumber","id":7}')).json);
    // Refused with its id kept; the same call with params [] is served.
    return obj(bare.error).code === -32600 && bare.id === 7 && 'result' in obj((await send(n.url, BN)).json);
  },
  'null-id-refused': async (n) => {
    const address = someAddress();
    const a = obj((await send(n.url, JSON.stringify({ jsonrpc: '2.0', id: null, method: 'chain_faucetClaim', params: [address] }))).json);
    // The claim did not run: the address's one faucet claim is still to be had.
    return obj(a.error).code === -32600 && a.id === null && 'result' in (await call(n.url, 'chain_faucetClaim', [address]));
  },
  'by-name-id-lost': async (n) => {
    const a = obj((await send(n.url, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'chain_getAccount', params: { address: someAddress() } }))).json);
    return obj(a.error).code === -32602 && 'id' in a && a.id === null;
  },
  'stack-trace-leak': async (n) => {
    const e = obj((await call(n.url, 'chain_getAccount', ['xyz'])).error);
    return e.code === -32602 && /^[A-Za-z]*Error: /.test(str(e.message)) && STACK_FRAME.test(str(obj(e.data).stack));
  },
  'put-accepted': async (n) => {
    for (const method of ['PUT', 'DELETE']) {
      // node:http sends no Content-Length for a DELETE body unless told to.
      const a = await send(n.url, BN, { 'content-type': 'application/json', 'content-length': String(BN.length) }, method);
      if (a.status !== 200 || obj(a.json).result === undefined) return false;
    }
    return true;
  },
  'empty-post-500': async (n) => {
    const a = await rawHttp(n.url, BARE_POST);
    return a.status === 500 && str(a.headers['content-type']).startsWith('text/html') && a.body.includes('<pre>TypeError: ') && STACK_FRAME.test(a.body);
  },

  // methods
  'balance-as-number': async (n) => typeof obj(await result(n.url, 'chain_getAccount', [someAddress()])).balance === 'number',
  'balance-padded': async (n) => obj(await result(n.url, 'chain_getAccount', [someAddress()])).balance === '0000',
  'nonce-as-string': async (n) => obj(await result(n.url, 'chain_getAccount', [someAddress()])).nonce === '0',
  'proposer-short': async (n) => {
    await waitHeight(n, 1n);
    return str(obj(await result(n.url, 'chain_getBlockByHeight', [1])).proposer).length === 40;
  },
  'block-number-hex': async (n) => /^0x[0-9a-f]+$/.test(str(await result(n.url, 'chain_blockNumber'))),
  'unknown-height-null': async (n) => {
    const r = await call(n.url, 'chain_getBlockByHeight', [1_000_000]);
    return 'result' in r && r.result === null;
  },
  'unknown-account-error': async (n) => (await errorCode(n.url, 'chain_getAccount', [someAddress()])) === -32001,
  'health-no-mode': async (n) => !('mode' in obj(await result(n.url, 'chain_health'))),
  'extra-params-accepted': async (n) => {
    const a = await call(n.url, 'chain_blockNumber', [1]);
    const b = await call(n.url, 'chain_getAccount', [someAddress(), 'extra']);
    return 'result' in a && 'result' in b;
  },
  'wrong-param-type-accepted': async (n) => {
    const a = await call(n.url, 'chain_getBlockByHeight', ['0']);
    return 'result' in a && (await errorCode(n.url, 'chain_getAccount', [5])) === -32603;
  },
  'health-chain-id-string': async (n) => obj(await result(n.url, 'chain_health')).chain_id === '1',
  'tx-hash-wrong': async (n) => {
    const t = tx(freshSigner(), 0n, 0n);
    const hash = (await sendRaw(n.url, t.wire)).result;
    return typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash) && hash !== t.hash;
  },
  'hash-uppercase': async (n) => {
    await waitHeight(n, 1n);
    return /[A-F]/.test(str(obj(await result(n.url, 'chain_getBlockByHeight', [1])).hash));
  },
  'block-number-string': async (n) => /^\d+$/.test(str(await result(n.url, 'chain_blockNumber'))),
  'height-lenient': async (n) => {
    await waitHeight(n, 1n);
    const negative = obj(await result(n.url, 'chain_getBlockByHeight', [-1]));
    const fraction = obj(await result(n.url, 'chain_getBlockByHeight', [1.5]));
    return negative.height === 0 && fraction.height === 1;
  },
  'tx-param-lenient': async (n) => {
    const wire = tx(freshSigner(), 0n, 0n).wire;
    const answers = await Promise.all([`zz${wire.slice(2)}`, wire.slice(0, -1)].map((text) => result(n.url, 'chain_sendRawTransaction', [text])));
    return answers.every((a) => typeof a === 'string' && /^[0-9a-f]{64}$/.test(a));
  },
  'faucet-address-lenient': async (n) => {
    const claim = obj(await result(n.url, 'chain_faucetClaim', [someAddress().slice(1)]));
    return /^[0-9a-f]{64}$/.test(str(claim.transaction_hash)) && typeof claim.amount === 'string';
  },

  // chain
  'block-missing': async (n) => {
    for (let i = 0; i < 5; i++) {
      const height = await result(n.url, 'chain_blockNumber');
      if (typeof height === 'number' && (await errorCode(n.url, 'chain_getBlockByHeight', [height])) === -32001) return true;
    }
    return false;
  },
  'height-regresses': async (n) => {
    await waitHeight(n, 3n);
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) seen.push(Number(await result(n.url, 'chain_blockNumber')));
    return seen.some((h, i) => i > 0 && h < (seen[i - 1] ?? 0));
  },
  'tx-count-wrong': async (n) => {
    const t = tx(freshSigner(), 0n, 0n);
    await sendRaw(n.url, t.wire);
    const block = obj(await result(n.url, 'chain_getBlockByHeight', [Number(await confirmedAt(n, t.hash))]));
    return Array.isArray(block.transactions) && block.transaction_count !== block.transactions.length;
  },
  'tx-count-zero': async (n) => {
    const t = tx(freshSigner(), 0n, 0n);
    await sendRaw(n.url, t.wire);
    const block = obj(await result(n.url, 'chain_getBlockByHeight', [Number(await confirmedAt(n, t.hash))]));
    return Array.isArray(block.transactions) && block.transactions.length > 0 && block.transaction_count === 0;
  },
  'timestamps-backwards': async (n) => {
    await waitHeight(n, 2n);
    const one = obj(await result(n.url, 'chain_getBlockByHeight', [1]));
    const two = obj(await result(n.url, 'chain_getBlockByHeight', [2]));
    return typeof one.timestamp === 'number' && typeof two.timestamp === 'number' && two.timestamp < one.timestamp;
  },
  'parent-hash-broken': async (n) => {
    await waitHeight(n, 2n);
    const one = obj(await result(n.url, 'chain_getBlockByHeight', [1]));
    const two = obj(await result(n.url, 'chain_getBlockByHeight', [2]));
    return two.parent_hash !== one.hash;
  },

  // state
  'nonce-not-incremented': async (n) => {
    const alice = await funded(n);
    const t = tx(alice, 1n, 0n, FEE);
    await sendRaw(n.url, t.wire);
    await confirmedAt(n, t.hash);
    return obj(await result(n.url, 'chain_getAccount', [alice.address])).nonce === 0;
  },
  'fee-not-charged': async (n) => {
    const alice = await funded(n);
    const t = tx(alice, TOKEN, 0n, FEE);
    await sendRaw(n.url, t.wire);
    await confirmedAt(n, t.hash);
    return obj(await result(n.url, 'chain_getAccount', [alice.address])).balance === (9n * TOKEN).toString();
  },
  'bad-signature-accepted': async (n) => typeof (await sendRaw(n.url, flipSignatureByte(tx(freshSigner(), 0n, 0n).wire))).result === 'string',
  'lenient-signature': async (n) => {
    const admitted = typeof (await sendRaw(n.url, smallOrderRWire())).result === 'string';
    // Ordinary bad signatures are still refused: the fault is only about the strict pre-checks.
    const ordinary = obj((await sendRaw(n.url, flipSignatureByte(tx(freshSigner(), 0n, 0n).wire))).error).code;
    return admitted && ordinary === -32004;
  },
  'small-order-key-accepted': async (n) => {
    const admitted = typeof (await sendRaw(n.url, smallOrderKeyWire())).result === 'string';
    // A small-order R is still refused: the fault is only about the key.
    const smallR = obj((await sendRaw(n.url, smallOrderRWire())).error).code;
    return admitted && smallR === -32004;
  },
  'nonce-reuse-accepted': async (n) => {
    const s = freshSigner();
    await sendRaw(n.url, tx(s, 0n, 0n).wire);
    return typeof (await sendRaw(n.url, tx(s, 0n, 0n).wire)).result === 'string';
  },
  'nonce-gap-accepted': async (n) => typeof (await sendRaw(n.url, tx(freshSigner(), 0n, 5n).wire)).result === 'string',
  'overspend-accepted': async (n) => typeof (await sendRaw(n.url, tx(freshSigner(), 1n, 0n, FEE).wire)).result === 'string',
  'overflow-accepted': async (n) => typeof (await sendRaw(n.url, overflowingWire())).result === 'string',
  'nonce-reuse-applied': async (n) => {
    const alice = await funded(n);
    const first = tx(alice, 1n, 0n, FEE);
    await sendRaw(n.url, first.wire);
    await confirmedAt(n, first.hash);
    const to = someAddress();
    await sendRaw(n.url, tx(alice, 5n, 0n, FEE, 1n, to).wire);
    return obj(await result(n.url, 'chain_getAccount', [to])).balance === '5';
  },
  'replay-applied': async (n) => {
    const alice = await funded(n);
    const to = someAddress();
    const first = tx(alice, 3n, 0n, FEE, 1n, to);
    await sendRaw(n.url, first.wire);
    await confirmedAt(n, first.hash);
    // The very same bytes again: answered with the hash and paid a second time.
    await sendRaw(n.url, first.wire);
    return obj(await result(n.url, 'chain_getAccount', [to])).balance === '6';
  },
  'overspend-applied': async (n) => {
    const to = someAddress();
    await sendRaw(n.url, tx(freshSigner(), 7n, 0n, FEE, 1n, to).wire);
    return obj(await result(n.url, 'chain_getAccount', [to])).balance === '7';
  },
  'overflow-applied': async (n) => {
    const wire = overflowingWire();
    const to = bytesToHex(hexToBytes(wire, 'wire').subarray(41, 73));
    await sendRaw(n.url, wire);
    return obj(await result(n.url, 'chain_getAccount', [to])).balance === U128_MAX.toString();
  },
  'duplicate-accepted': async (n) => {
    const t = tx(freshSigner(), 0n, 0n);
    await sendRaw(n.url, t.wire);
    return (await sendRaw(n.url, t.wire)).result === t.hash;
  },
  'malformed-internal-error': async (n) => obj((await sendRaw(n.url, tx(freshSigner(), 0n, 0n).wire.slice(0, -2))).error).code === -32603,
  'wrong-error-codes': async (n) => (await errorCode(n.url, 'chain_getBlockByHeight', [1_000_000])) === -32000,
  'faucet-no-limit': async (n) => {
    const address = someAddress();
    await call(n.url, 'chain_faucetClaim', [address]);
    return 'result' in (await call(n.url, 'chain_faucetClaim', [address]));
  },
  'faucet-no-credit': async (n) => {
    const address = someAddress();
    const claim = obj(await result(n.url, 'chain_faucetClaim', [address]));
    if (typeof claim.transaction_hash !== 'string') return false;
    await waitHeight(n, n.node.chain.height() + 3n);
    return obj(await result(n.url, 'chain_getAccount', [address])).balance === '0';
  },
  'admitted-tx-dropped': async (n) => {
    // The first next-nonce transaction is queued, the second answered and dropped: sent again, it is not a duplicate.
    await sendRaw(n.url, tx(freshSigner(), 0n, 0n).wire);
    const b = tx(freshSigner(), 0n, 0n);
    await sendRaw(n.url, b.wire);
    return (await sendRaw(n.url, b.wire)).result === b.hash;
  },
  'wrong-chain-accepted': async (n) => typeof (await sendRaw(n.url, tx(freshSigner(), 0n, 0n, 0n, 2n).wire)).result === 'string',

  // pou
  'peers-list-self': async (n) => {
    const local = obj(await result(n.url, 'chain_pouLocal'));
    const peers = Object.keys(obj(obj(await result(n.url, 'chain_pouPeers')).peers));
    return local.local_is_leader === true && peers.includes(str(local.leader)) && (await result(n.url, 'net_peerCount')) === peers.length;
  },
  'peer-count-off': async (n) => (await result(n.url, 'net_peerCount')) !== Object.keys(obj(obj(await result(n.url, 'chain_pouPeers')).peers)).length,
  'leader-not-hex': async (n) => typeof obj(await result(n.url, 'chain_pouLocal')).leader === 'number',
  'score-negative': async (n) => Number(obj(await result(n.url, 'chain_pouLocal')).local_score) < 0,

  // discovery
  'discover-invalid': async (n) => !('methods' in obj(await result(n.url, 'rpc.discover'))),
  'error-code-string': async (n) => typeof obj(obj((await send(n.url, '{"jsonrpc":"2.0","id":1,"method":"chain_noSuchMethod"}')).json).error).code === 'string',
  'content-type-params-refused': async (n) => (await send(n.url, BN, { 'content-type': 'application/json; charset=utf-8' })).status === 415,
  'unknown-height-latest': async (n) => 'hash' in obj(await result(n.url, 'chain_getBlockByHeight', [10 ** 9])),
  'faucet-amount-number': async (n) => typeof obj(await result(n.url, 'chain_faucetClaim', ['ab'.repeat(32)])).amount !== 'string',
  'address-lenient': async (n) => obj(await result(n.url, 'chain_getAccount', ['ab'.repeat(31) + 'a'])).balance === '0',
  'chain-stalled': async (n) => {
    await new Promise((r) => setTimeout(r, 400));
    return n.node.chain.height() === 0n;
  },
  'pou-flag-string': async (n) => typeof obj(await result(n.url, 'chain_pouLocal')).local_is_leader === 'string',
  'peers-as-list': async (n) => Array.isArray(obj(await result(n.url, 'chain_pouPeers')).peers),
  'peer-count-hex': async (n) => typeof (await result(n.url, 'net_peerCount')) === 'string',
  'peer-count-negative': async (n) => {
    const count = await result(n.url, 'net_peerCount');
    return typeof count === 'number' && count < 0;
  },
};

/** dies-on-null: the RPC server is gone for good, the chain goes on in-process, and the node still stops. */
async function diedButStops(n: Started): Promise<void> {
  const h = n.node.chain.height();
  await waitHeight(n, h + 2n);
  expect(await noAnswer(n.url, BN)).toBe('ECONNREFUSED');
  await n.node.stop();
}

/** The node still answers and produces blocks (in-process height: the fault may hide it on the wire). */
async function stillRunning(n: Started): Promise<void> {
  const h = n.node.chain.height();
  await waitHeight(n, h + 2n);
  const a = await send(n.url, BN);
  expect([200, 204, 500]).toContain(a.status);
}

describe('node-scope faults, each visible through HTTP', () => {
  let honest: Started;
  beforeAll(async () => {
    honest = await startNode([]);
  });
  afterAll(async () => {
    await honest?.stop();
  });

  it('no probe sees a deviation on an honest node, and an honest node logs no fault warning', async () => {
    const seen: string[] = [];
    for (const [name, probe] of Object.entries(PROBES)) if (await probe(honest)) seen.push(name);
    expect(seen).toEqual([]);
    expect(honest.logged.filter((l) => l.includes('FAULT'))).toEqual([]);
  });

  it('has a probe for every node-scope conformance fault (the robustness faults have their own tests: robustness.test.ts)', () => {
    const nodeScope = CONFORMANCE_FAULTS.filter((f) => f.scope === 'node').map((f) => f.name);
    expect(Object.keys(PROBES).sort()).toEqual([...nodeScope].sort());
  });

  for (const [name, probe] of Object.entries(PROBES)) {
    it(`${name}: visible, and the node keeps serving and producing blocks`, async () => {
      const n = await startNode([name], PROBE_NODE_OPTIONS[name as ConformanceFaultName] ?? {});
      try {
        expect(n.logged.some((l) => l.includes('FAULT INJECTION ACTIVE') && l.includes(name) && l.includes('TEST-ONLY')), 'warning logged').toBe(true);
        expect(await probe(n), `the ${name} deviation is visible`).toBe(true);
        // chain-stalled is the one fault whose point is that no block comes; the node still serves.
        if (name === 'chain-stalled') expect((await call(n.url, 'chain_health')).result).toBeDefined();
        // dies-on-null is the one fault whose point is that the node stops serving.
        else if (name === 'dies-on-null') await diedButStops(n);
        else await stillRunning(n);
      } finally {
        await n.stop();
      }
    });
  }
});

describe('transport faults of real servers: what the probes leave out', () => {
  let honest: Started;
  beforeAll(async () => {
    honest = await startNode([]);
  });
  afterAll(async () => {
    await honest?.stop();
  });

  it('dies-on-null: a batch with a null element kills the RPC server too; the death is logged once; stop() still works', async () => {
    // An honest node answers both with -32600: one object for null, an array of one for [null].
    expect(obj(await send(honest.url, 'null').then((a) => a.json))).toMatchObject({ id: null, error: { code: -32600 } });
    const batch = (await send(honest.url, '[null]')).json;
    expect(Array.isArray(batch) ? batch.map((r) => obj(obj(r).error).code) : batch).toEqual([-32600]);

    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const n = await startNode(['dies-on-null']);
    try {
      expect((await call(n.url, 'chain_blockNumber')).result).toBeDefined();
      // Two deadly bodies at once: neither is answered (the connection is dropped, or refused once dead).
      const lost = await Promise.all([noAnswer(n.url, '[null]'), noAnswer(n.url, `[${BN},null]`)]);
      for (const code of lost) expect(['ECONNRESET', 'ECONNREFUSED']).toContain(code);
      expect(await noAnswer(n.url, BN)).toBe('ECONNREFUSED');
      // The rest of the process goes on: blocks are still made, and the node stops cleanly.
      await waitHeight(n, n.node.chain.height() + 2n);
      await n.node.stop();
      const deaths = stderr.mock.calls.map(([chunk]) => String(chunk)).filter((line) => line.includes('RPC server died'));
      expect(deaths).toHaveLength(1);
    } finally {
      stderr.mockRestore();
      await n.stop();
    }
  });

  it('empty-post-500: only a POST with neither Content-Length nor Transfer-Encoding; Content-Length: 0 and an empty chunked body still get -32700', async () => {
    const head = 'POST /rpc HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nConnection: close\r\n';
    const parseError = (a: RawAnswer): unknown => ({ status: a.status, type: a.headers['content-type'], code: obj(obj(parseJson(a.body)).error).code });
    const expected = { status: 200, type: 'application/json', code: -32700 };
    // An honest node answers the bare POST as an empty body: a parse error.
    expect(parseError(await rawHttp(honest.url, BARE_POST))).toEqual(expected);
    const n = await startNode(['empty-post-500']);
    try {
      expect(parseError(await rawHttp(n.url, `${head}Content-Length: 0\r\n\r\n`))).toEqual(expected);
      expect(parseError(await rawHttp(n.url, `${head}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n`))).toEqual(expected);
      const page = await rawHttp(n.url, BARE_POST);
      expect(page.status).toBe(500);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toMatch(/^<!DOCTYPE html>/);
      expect(page.body).toContain('TypeError: Cannot read properties of undefined');
      expect(page.body).toContain(join('reference-node', 'faults', 'deviations.'));
    } finally {
      await n.stop();
    }
  });

  it("stack-trace-leak: a handler's exception (-32603) reaches the client with its class, text and stack; an honest server says only Internal error", async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"test_crash","params":[]}';
    const honestServer = await startRpcServer();
    const leaky = await startRpcServer({ faults: FaultSet.parse(['stack-trace-leak']) });
    try {
      const plain = obj(obj((await send(honestServer.url, body)).json).error);
      expect(plain).toMatchObject({ code: -32603, message: 'Internal error' });
      expect(JSON.stringify(plain)).not.toMatch(/secret|stack/);
      const leaked = obj(obj((await send(leaky.url, body)).json).error);
      expect(leaked).toMatchObject({ code: -32603, message: 'Error: secret internal detail /home/node/db' });
      expect(str(obj(leaked.data).stack)).toMatch(STACK_FRAME);
      expect(str(obj(leaked.data).stack)).toContain('test/support/rpc.');
    } finally {
      await Promise.all([honestServer.close(), leaky.close()]);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Lenient params and integer encodings: the same request to an honest node and to a node with only the fault.

describe('methods faults: what the probes leave out, next to the honest answer', () => {
  let honest: Started;
  beforeAll(async () => {
    honest = await startNode([]);
  });
  afterAll(async () => {
    await honest?.stop();
  });

  const invalidParams = { code: -32602 };
  const error = async (url: string, method: string, params: JsonValue[]): Promise<Obj> => obj((await call(url, method, params)).error);

  it('block-number-hex, block-number-string: the height as "0x…" or as a decimal string; an honest node writes a JSON number', async () => {
    await waitHeight(honest, 1n);
    const plain = await result(honest.url, 'chain_blockNumber');
    expect(typeof plain).toBe('number');
    for (const [name, pattern] of [
      ['block-number-hex', /^0x[0-9a-f]+$/],
      ['block-number-string', /^(0|[1-9]\d*)$/],
    ] as const) {
      const n = await startNode([name]);
      try {
        await waitHeight(n, 2n);
        const before = n.node.chain.height();
        const answer = await result(n.url, 'chain_blockNumber');
        expect(answer, name).toMatch(pattern);
        const height = BigInt(str(answer));
        expect(height >= before && height <= n.node.chain.height(), `${name}: ${str(answer)} is the height`).toBe(true);
      } finally {
        await n.stop();
      }
    }
  });

  it('height-lenient: -1 answers the block at 0, 1.5 the block at 1; strings, no param and two params are still refused; an honest node refuses -1 and 1.5', async () => {
    expect(await error(honest.url, 'chain_getBlockByHeight', [-1])).toMatchObject(invalidParams);
    expect(await error(honest.url, 'chain_getBlockByHeight', [1.5])).toMatchObject(invalidParams);
    const n = await startNode(['height-lenient']);
    try {
      await waitHeight(n, 2n);
      const [zero, one] = await Promise.all([0, 1].map(async (h) => obj(await result(n.url, 'chain_getBlockByHeight', [h]))));
      expect(obj(await result(n.url, 'chain_getBlockByHeight', [-1]))).toEqual(zero);
      expect(obj(await result(n.url, 'chain_getBlockByHeight', [-0.5]))).toEqual(zero);
      expect(obj(await result(n.url, 'chain_getBlockByHeight', [1.5]))).toEqual(one);
      expect(obj(await result(n.url, 'chain_getBlockByHeight', [1.999]))).toEqual(one);
      // A negative integer beyond 2^64 (read losslessly as a bigint) is 0 too.
      const huge = obj((await send(n.url, '{"jsonrpc":"2.0","id":1,"method":"chain_getBlockByHeight","params":[-18446744073709551617]}')).json);
      expect(obj(huge.result)).toEqual(zero);
      // Only numbers are lenient: a height in a string, a word, no param and a second param are refused as before.
      for (const params of [['1'], ['one'], [], [1, 1]] as JsonValue[][]) expect(await error(n.url, 'chain_getBlockByHeight', params), JSON.stringify(params)).toMatchObject(invalidParams);
      // Above the tip, a floored height is still BlockNotFound.
      expect(await error(n.url, 'chain_getBlockByHeight', [1e9 + 0.5])).toMatchObject({ code: -32001 });
    } finally {
      await n.stop();
    }
  });

  it('tx-param-lenient: text that is not hex pairs gets SHA-256 of the text and nothing is queued; numbers, no param and well-formed transactions are handled as before', async () => {
    const wire = tx(freshSigner(), 0n, 0n).wire;
    const texts = [`zz${wire.slice(2)}`, wire.slice(0, -1), 'not a transaction', `0x${wire}`];
    for (const text of texts) expect(await error(honest.url, 'chain_sendRawTransaction', [text]), text.slice(0, 8)).toMatchObject(invalidParams);
    const n = await startNode(['tx-param-lenient']);
    try {
      const hashes: string[] = [];
      for (const text of texts) {
        const hash = await result(n.url, 'chain_sendRawTransaction', [text]);
        expect(hash).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
        hashes.push(str(hash));
      }
      // Nothing was queued: no block ever holds one of these hashes, and the node knows none of them.
      await waitHeight(n, n.node.chain.height() + 2n);
      for (const hash of hashes) expect(n.node.chain.transactionStatus(hash)).toBeUndefined();
      expect(n.node.chain.pendingCount()).toBe(0);
      expect(await error(n.url, 'chain_sendRawTransaction', [12345])).toMatchObject(invalidParams);
      expect(await error(n.url, 'chain_sendRawTransaction', [])).toMatchObject(invalidParams);
      // Hex pairs still go through admission: a short one is TxMalformed, a real one is admitted under its true hash.
      expect(await error(n.url, 'chain_sendRawTransaction', [wire.slice(0, -2)])).toMatchObject({ code: -32002 });
      const t = tx(freshSigner(), 0n, 0n);
      expect(await result(n.url, 'chain_sendRawTransaction', [t.wire])).toBe(t.hash);
      await confirmedAt(n, t.hash);
    } finally {
      await n.stop();
    }
  });

  it('faucet-address-lenient: a malformed address gets a made-up claim with the configured amount and nothing is sent; numbers, no param and good addresses are handled as before', async () => {
    const good = someAddress();
    const malformed = [good.slice(1), `zz${good.slice(2)}`, `0x${good}`, ''];
    for (const address of malformed) expect(await error(honest.url, 'chain_faucetClaim', [address]), address.slice(0, 8)).toMatchObject(invalidParams);
    // A faucet amount other than the default, to see that the made-up claim reports the node's own.
    const amount = 7n * TOKEN;
    const n = await startNode(['faucet-address-lenient'], { faucet: { amount, limit: 1 } });
    try {
      const faucetNonce = obj(await result(n.url, 'chain_getAccount', [n.node.chain.faucetAddress])).nonce;
      const hashes: string[] = [];
      for (const address of malformed) {
        const claim = obj(await result(n.url, 'chain_faucetClaim', [address]));
        expect(Object.keys(claim).sort()).toEqual(['amount', 'transaction_hash']);
        expect(claim.amount).toBe(amount.toString());
        expect(claim.transaction_hash).toMatch(/^[0-9a-f]{64}$/);
        hashes.push(str(claim.transaction_hash));
      }
      expect(new Set(hashes).size).toBe(hashes.length);
      // Nothing was sent: the faucet account made no transfer and the node knows none of the hashes.
      await waitHeight(n, n.node.chain.height() + 2n);
      expect(obj(await result(n.url, 'chain_getAccount', [n.node.chain.faucetAddress])).nonce).toBe(faucetNonce);
      for (const hash of hashes) expect(n.node.chain.transactionStatus(hash)).toBeUndefined();
      expect(await error(n.url, 'chain_faucetClaim', [12345])).toMatchObject(invalidParams);
      expect(await error(n.url, 'chain_faucetClaim', [])).toMatchObject(invalidParams);
      // A well-formed address (either case) still gets a real claim, credited in a block.
      const claim = obj(await result(n.url, 'chain_faucetClaim', [good.toUpperCase()]));
      expect(claim.amount).toBe(amount.toString());
      await confirmedAt(n, str(claim.transaction_hash));
      expect(obj(await result(n.url, 'chain_getAccount', [good])).balance).toBe(amount.toString());
    } finally {
      await n.stop();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Network-scope faults: a small in-process network (MN, MN, LN), the fault on every node.

interface Net {
  nodes: Started[];
  stop(): Promise<void>;
}

async function startNet(faults: string[]): Promise<Net> {
  const nodes: Started[] = [];
  // The MNs' keys first: they are the network's members.
  const plan = (['MN', 'MN', 'LN'] as const).map((kind) => ({ kind, dir: mkdtempSync(join(tmpdir(), 'chainrpc-fault-')) }));
  const genesis = networkGenesis(1n, plan.filter((n) => n.kind === 'MN').map((n) => loadOrCreateIdentity(n.dir).id));
  try {
    for (const { kind, dir } of plan) {
      const first = nodes[0];
      nodes.push(await startNode(faults, { kind, genesis, peers: first ? [first.node.p2pUrl] : [], maxBatch: NODE_DEFAULTS.maxBatch, maxBodyBytes: NODE_DEFAULTS.maxBodyBytes }, dir));
    }
    await waitFor('the network to form', () => (nodes.every((n) => n.node.peers.live().length === nodes.length - 1) ? true : undefined), 10_000);
  } catch (err) {
    await Promise.all(nodes.map((n) => n.stop()));
    throw err;
  }
  return { nodes, stop: async () => void (await Promise.all(nodes.map((n) => n.stop()))) };
}

type NetProbe = (net: Net) => Promise<boolean>;

const NET_PROBES: Record<'two-leaders' | 'peers-empty' | 'no-relay' | 'fork-view' | 'proposer-self' | 'height-far-ahead' | 'peer-score-fraction' | 'chain-id-differs', NetProbe> = {
  'two-leaders': async (net) => {
    const mns = net.nodes.slice(0, 2);
    await waitFor('blocks', () => (mns.every((n) => n.node.chain.height() >= 2n) ? true : undefined));
    const views = await Promise.all(mns.map(async (n) => obj(await result(n.url, 'chain_pouLocal'))));
    return views.filter((v) => v.local_is_leader === true).length >= 2;
  },
  'peers-empty': async (net) => {
    const n = net.nodes[0];
    if (!n) return false;
    const peers = obj(obj(await result(n.url, 'chain_pouPeers')).peers);
    return Object.keys(peers).length === 0 && (await result(n.url, 'net_peerCount')) === 2;
  },
  'no-relay': async (net) => {
    const [mn, , ln] = net.nodes;
    if (!mn || !ln) return false;
    const t = tx(freshSigner(), 0n, 0n);
    if (typeof (await sendRaw(ln.url, t.wire)).result !== 'string') return false;
    // 15 block times: an honest network includes it within a couple.
    const deadline = Date.now() + 1_500;
    while (Date.now() < deadline) {
      if (mn.node.chain.transactionStatus(t.hash)?.status === 'confirmed') return false;
      await sleep(50);
    }
    return true;
  },
  'peer-score-fraction': async (net) => {
    const n = net.nodes[0];
    if (!n) return false;
    const peers = obj(obj(await result(n.url, 'chain_pouPeers')).peers);
    return Object.values(peers).some((score) => typeof score === 'number' && !Number.isInteger(score));
  },
  'proposer-self': async (net) => {
    await waitFor('height 2 everywhere', () => (net.nodes.every((n) => n.node.chain.height() >= 2n) ? true : undefined));
    const proposers = await Promise.all(net.nodes.map(async (n) => obj(await result(n.url, 'chain_getBlockByHeight', [2])).proposer));
    return new Set(proposers).size > 1;
  },
  'height-far-ahead': async (net) => {
    const n = net.nodes[0];
    if (!n) return false;
    // The height before the call: a block committed while the answer travels must not hide the deviation.
    const before = Number(n.node.chain.height());
    const reported = await result(n.url, 'chain_blockNumber');
    return typeof reported === 'number' && reported >= before + 1000;
  },
  'chain-id-differs': async (net) => {
    const n = net.nodes[0];
    if (!n) return false;
    // Named beside the chain's own id: with every node faulty they agree with each other, not with their chain.
    const named = obj(await result(n.url, 'chain_health')).chain_id;
    return typeof named === 'number' && BigInt(named) === n.node.chain.chainId + 1n;
  },
  'fork-view': async (net) => {
    await waitFor('height 2 everywhere', () => (net.nodes.every((n) => n.node.chain.height() >= 2n) ? true : undefined));
    const hashes = await Promise.all(net.nodes.map(async (n) => obj(await result(n.url, 'chain_getBlockByHeight', [2])).hash));
    return new Set(hashes).size > 1;
  },
};

describe('network-scope faults, each visible by comparing nodes', () => {
  it('has a probe for every network-scope fault', () => {
    // The resilience faults show only when a member fails: the chaos truth tests prove them (load/chaos/chaos.timing.test.ts).
    expect(Object.keys(NET_PROBES).sort()).toEqual(FAULT_CATALOGUE.filter((f) => f.scope === 'network' && f.category !== 'resilience').map((f) => f.name).sort());
  });

  it('no network probe sees a deviation on an honest network', async () => {
    const net = await startNet([]);
    try {
      const seen: string[] = [];
      for (const [name, probe] of Object.entries(NET_PROBES)) if (await probe(net)) seen.push(name);
      expect(seen).toEqual([]);
    } finally {
      await net.stop();
    }
  });

  for (const [name, probe] of Object.entries(NET_PROBES)) {
    it(`${name}: visible on a network of 2 MN + 1 LN, every node faulty`, async () => {
      const net = await startNet([name]);
      try {
        expect(await probe(net), `the ${name} deviation is visible`).toBe(true);
        for (const n of net.nodes) expect(n.logged.some((l) => l.includes('FAULT INJECTION ACTIVE'))).toBe(true);
      } finally {
        await net.stop();
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------
// The catalogue, validation, CLI, devnet, docs

describe('the fault catalogue and its validation', () => {
  it('names are unique kebab-case; every category has faults; descriptions and rules are sentences', () => {
    expect(new Set(FAULT_NAMES).size).toBe(FAULT_NAMES.length);
    for (const f of FAULT_CATALOGUE) {
      expect(f.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(f.description).toMatch(/\.$/);
      expect(f.rule).toMatch(/\.$/);
    }
    expect(new Set(FAULT_CATALOGUE.map((f) => f.category))).toEqual(new Set(['transport', 'methods', 'chain', 'state', 'pou', 'network', 'discovery', 'robustness', 'resilience']));
    // The catalogue is the conformance faults, then the robustness ones, then the resilience ones.
    expect(FAULT_CATALOGUE).toEqual([...CONFORMANCE_FAULTS, ...ROBUSTNESS_FAULTS, ...RESILIENCE_FAULTS]);
    expect(CONFORMANCE_FAULTS.filter((f) => f.category === 'resilience')).toEqual([]);
    expect(RESILIENCE_FAULTS.filter((f) => f.category !== 'resilience')).toEqual([]);
    expect(CONFORMANCE_FAULTS.filter((f) => f.category === 'robustness')).toEqual([]);
    expect(ROBUSTNESS_FAULTS.filter((f) => f.category !== 'robustness')).toEqual([]);
  });

  it('FaultSet.parse takes repeated and comma-separated names and refuses unknown ones, listing the known', () => {
    const set = FaultSet.parse(['jsonrpc-missing, fee-not-charged', 'no-relay', '']);
    expect(set.names).toEqual(['jsonrpc-missing', 'fee-not-charged', 'no-relay']);
    expect(set.has('no-relay')).toBe(true);
    expect(set.has('fork-view')).toBe(false);
    expect(FaultSet.parse([]).size).toBe(0);
    expect(() => FaultSet.parse(['jsonrpc-missing,no-such-fault'])).toThrow(UnknownFaultError);
    expect(() => FaultSet.parse(['no-such-fault'])).toThrow(/unknown fault "no-such-fault"; known faults: id-type-changed, .*discover-invalid/);
  });

  it('ReferenceNode.start refuses an unknown fault before touching the data dir', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'chainrpc-fault-')), 'node');
    try {
      await expect(startNode(['no-such-fault'], { dataDir: dir })).rejects.toThrow(UnknownFaultError);
      expect(existsSync(dir)).toBe(false);
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('startDevnet refuses unknown faults and unknown node names before starting anything', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'chainrpc-fault-devnet-')), 'net');
    try {
      const base = { mn: 1, ln: 1, blockTimeMs: 100, chainId: 1n, dataDir: dir, keepData: false };
      await expect(startDevnet({ ...base, faults: { all: ['no-such-fault'] } })).rejects.toThrow(UnknownFaultError);
      await expect(startDevnet({ ...base, faults: { byNode: { mn9: ['no-relay'] } } })).rejects.toThrow(/mn9/);
      expect(existsSync(dir)).toBe(false);
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('docs/faults.md lists every fault of the catalogue', () => {
    const doc = readFileSync(join(packageRoot, 'docs', 'faults.md'), 'utf8');
    for (const name of FAULT_NAMES) expect(doc, name).toContain(`\`${name}\``);
    expect(doc).toContain('TEST-ONLY');
  });
});

const chainrpc = runChainrpc;

describe('chainrpc node --fault (the built CLI; npm run build first)', () => {
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npm run build (npm test does it first)`);
  });

  it('--help documents --fault as test-only', async () => {
    const r = await chainrpc('node', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--fault <name/);
    expect(r.stdout).toContain('TEST-ONLY');
    expect(r.stdout).toContain('never use it for anything but proving the conformance suite');
    expect(r.stdout).toContain('docs/faults.md');
  });

  it('--list-faults prints the catalogue', async () => {
    const r = await chainrpc('node', '--list-faults');
    expect(r.code).toBe(0);
    for (const name of FAULT_NAMES) expect(r.stdout).toContain(name);
  });

  it('an unknown fault is a usage error (exit 2) naming the known faults', async () => {
    const r = await chainrpc('node', '--port', '0', '--fault', 'jsonrpc-missing,no-such-fault');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown fault "no-such-fault"');
    expect(r.stderr).toContain('known faults: id-type-changed, large-id-rounded');
  });

  it('a node started with --fault logs the warning and shows the fault', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-fault-cli-'));
    const child = spawn(process.execPath, [BIN, 'node', '--port', '0', '--data-dir', dir, '--block-time', '100', '--fault', 'jsonrpc-missing', '--fault', 'health-no-mode'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', (line) => resolve(line.trim()));
        child.once('exit', (code) => reject(new Error(`node exited with ${String(code)}: ${stderr}`)));
      });
      const answer = obj(parseJson((await post(url, BN)).body));
      expect(answer).not.toHaveProperty('jsonrpc');
      expect(obj(await result(url, 'chain_health'))).not.toHaveProperty('mode');
      await waitFor('the warning', () => (stderr.includes('FAULT INJECTION ACTIVE') ? true : undefined));
      expect(stderr).toMatch(/FAULT INJECTION ACTIVE \(jsonrpc-missing, health-no-mode\).*TEST-ONLY/);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('dies-on-huge-height ends a node process: no answer, a panic line on stderr, exit code 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-fault-cli-'));
    const child = spawn(process.execPath, [BIN, 'node', '--port', '0', '--p2p-port', '0', '--data-dir', dir, '--block-time', '100', '--on-parent-exit', 'run', '--fault', 'dies-on-huge-height'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', (line) => resolve(line.trim()));
        void exited.then((code) => reject(new Error(`node exited with ${String(code)}: ${stderr}`)));
      });
      // 2^53 is a valid height without a block; 2^53 + 1 kills the process.
      expect(obj(obj(parseJson((await post(url, '{"jsonrpc":"2.0","id":1,"method":"chain_getBlockByHeight","params":[9007199254740992]}')).body)).error).code).toBe(-32001);
      expect(await noAnswer(url, '{"jsonrpc":"2.0","id":2,"method":"chain_getBlockByHeight","params":[9007199254740993]}')).toBe('ECONNRESET');
      expect(await exited).toBe(1);
      expect(stderr).toMatch(/^panic: assertion failed: height <= 2\^53 \(got 9007199254740993.*dies-on-huge-height, TEST-ONLY\)$/m);
      expect(await noAnswer(url, BN)).toBe('ECONNREFUSED');
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('startDevnet passes faults to the chosen nodes (a peer-count-off LN still lets the devnet form)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-fault-devnet-'));
    const net = await startDevnet({ mn: 1, ln: 1, blockTimeMs: 100, chainId: 1n, dataDir: dir, keepData: false, faults: { all: ['health-no-mode'], byNode: { ln1: ['peer-count-off'] } } });
    try {
      const [mn1, ln1] = net.nodes;
      if (!mn1 || !ln1) throw new Error('two nodes expected');
      expect(mn1.faults).toEqual(['health-no-mode']);
      expect(ln1.faults).toEqual(['health-no-mode', 'peer-count-off']);
      expect(await result(mn1.url, 'net_peerCount')).toBe(1);
      expect(await result(ln1.url, 'net_peerCount')).toBe(2);
      expect(obj(await result(mn1.url, 'chain_health'))).not.toHaveProperty('mode');
      expect(readFileSync(ln1.logFile, 'utf8')).toContain('FAULT INJECTION ACTIVE (health-no-mode, peer-count-off)');
    } finally {
      await net.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
