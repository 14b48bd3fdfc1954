/**
 * A realistic RunResult for tests of reports and of anything that consumes them: passes on two nodes,
 * failures with evidence and reproduce commands, a transport error, skips, network-scope checks, and a
 * baseline with an expected failure, a now-passing entry and an expired one. Its evidence is hostile
 * where nodes can be: a response body that tries to close the report's script and inject markup,
 * control characters and a terminal escape, integers beyond 2^64, and non-ASCII text.
 *
 * The results are made up; everything the runner derives from them is the runner's own code: the
 * reproduce commands (reproduceFor), the summary and verdict (runResult, which sums with the verdict rules).
 */
import { LEVELS } from '../../suites/model.js';
import type { BaselineMark, CheckResult, Exchange, Level, RunResult } from '../../suites/model.js';
import { reproduceFor } from '../../suites/runner/reproduce.js';
import { runResult } from '../../suites/runner/runResult.js';

export const NODE_A = 'http://127.0.0.1:8545';
export const NODE_B = 'http://127.0.0.1:8546';
/** What a hostile node put in an error message: it must show as text, never run. */
export const HOSTILE_MESSAGE = '</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> Blöck nicht gefunden: 日本語 ✓';
export const U128_MAX = '340282366920938463463374607431768211455';
export const U64_MAX = '18446744073709551615';

const T0 = Date.parse('2025-03-01T12:00:00.000Z');
const ADDRESS = 'ab'.repeat(32);

let clock = 0;
// Exchanges are stamped out of result order on purpose (network checks interleave with per-node ones).
const stamp = (offsetMs: number): string => new Date(T0 + offsetMs).toISOString();

interface ExchangeSpec {
  node: string;
  body: string;
  status?: number;
  response?: string;
  truncated?: boolean;
  failure?: string;
  ms?: number;
  at?: number;
}

function exchange(spec: ExchangeSpec): Exchange {
  const at = spec.at ?? (clock += 7);
  const out: Exchange = {
    node: spec.node,
    request: {
      method: 'POST',
      url: `${spec.node}/rpc`,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(spec.body)), 'user-agent': 'chainrpc/0.1.0' },
      body: spec.body,
    },
    ms: spec.ms ?? 3.2,
    startedAt: stamp(at),
  };
  if (spec.response !== undefined) {
    out.response = {
      status: spec.status ?? 200,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(spec.response)) },
      body: spec.response,
      truncated: spec.truncated ?? false,
    };
  }
  if (spec.failure !== undefined) out.failure = spec.failure;
  return out;
}

const rpc = (method: string, params: string, id: number | string = 1): string => `{"jsonrpc":"2.0","method":"${method}","params":${params},"id":${JSON.stringify(id)}}`;
const ok = (result: string, id = 1): string => `{"jsonrpc":"2.0","result":${result},"id":${id}}`;

interface ResultSpec extends Omit<CheckResult, 'evidence' | 'durationMs' | 'scope' | 'reproduce'> {
  message: string;
  expected?: string;
  actual?: string;
  exchanges?: Exchange[];
  scope?: 'node' | 'network';
  durationMs?: number;
}

function result(spec: ResultSpec): CheckResult {
  const { message, expected, actual, exchanges = [], scope = 'node', durationMs = 4.5, ...info } = spec;
  const out: CheckResult = { ...info, scope, durationMs, evidence: { message, exchanges } };
  if (expected !== undefined) out.evidence.expected = expected;
  if (actual !== undefined) out.evidence.actual = actual;
  // As the runner does when a check names no exchange: its last one showed the failure.
  const reproduce = reproduceFor(out, exchanges[exchanges.length - 1], { targets: [NODE_A, NODE_B], args: [] });
  if (reproduce !== undefined) out.reproduce = reproduce;
  return out;
}

const mark = (state: BaselineMark['state'], reason: string, expires?: string): BaselineMark =>
  expires === undefined ? { state, reason } : { state, reason, expires };

function baseResults(): CheckResult[] {
  clock = 0;
  const contentType = (node: string): CheckResult =>
    result({
      id: 'transport/content-type-json',
      level: 'MUST',
      category: 'transport',
      title: 'Responses are sent as application/json',
      spec: 'spec: Transport',
      node,
      status: 'pass',
      message: 'content-type: application/json',
      exchanges: [exchange({ node, body: rpc('chain_blockNumber', '[]'), response: ok('42') })],
    });
  const emptyBatch = (node: string, pass: boolean): CheckResult =>
    result({
      id: 'transport/empty-batch',
      level: 'MUST',
      category: 'transport',
      title: 'An empty batch is answered with one Invalid Request error',
      spec: 'JSON-RPC 2.0 §6',
      node,
      status: pass ? 'pass' : 'fail',
      message: pass ? 'answered with a single error object, code -32600' : 'an empty batch was answered with an empty array, not with one Invalid Request error object',
      ...(pass ? {} : { expected: '{"jsonrpc":"2.0","error":{"code":-32600,...},"id":null}', actual: '[]' }),
      exchanges: [
        exchange({
          node,
          body: '[]',
          response: pass ? '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"},"id":null}' : '[]',
        }),
      ],
    });
  const balance = (node: string, pass: boolean): CheckResult =>
    result({
      id: 'chain_getAccount/balance-is-u128-string',
      level: 'MUST',
      category: 'methods',
      title: 'Account balance is a u128 decimal string',
      spec: 'spec: Resources > Account',
      node,
      status: pass ? 'pass' : 'fail',
      message: pass ? 'balance is "1000000000000000000000"' : 'result.balance is a JSON number; the spec requires a decimal string (u128)',
      ...(pass ? {} : { expected: `a decimal string such as "${U128_MAX}"`, actual: `${U128_MAX} (a number)` }),
      exchanges: [
        exchange({
          node,
          body: rpc('chain_getAccount', `["${ADDRESS}"]`),
          response: pass
            ? ok(`{"address":"${ADDRESS}","balance":"1000000000000000000000","nonce":"0"}`)
            : ok(`{"address":"${ADDRESS}","balance":${U128_MAX},"nonce":${U64_MAX}}`),
        }),
      ],
    });

  return [
    contentType(NODE_A),
    contentType(NODE_B),
    emptyBatch(NODE_A, true),
    emptyBatch(NODE_B, false),
    result({
      id: 'transport/control-characters-answered',
      level: 'PROFILE',
      category: 'transport',
      title: 'A body with raw control characters is refused with Parse error -32700',
      spec: 'profile: docs/reference-profile.md#transport',
      node: NODE_B,
      status: 'fail',
      message: 'the node echoed the control characters back inside an error message instead of code -32700',
      expected: 'code -32700',
      actual: 'code -32000, message "bad \u0000\u0007 input \u001b[31mred\u001b[0m"',
      exchanges: [
        exchange({
          node: NODE_B,
          body: '{"jsonrpc":"2.0","method":"chain_blockNumber\u0000\u0007","params":[],"id":"tab\there"}\r\n',
          response: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"bad \u0000\u0007 input \u001b[31mred\u001b[0m \udc00"},"id":null}',
        }),
      ],
    }),
    balance(NODE_A, false),
    balance(NODE_B, true),
    result({
      id: 'chain_getBlockByHeight/unknown-height-error',
      level: 'PROFILE',
      category: 'methods',
      title: 'An unknown height is refused with code -32004',
      spec: 'profile: docs/reference-profile.md#unknown-height',
      node: NODE_A,
      status: 'fail',
      message: 'error code -32000, the profile says -32004 (block not found)',
      expected: '-32004',
      actual: '-32000',
      exchanges: [
        exchange({
          node: NODE_A,
          body: rpc('chain_getBlockByHeight', `[${U64_MAX}]`, 7),
          response: `{"jsonrpc":"2.0","error":{"code":-32000,"message":${JSON.stringify(HOSTILE_MESSAGE)}},"id":7}`,
        }),
      ],
    }),
    result({
      id: 'chain_sendRawTransaction/rejects-bad-signature',
      level: 'SHOULD',
      category: 'methods',
      title: 'A transaction with a bad signature is refused with a JSON-RPC error',
      spec: 'spec: chain_sendRawTransaction',
      node: NODE_A,
      status: 'fail',
      message: 'the transaction was accepted into the mempool',
      expected: 'a JSON-RPC error',
      actual: 'result "0x9f…"',
      baseline: mark('expected-fail', 'ticket #42: signature checks land in v2', '2099-12-31'),
      exchanges: [exchange({ node: NODE_A, body: rpc('chain_sendRawTransaction', '["00ff"]'), response: ok('"9f86d081884c7d65"') })],
    }),
    result({
      id: 'chain_getBlockByHeight/head-height-monotonic',
      level: 'MUST',
      category: 'chain',
      title: 'The head height never goes backwards',
      spec: 'spec: Blocks',
      node: NODE_B,
      status: 'error',
      message: 'no verdict: the node reset the connection (UND_ERR_SOCKET)',
      exchanges: [exchange({ node: NODE_B, body: rpc('chain_blockNumber', '[]'), failure: 'UND_ERR_SOCKET: other side closed', ms: 30.4 })],
      durationMs: 31,
    }),
    result({
      id: 'chain_getBlockByHeight/genesis-height-zero',
      level: 'MUST',
      category: 'chain',
      title: 'The genesis block has height 0',
      spec: 'spec: Blocks',
      node: NODE_B,
      status: 'fail',
      message: 'block 0 has "height":"1"',
      expected: '"0"',
      actual: '"1"',
      baseline: mark('expired', 'ticket #17: off-by-one in genesis', '2024-12-31'),
      exchanges: [
        exchange({ node: NODE_B, body: rpc('chain_getBlockByHeight', '[0]'), response: ok('{"height":"1","hash":"00","parent":null}') }),
      ],
    }),
    ...[NODE_A, NODE_B].map((node) =>
      result({
        id: 'chain_faucetClaim/grants-funds',
        level: 'PROFILE',
        category: 'state',
        title: 'A faucet claim credits the account',
        spec: 'profile: docs/reference-profile.md#faucet',
        node,
        status: 'skip',
        message: 'the profile in use says the faucet is disabled',
      }),
    ),
    result({
      id: 'net_peerCount/is-u64',
      level: 'SHOULD',
      category: 'methods',
      title: 'net_peerCount is a u64 decimal string',
      spec: 'spec: net_peerCount',
      node: NODE_A,
      status: 'pass',
      message: 'result "2"',
      baseline: mark('now-passing', 'was a hex string before v1.3'),
      exchanges: [exchange({ node: NODE_A, body: rpc('net_peerCount', '[]'), response: ok('"2"') })],
    }),
    result({
      id: 'network/consistent-head',
      level: 'MUST',
      category: 'network',
      title: 'All nodes agree on the block at a common height',
      spec: 'spec: Network',
      node: 'network',
      scope: 'network',
      status: 'pass',
      message: 'both nodes return the same hash at height 40',
      exchanges: [
        exchange({ node: NODE_A, body: rpc('chain_getBlockByHeight', '[40]'), response: ok('{"height":"40","hash":"aa"}'), at: 1 }),
        exchange({ node: NODE_B, body: rpc('chain_getBlockByHeight', '[40]'), response: ok('{"height":"40","hash":"aa"}'), at: 2 }),
      ],
      durationMs: 12,
    }),
    result({
      id: 'network/tx-propagation',
      level: 'SHOULD',
      category: 'network',
      title: 'A transaction sent to one node reaches the others',
      spec: 'spec: Network',
      node: 'network',
      scope: 'network',
      status: 'fail',
      message: 'the transaction sent to node A was not in node B\u2019s mempool after 5 s',
      expected: 'present on every node',
      actual: `missing on ${NODE_B}`,
      exchanges: [
        exchange({ node: NODE_A, body: rpc('chain_sendRawTransaction', '["0a0b"]'), response: ok('"77aa"'), at: 3 }),
        exchange({ node: NODE_B, body: rpc('chain_getTransaction', '["77aa"]'), response: ok('null'), at: 5004, truncated: true }),
      ],
      durationMs: 5010,
    }),
    result({
      id: 'discovery/rpc-discover-openrpc',
      level: 'SHOULD',
      category: 'discovery',
      title: 'rpc.discover returns a valid OpenRPC document',
      spec: 'OpenRPC 1.2.6',
      node: NODE_A,
      status: 'pass',
      message: 'a valid OpenRPC 1.2.6 document with 11 methods',
    }),
  ];
}

export interface FixtureOptions {
  /** Extra passing checks (spread over the categories) for size and speed tests; 0 by default. */
  extraPasses?: number;
  gate?: Level;
}

/** The fixture run; every call returns a fresh object, so a test may change it freely. */
export function fixtureRun(options: FixtureOptions = {}): RunResult {
  const gate = options.gate ?? 'MUST';
  const results = baseResults();
  const categories = ['transport', 'methods', 'chain', 'state', 'pou', 'discovery'] as const;
  for (let i = 0; i < (options.extraPasses ?? 0); i++) {
    const category = categories[i % categories.length] ?? 'methods';
    const node = i % 2 === 0 ? NODE_A : NODE_B;
    results.push(
      result({
        id: `${category}/generated-${String(i).padStart(4, '0')}`,
        level: LEVELS[i % LEVELS.length] ?? 'MUST',
        category,
        title: `Generated passing check ${i}`,
        spec: 'spec: Generated',
        node,
        status: 'pass',
        message: 'as expected',
        exchanges: [exchange({ node, body: rpc('chain_blockNumber', '[]', i), response: ok(String(i), i) })],
      }),
    );
  }
  return runResult({
    version: '0.1.0',
    startedMs: T0,
    finishedMs: T0 + 6234.5,
    targets: [NODE_A, NODE_B],
    profile: { name: 'reference', source: 'built-in (docs/reference-profile.md)' },
    gate,
    options: { only: [], skip: ['load/*'], baseline: '.chainrpc/baseline.json', deadlineMs: 120_000 },
    results,
    noTarget: false,
    hints: [
      `--url ${NODE_B}/rpc already ends in /rpc, and the suite posts to {url}/rpc. Give the node's base URL.`,
      // A hint quotes what the user gave and the node answered: it is escaped like any evidence.
      'Nothing answered JSON-RPC at http://h/<script>alert(1)</script> (HTTP 404).',
    ],
  });
}

// The builders, for fixtures of other shapes (test/support/fixtureGrid.ts: runs against several nodes).
export { exchange as fixtureExchange, result as fixtureResult, rpc as fixtureRpc, ok as fixtureOk, type ExchangeSpec, type ResultSpec };

/** Every exchange of a run, in result order (not in time order), as a runner would hand them to writeReports. */
export function fixtureTranscript(run: RunResult): Exchange[] {
  return run.results.flatMap((r) => r.evidence.exchanges);
}
