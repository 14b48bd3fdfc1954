/**
 * The acceptance test: detecting a reference node reproduces the reference profile (the test profile:
 * block time 100 ms) in every key. And the detection's bounds: a deadline cuts it short with a
 * loadable draft, a URL with no JSON-RPC behind it is refused with what each path answered. And a node
 * whose fresh accounts are errors: its integers are read on the account the faucet funded.
 */
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue } from '../../suites/catalogue.js';
import { PROFILE_KEYS, profileFromJson } from '../loadProfile.js';
import type { Profile } from '../Profile.js';
import { describeResults, runChecks, startProxy, startTestNode, testProfile } from '../../test/support/suites.js';
import type { TestNode } from '../../test/support/suites.js';
import { startVaryingNode } from '../../test/support/varyingNode.js';
import { detectProfile } from './detectProfile.js';
import type { DetectResult } from './detectProfile.js';
import { NoRpcEndpointError } from './NoRpcEndpointError.js';
import { RPC_PATH_CANDIDATES } from './detectRpcPath.js';

let node: TestNode;
let detected: DetectResult;
const progress: string[] = [];

/** A profile without what may differ: its name and source, the codec object (compared by name), the block time (compared with a tolerance). */
function comparable(p: Profile): Omit<Profile, 'name' | 'source' | 'codec' | 'blockTimeMs'> {
  const { name: _n, source: _s, codec: _c, blockTimeMs: _b, ...rest } = p;
  return rest;
}

beforeAll(async () => {
  node = await startTestNode();
  detected = await detectProfile({ url: node.url, onProgress: (line) => progress.push(line) });
}, 60_000);

afterAll(async () => {
  await node.stop();
});

describe('detectProfile against a reference node', () => {
  it('reproduces the reference profile', async () => {
    expect(detected.warnings).toEqual([]);
    const loaded = await profileFromJson(detected.profile, 'detected.json');
    const want = testProfile();
    expect(comparable(loaded)).toEqual(comparable(want));
    expect(loaded.codec.name).toBe(want.codec.name);
    expect(Math.abs(loaded.blockTimeMs - want.blockTimeMs)).toBeLessThanOrEqual(30);
  });

  it('writes every detected key explicitly, names the node, and keeps the evidence in $detect', () => {
    const json = detected.profile;
    expect(json.name).toBe(`detected ${new URL(node.url).host}`);
    // codec (the reference codec is the default), privateKey (none), chainId (read from chain_health) and
    // genesisZeros (older files' key: genesisBlock says it field by field) stay out.
    expect(Object.keys(json).filter((k) => !k.startsWith('$')).sort()).toEqual(PROFILE_KEYS.filter((k) => !['codec', 'privateKey', 'chainId', 'genesisZeros'].includes(k)).sort());
    expect([json.genesisBlock, json.methodIntegers]).toEqual([{ parent_hash: 'zeros', proposer: 'zeros', timestamp: 'zero' }, {}]);
    expect(json.$detect.url).toBe(node.url);
    expect(json.$detect.tool).toMatch(/^chainrpc \d+\.\d+\.\d+/);
    expect(Number.isNaN(Date.parse(json.$detect.at))).toBe(false);
    for (const [key, f] of Object.entries(json.$detect.findings)) {
      expect(['high', 'medium', 'low'], key).toContain(f.confidence);
      expect(f.evidence.length, key).toBeGreaterThan(5);
      expect(f.evidence, key).not.toMatch(/\n/);
    }
    // Decided by the node's answers, not left to defaults: everything but what cannot be seen from outside.
    const defaulted = detected.findings.filter((f) => f.basis === 'default').map((f) => f.key);
    expect(defaulted.sort()).toEqual(['errorCodes.FaucetUnavailable', 'errorCodes.InternalError', 'errorCodes.MempoolFull', 'errorCodes.NodeUnavailable', 'fee', 'privateKey']);
  });

  it('stays within its bounds and reports progress', () => {
    expect(detected.requests).toBeLessThan(200);
    expect(detected.elapsedMs).toBeLessThan(20_000);
    expect(progress.some((l) => l.startsWith('maxBatch: 1001 calls -> refused'))).toBe(true);
    expect(progress.some((l) => l.startsWith('maxBodyBytes: 1048577 bytes -> refused, HTTP 413'))).toBe(true);
  });

  it('a deadline cuts the detection short with a loadable draft that says what it did not probe', async () => {
    const started = Date.now();
    const r = await detectProfile({ url: node.url, deadlineMs: 400 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(r.warnings.some((w) => /deadline/.test(w))).toBe(true);
    const loaded = await profileFromJson(r.profile, 'cut.json');
    expect(loaded.rpcPath).toBe('/rpc');
    expect(r.findings.some((f) => f.basis === 'default' && /deadline/.test(f.evidence))).toBe(true);
  });

  it('a node that drops the calls of a batch past 16: its limit is still where it refuses, and the drop is said', async () => {
    const cutting = await startTestNode({ faults: ['batch-cut-at-16'] });
    try {
      const lines: string[] = [];
      const r = await detectProfile({ url: cutting.url, transactions: false, faucet: false, onProgress: (line) => lines.push(line) });
      const maxBatch = r.findings.find((f) => f.key === 'maxBatch');
      expect(maxBatch?.value).toBe(1000);
      expect(maxBatch?.evidence).toMatch(/\(a batch of \d+ got only 16 responses: calls dropped, which no limit explains\)/);
      expect(lines.some((l) => /^maxBatch: \d+ calls -> served, but only 16 responses came back$/.test(l))).toBe(true);
    } finally {
      await cutting.stop();
    }
  });

  it('--no-transactions, --no-faucet, --no-limits: nothing is sent for them, their keys keep defaults', async () => {
    const r = await detectProfile({ url: node.url, transactions: false, faucet: false, limits: false });
    const f = Object.fromEntries(r.findings.map((x) => [x.key, x]));
    expect([f.txResult?.basis, f.faucet?.basis, f.maxBatch?.value, f.maxBodyBytes?.value]).toEqual(['default', 'default', null, null]);
    expect(r.requests).toBeLessThan(80);
  });
});

describe('detectProfile without a JSON-RPC endpoint', () => {
  it('lists what each candidate path answered', async () => {
    const web = await startProxy(node.url, (res) => res, () => ({ status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>Not here</h1>' }));
    try {
      const error = await detectProfile({ url: web.url }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(NoRpcEndpointError);
      const answers = (error as NoRpcEndpointError).answers;
      expect(answers.map((a) => a.path)).toEqual(RPC_PATH_CANDIDATES);
      expect(answers.every((a) => a.answer.startsWith('HTTP 404'))).toBe(true);
    } finally {
      await web.close();
    }
  });

  it('a server that takes connections and never answers: each path that timed out is said as it happens, and two are enough', async () => {
    const silent = createServer((socket) => socket.on('data', () => undefined));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as AddressInfo;
    try {
      const lines: string[] = [];
      const error = await detectProfile({ url: `http://127.0.0.1:${port}`, requestTimeoutMs: 300, onProgress: (l) => lines.push(l) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NoRpcEndpointError);
      expect((error as NoRpcEndpointError).unreachable).toBe(true);
      expect((error as NoRpcEndpointError).answers.map((a) => a.path)).toEqual(RPC_PATH_CANDIDATES.slice(0, 2));
      expect(lines).toContainEqual(expect.stringMatching(/^rpcPath: POST \/rpc: no answer \(TIMEOUT\b.*; trying \/$/));
    } finally {
      silent.close();
    }
  });

  it('a port nobody listens on is refused at once', async () => {
    const error = await detectProfile({ url: 'http://127.0.0.1:9' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoRpcEndpointError);
    expect((error as NoRpcEndpointError).answers).toHaveLength(1);
  });
});

describe('detectProfile and a node whose fresh accounts are errors', () => {
  it('reads the integers of the account the faucet funded: a hex nonce among JSON numbers goes into methodIntegers', async () => {
    // An unknown address is an error (AccountNotFound, a legal choice), so the only account detect sees is the
    // one its faucet claim funded; that node writes an account's nonce as a hex quantity, every other integer as
    // a JSON number (as an outside tester's node wrote "Nonce": "0x0").
    const varying = await startVaryingNode(node.url, ['unknown-account-error']);
    const hexNonces = await startProxy(varying.url, (res) => ({ ...res, body: res.body.replace(/"nonce":(\d+)/g, (_, n: string) => `"nonce":"0x${BigInt(n).toString(16)}"`) }));
    try {
      const r = await detectProfile({ url: hexNonces.url, limits: false, transactions: false });
      const f = Object.fromEntries(r.findings.map((x) => [x.key, x]));
      expect([f.unknownAccount?.value, f.integers?.value, f.methodIntegers?.value, f.methodIntegers?.confidence]).toEqual(['error', 'number', { chain_getAccount: 'hex' }, 'high']);
      expect(f.methodIntegers?.evidence).toMatch(/chain_getAccount writes hex quantities \(the funded account's nonce\), while the others write JSON numbers/);
      // The draft as written: the account the suite funds is judged by the profile's shape, not failed for its "0x…" nonce.
      const profile = await profileFromJson(r.profile, 'detected.json');
      const results = await runChecks(catalogue().filter((c) => c.id === 'chain_getAccount/profile-shape'), [hexNonces.url], { profile });
      expect(describeResults(results)).toEqual([expect.stringMatching(/^chain_getAccount\/profile-shape: pass/)]);
    } finally {
      await hexNonces.close();
      await varying.close();
    }
  }, 30_000);
});

describe('detectProfile and a node that answers a missing param with -32603 (Internal error)', () => {
  it('does not take the bug as the node\'s code for the condition: the draft keeps the InvalidParams code, so a right -32602 for a param too many passes', async () => {
    // An outside tester's node: params [] to chain_getAccount answered -32603. The draft wrote it as
    // InvalidParams/count, and then failed the node's right -32602 answers to chain_blockNumber [1] at PROFILE.
    const bug = await startProxy(node.url, (res, req) =>
      req.body.includes('"chain_getAccount","params":[]') ? { ...res, body: res.body.replace(/"error":\{"code":-32602,"message":"[^"]*"/, '"error":{"code":-32603,"message":"Internal error"') } : res,
    );
    try {
      const r = await detectProfile({ url: bug.url, limits: false, transactions: false });
      const count = r.findings.find((x) => x.key === 'errorCodes.InvalidParams/count');
      expect(count).toMatchObject({ value: -32603, confidence: 'low', written: false });
      expect(count?.evidence).toMatch(/-32603 is JSON-RPC's Internal error, not a code for params: not written/);
      const profile = await profileFromJson(r.profile, 'detected.json');
      expect(profile.errorCodes['InvalidParams/count']).toBeUndefined();
      const results = await runChecks(catalogue().filter((c) => c.id === 'chain_blockNumber/extra-params'), [bug.url], { profile });
      expect(describeResults(results)).toEqual([expect.stringMatching(/^chain_blockNumber\/extra-params: pass/)]);
    } finally {
      await bug.close();
    }
  }, 30_000);
});
