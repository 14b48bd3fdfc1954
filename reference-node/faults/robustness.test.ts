/**
 * The robustness faults (TEST-ONLY, docs/faults.md "Robustness faults (the fuzzer's proof)"), each over real
 * HTTP against an in-process node started with it: the one input that sets it off misbehaves exactly as
 * described, near misses are answered honestly, and an honest node answers every such input honestly. Also:
 * the catalogue keeps them apart from the conformance faults, a node process is given the crash hook
 * (shown here with a hook that does not exit), and the docs have a row per fault naming its fuzz oracle.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTransactionSigner, generatePrivateKey } from '../../core/codec/index.js';
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { packageRoot } from '../../core/paths.js';
import { ReferenceNode } from '../node/ReferenceNode.js';
import { httpRequest, rawExchange } from '../../test/support/rpc.js';
import { testNodeOptions } from '../../test/support/nodeOptions.js';
import { withFaults } from './applyFaults.js';
import type { FaultProcess } from './bends.js';
import { SLOW_PATH_MS } from './deviations.js';
import { CONFORMANCE_FAULTS, FAULT_CATALOGUE, FaultSet, ROBUSTNESS_FAULTS } from './faultCatalogue.js';

// ---------------------------------------------------------------------------------------------
// Nodes and HTTP

interface Started {
  node: ReferenceNode;
  url: string;
  port: number;
  stop(): Promise<void>;
}

async function startNode(faults: readonly string[], proc: FaultProcess = {}): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'chainrpc-robustness-'));
  const node = await ReferenceNode.start(withFaults(testNodeOptions(dir), faults, proc)).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    node,
    url: node.url,
    port: Number(new URL(node.url).port),
    stop: async () => {
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Obj = Record<string, JsonValue>;
const isObj = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: JsonValue | undefined): Obj => (isObj(v) ? v : {});

/** POSTs a body; the answer parsed losslessly (undefined when empty), and how long it took. */
async function send(url: string, body: string): Promise<{ json: JsonValue | undefined; text: string; ms: number }> {
  const started = Date.now();
  const a = await httpRequest(url, { body, headers: { 'content-type': 'application/json' } });
  return { json: a.body === '' ? undefined : parseJson(a.body), text: a.body, ms: Date.now() - started };
}

/** One call's text; params as JSON text, so that integers beyond 2^53 are written digit for digit. */
const callText = (method: string, params: string, id: JsonValue = 1): string => `{"jsonrpc":"2.0","id":${stringifyJson(id)},"method":"${method}","params":${params}}`;

/** One call (id 7 unless given); the response object. */
async function call(url: string, method: string, params: JsonValue[] | string, id: JsonValue = 7): Promise<Obj> {
  return obj((await send(url, callText(method, typeof params === 'string' ? params : stringifyJson(params), id))).json);
}

/** The error code of an exchange that got no answer (ECONNREFUSED, ECONNRESET); undefined when answered. */
const noAnswer = (url: string, body: string): Promise<string | undefined> =>
  send(url, body).then(
    () => undefined,
    (err: unknown) => String((err as NodeJS.ErrnoException).code ?? err),
  );

/** A whole POST /rpc request as bytes, for exchanges that must see exactly what comes back. */
const rawPost = (body: string): string => `POST /rpc HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function waitHeight(n: Started, height: bigint): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (n.node.chain.height() < height) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for height ${height}`);
    await sleep(20);
  }
}

/** A JavaScript stack frame with a file path and a line ("at f (/x/y.js:1:2)"). */
const STACK_FRAME = /\bat .*[/\\][^/\\\s]+\.[cm]?[jt]s:\d+:\d+/;

const TWO_53 = 2n ** 53n;
const INVALID_PARAMS = { code: -32602 };
const someAddress = (): string => createTransactionSigner(generatePrivateKey()).address;
const someWire = (): string => createTransactionSigner(generatePrivateKey()).sign({ chainId: 1n, to: someAddress(), value: 0n, nonce: 0n, fee: 0n }).wire;
const BN = (id: number): Obj => ({ jsonrpc: '2.0', id, method: 'chain_blockNumber', params: [] });

// ---------------------------------------------------------------------------------------------

describe('the robustness faults in the catalogue', () => {
  it('are the six of the fuzzer\'s proof, each with its trigger and fuzz oracle, apart from the conformance faults', () => {
    expect(ROBUSTNESS_FAULTS.map((f) => [f.name, f.oracle])).toEqual([
      ['dies-on-huge-height', 'liveness'],
      ['leaks-stack-on-object-address', 'leak'],
      ['result-for-fractional-height', 'error-expected'],
      ['slow-on-upper-case-address', 'slow'],
      ['hangs-on-duplicate-batch-ids', 'no-answer'],
      ['loses-id-on-odd-hex', 'envelope'],
    ]);
    for (const f of ROBUSTNESS_FAULTS) {
      expect(f).toMatchObject({ category: 'robustness', scope: 'node' });
      expect(f.trigger.length).toBeGreaterThan(10);
    }
    // The catalogue ends with the resilience faults (the drill's proof: faults/resilience.ts).
    expect(FAULT_CATALOGUE.filter((f) => f.category !== 'resilience')).toEqual([...CONFORMANCE_FAULTS, ...ROBUSTNESS_FAULTS]);
    expect(CONFORMANCE_FAULTS.some((f) => f.category === 'robustness')).toBe(false);
    // --fault and withFaults take them like any other fault.
    expect(FaultSet.parse(['loses-id-on-odd-hex,dies-on-huge-height']).names).toEqual(['dies-on-huge-height', 'loses-id-on-odd-hex']);
  });

  it('docs/faults.md has a row per robustness fault, naming its fuzz oracle, in its own section', () => {
    const doc = readFileSync(join(packageRoot, 'docs', 'faults.md'), 'utf8');
    const section = doc.slice(doc.indexOf("## Robustness faults (the fuzzer's proof)"));
    expect(section.length).toBeLessThan(doc.length);
    for (const f of ROBUSTNESS_FAULTS) {
      const row = section.split('\n').find((l) => l.startsWith(`| \`${f.name}\` |`));
      expect(row, f.name).toBeDefined();
      expect(row, f.name).toContain(`| ${f.oracle} |`);
    }
  });
});

describe('an honest node answers every trigger honestly', () => {
  let honest: Started;
  beforeAll(async () => {
    honest = await startNode([]);
  });
  afterAll(async () => {
    await honest?.stop();
  });

  it('a height above 2^53, an object address, a fractional height, an upper-case address, duplicate batch ids, odd-length hex', async () => {
    const url = honest.url;
    expect(await call(url, 'chain_getBlockByHeight', `[${TWO_53 + 1n}]`)).toMatchObject({ id: 7, error: { code: -32001 } });
    expect(await call(url, 'chain_getAccount', [{ a: 1 }])).toMatchObject({ id: 7, error: INVALID_PARAMS });
    expect(await call(url, 'chain_getBlockByHeight', [1.5])).toMatchObject({ id: 7, error: INVALID_PARAMS });
    const upper = await send(url, callText('chain_getAccount', stringifyJson([someAddress().toUpperCase()])));
    expect(obj(upper.json).result).toEqual({ balance: '0', nonce: 0 });
    expect(upper.ms).toBeLessThan(SLOW_PATH_MS / 2);
    const batch = (await send(url, stringifyJson([BN(1), BN(1)]))).json;
    expect(Array.isArray(batch) ? batch.map((r) => obj(r).id) : batch).toEqual([1, 1]);
    expect(await call(url, 'chain_sendRawTransaction', ['abc'])).toMatchObject({ id: 7, error: INVALID_PARAMS });
  });
});

describe('dies-on-huge-height (oracle: liveness)', () => {
  it('heights up to 2^53 and above 2^64 - 1 are answered honestly; 2^53 + 1 kills the node: no answer, open connections cut, every later connection refused', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const n = await startNode(['dies-on-huge-height']);
    try {
      await waitHeight(n, 1n);
      expect(await call(n.url, 'chain_getBlockByHeight', [1])).toHaveProperty('result.height', 1);
      // Near misses: 2^53 - 1 and 2^53 are valid heights without a block; 2^64 is refused by the params check.
      for (const h of [TWO_53 - 1n, TWO_53]) expect(await call(n.url, 'chain_getBlockByHeight', `[${h}]`), String(h)).toMatchObject({ id: 7, error: { code: -32001 } });
      expect(await call(n.url, 'chain_getBlockByHeight', `[${2n ** 64n}]`)).toMatchObject({ id: 7, error: INVALID_PARAMS });
      expect(stderr.mock.calls.filter(([chunk]) => String(chunk).includes('panic'))).toEqual([]);

      // A request in flight on another connection (its body still to come) when the node dies.
      const inFlight = rawExchange(n.port, 'POST /rpc HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n', 5_000);
      await sleep(50);
      const killing = await rawExchange(n.port, rawPost(callText('chain_getBlockByHeight', `[${TWO_53 + 1n}]`)), 5_000);
      expect(killing).toMatchObject({ text: '', closed: true });
      const cut = await inFlight;
      expect(cut).toMatchObject({ text: '', closed: true });
      expect(cut.elapsedMs).toBeLessThan(2_000);

      // Dead for good: a fresh connection is refused, now and later.
      expect(await noAnswer(n.url, callText('chain_blockNumber', '[]'))).toBe('ECONNREFUSED');
      await sleep(300);
      expect(await noAnswer(n.url, callText('chain_health', '[]'))).toBe('ECONNREFUSED');
      const panics = stderr.mock.calls.map(([chunk]) => String(chunk)).filter((line) => line.includes('panic: assertion failed'));
      expect(panics).toHaveLength(1);
      expect(panics[0]).toContain(`${TWO_53 + 1n}`);
    } finally {
      stderr.mockRestore();
      await n.stop();
    }
  });

  it('kills from inside a batch too, and a huge height written with an exponent (1e17) as well', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const n = await startNode(['dies-on-huge-height']);
    try {
      expect(await noAnswer(n.url, `[${callText('chain_blockNumber', '[]')},${callText('chain_getBlockByHeight', '[1e17]', 2)}]`)).toBe('ECONNRESET');
      expect(await noAnswer(n.url, callText('chain_blockNumber', '[]'))).toBe('ECONNREFUSED');
    } finally {
      stderr.mockRestore();
      await n.stop();
    }
  });

  it("a node process gives a crash hook: the node's last words go to it (chainrpc node writes them to stderr and exits 1)", async () => {
    const crashes: string[] = [];
    const n = await startNode(['dies-on-huge-height'], { crash: (line) => void crashes.push(line) });
    try {
      expect(await noAnswer(n.url, callText('chain_getBlockByHeight', `[${2n ** 64n - 1n}]`))).toBe('ECONNRESET');
      expect(crashes).toEqual([expect.stringMatching(/^panic: assertion failed: height <= 2\^53 \(got 18446744073709551615.*dies-on-huge-height, TEST-ONLY/)]);
    } finally {
      await n.stop();
    }
  });
});

describe('leaks-stack-on-object-address (oracle: leak)', () => {
  it('an object address gets -32603 with the exception and its stack trace; every other bad address is refused honestly', async () => {
    const n = await startNode(['leaks-stack-on-object-address']);
    try {
      for (const address of [{ a: 1 }, {}]) {
        const r = await call(n.url, 'chain_getAccount', [address]);
        expect(r).toMatchObject({ id: 7, error: { code: -32603, message: 'TypeError: address.toLowerCase is not a function' } });
        const stack = obj(obj(r.error).data).stack;
        if (typeof stack !== 'string') throw new Error('no data.stack');
        expect(stack).toMatch(STACK_FRAME);
        expect(stack).toContain('at getAccount (/srv/node/src/methods/account.js:41:17)');
      }
      // Near misses: not a string, but not an object either; a string, but not an address.
      for (const address of [12345, [1], null, 'ab'.repeat(31) + 'a', `zz${someAddress().slice(2)}`]) {
        const answer = await send(n.url, callText('chain_getAccount', stringifyJson([address])));
        expect(obj(answer.json), JSON.stringify(address)).toMatchObject({ id: 1, error: INVALID_PARAMS });
        expect(answer.text).not.toMatch(/stack|TypeError|\/srv\//);
      }
      expect(await call(n.url, 'chain_getAccount', [someAddress()])).toMatchObject({ result: { balance: '0', nonce: 0 } });
    } finally {
      await n.stop();
    }
  });
});

describe('result-for-fractional-height (oracle: error-expected)', () => {
  it('a fractional height answers the block at its floor; integer, negative and string heights are handled honestly', async () => {
    const n = await startNode(['result-for-fractional-height']);
    try {
      await waitHeight(n, 2n);
      const [zero, one, two] = await Promise.all([0, 1, 2].map(async (h) => (await call(n.url, 'chain_getBlockByHeight', [h])).result));
      expect(obj(one).height).toBe(1);
      expect((await call(n.url, 'chain_getBlockByHeight', [1.5])).result).toEqual(one);
      expect((await call(n.url, 'chain_getBlockByHeight', [2.25])).result).toEqual(two);
      expect((await call(n.url, 'chain_getBlockByHeight', [0.5])).result).toEqual(zero);
      // Floored above the tip: the honest BlockNotFound.
      expect(await call(n.url, 'chain_getBlockByHeight', [1e9 + 0.5])).toMatchObject({ error: { code: -32001 } });
      // Near misses: a negative height, fractional or not, a height in a string, no height.
      for (const params of [[-1.5], [-1], ['1.5'], ['1'], []] as JsonValue[][]) expect(await call(n.url, 'chain_getBlockByHeight', params), JSON.stringify(params)).toMatchObject({ id: 7, error: INVALID_PARAMS });
    } finally {
      await n.stop();
    }
  });
});

describe('slow-on-upper-case-address (oracle: slow)', () => {
  it('an address with upper-case letters is answered correctly after 2,000 ms; lower case at once; other calls are served meanwhile', async () => {
    const n = await startNode(['slow-on-upper-case-address']);
    try {
      const faucet = n.node.chain.faucetAddress;
      const fast = await send(n.url, callText('chain_getAccount', stringifyJson([faucet])));
      expect(fast.ms).toBeLessThan(SLOW_PATH_MS / 2);
      expect(obj(obj(fast.json).result).balance).toMatch(/^[1-9]\d*$/);
      // One upper-case letter is enough.
      const mixed = faucet.replace(/[a-f]/, (c) => c.toUpperCase());
      const slow = send(n.url, callText('chain_getAccount', stringifyJson([mixed])));
      const meanwhile = await send(n.url, callText('chain_blockNumber', '[]'));
      expect(meanwhile.ms).toBeLessThan(SLOW_PATH_MS / 2);
      const late = await slow;
      expect(late.ms).toBeGreaterThanOrEqual(SLOW_PATH_MS - 50);
      expect(obj(late.json).result).toEqual(obj(fast.json).result);
      // Near miss: letters that are not A-F are not addresses (refused at once); digits only is lower case.
      const refused = await send(n.url, callText('chain_getAccount', stringifyJson([`ZZ${faucet.slice(2)}`])));
      expect(obj(refused.json)).toMatchObject({ error: INVALID_PARAMS });
      expect(refused.ms).toBeLessThan(SLOW_PATH_MS / 2);
      expect((await send(n.url, callText('chain_getAccount', stringifyJson(['1'.repeat(64)])))).ms).toBeLessThan(SLOW_PATH_MS / 2);
    } finally {
      await n.stop();
    }
  });
});

describe('hangs-on-duplicate-batch-ids (oracle: no-answer)', () => {
  it('a batch in which two calls share an id is never answered; unique ids, 1 and "1", and null ids are answered', async () => {
    const n = await startNode(['hangs-on-duplicate-batch-ids']);
    try {
      const held = await rawExchange(n.port, rawPost(stringifyJson([BN(1), { jsonrpc: '2.0', id: 1, method: 'chain_health', params: [] }])), 1_000);
      expect(held).toMatchObject({ text: '', closed: false });
      // Held to the client's 1 s limit (a timer may fire a millisecond early on the clock that measures it).
      expect(held.elapsedMs).toBeGreaterThanOrEqual(990);
      // Near misses: answered, one response per call.
      const ids = async (batch: Obj[]): Promise<JsonValue> => {
        const a = (await send(n.url, stringifyJson(batch))).json;
        return Array.isArray(a) ? a.map((r) => ('id' in obj(r) ? (obj(r).id ?? null) : 'none')) : 'not a batch';
      };
      expect(await ids([BN(1), BN(2)])).toEqual([1, 2]);
      expect(await ids([BN(1), { ...BN(1), id: '1' }])).toEqual([1, '1']);
      expect(await ids([{ ...BN(1), id: null }, { ...BN(1), id: null }])).toEqual([null, null]);
      // A notification and a call: one response.
      expect(await ids([{ jsonrpc: '2.0', method: 'chain_blockNumber' }, BN(1)])).toEqual([1]);
      // The node goes on serving.
      expect(await call(n.url, 'chain_blockNumber', [])).toHaveProperty('result');
    } finally {
      await n.stop();
    }
  });
});

describe('loses-id-on-odd-hex (oracle: envelope)', () => {
  it('odd-length hex is refused with the right error but id null; every other error echoes the id', async () => {
    const honest = await startNode([]);
    const n = await startNode(['loses-id-on-odd-hex']);
    try {
      for (const hex of ['abc', someWire().slice(0, -1), 'z']) {
        const wrong = await call(n.url, 'chain_sendRawTransaction', [hex]);
        const right = await call(honest.url, 'chain_sendRawTransaction', [hex]);
        expect(right).toMatchObject({ id: 7, error: INVALID_PARAMS });
        expect(wrong).toEqual({ ...right, id: null });
      }
      // Near misses: even-length text that is not hex, a number, no param, even hex that is no transaction.
      for (const params of [['zz'], [12345], []] as JsonValue[][]) expect(await call(n.url, 'chain_sendRawTransaction', params), JSON.stringify(params)).toMatchObject({ id: 7, error: INVALID_PARAMS });
      expect(await call(n.url, 'chain_sendRawTransaction', ['abcd'])).toMatchObject({ id: 7, error: { code: -32002 } });
      // In a batch, only the odd one loses its id.
      const tx = (id: number, hex: string): Obj => ({ jsonrpc: '2.0', id, method: 'chain_sendRawTransaction', params: [hex] });
      const batch = (await send(n.url, stringifyJson([tx(1, 'abc'), tx(2, 'zz')]))).json;
      expect(Array.isArray(batch) ? batch.map((r) => obj(r).id) : batch).toEqual([null, 2]);
    } finally {
      await Promise.all([honest.stop(), n.stop()]);
    }
  });
});
