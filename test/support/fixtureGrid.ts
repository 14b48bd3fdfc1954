/**
 * RunResults of a run against several nodes, for the grid of report.html and summary.md (and anything else
 * that reads such a run). `gridRun({ nodes })` checks 2 to 5 nodes with the same checks; each node has a
 * part to play:
 *
 * - node 1 (index 0) errs on one check (the connection reset), skips one the others pass, and carries a
 *   baseline entry that passes now;
 * - node 2 (index 1) fails four checks: two at MUST, one PROFILE failure whose response is hostile (markup
 *   that tries to close the report's script, control characters) and does not gate, and one SHOULD
 *   failure a baseline expects; with two nodes, it also fails the check whose baseline entry expired;
 * - node 3 (index 2) skips the discovery check the others pass;
 * - node 5 (index 4, a long https URL with a path) fails the empty-batch check like node 2, and the check
 *   whose baseline entry expired;
 * - every node skips one PROFILE check; the network checks give one result each (pass, fail, skip).
 *
 * Every other check passes everywhere: `fillers` of them (generated ids), or the `checks` given (the real
 * catalogue's, for screenshots). The results come in the runner's order (by check, then by node) and the
 * summary is the runner's own (runResult).
 */
import type { CheckInfo, CheckResult, Level, RunResult } from '../../suites/model.js';
import { summarize } from '../../suites/runner/verdict.js';
import { runResult } from '../../suites/runner/runResult.js';
import { HOSTILE_MESSAGE, NODE_A, U128_MAX, U64_MAX, fixtureExchange, fixtureOk as ok, fixtureResult, fixtureRpc as rpc, fixtureRun } from './fixtureRun.js';
import type { ExchangeSpec, ResultSpec } from './fixtureRun.js';

export const GRID_NODES = [
  'http://127.0.0.1:8545',
  'http://127.0.0.1:8546',
  'http://127.0.0.1:8547',
  'http://10.20.30.40:8545',
  'https://rpc-node-5.eu-west-1.staging.example-chain.network:8545/gateway',
] as const;

/**
 * The checks the fixture fails or errors on some node, in the order a grid shows them (category, then the
 * fixture's order): the grid's first part, which the grid's tests expect.
 */
export const GRID_FAILING_IDS: readonly string[] = [
  'transport/empty-batch',
  'chain_getAccount/balance-is-u128-string',
  'chain_getBlockByHeight/unknown-height-error',
  'chain_sendRawTransaction/rejects-bad-signature',
  'chain_getBlockByHeight/head-height-monotonic',
  'chain_getBlockByHeight/genesis-height-zero',
  'network/tx-propagation',
];

export interface GridFixtureOptions {
  /** How many nodes (2 to 5; default 2). */
  nodes?: number;
  /** The checks that pass everywhere; default: `fillers` generated ones. Network-scope ones among them pass once for the network. */
  checks?: readonly CheckInfo[];
  /** How many generated checks pass everywhere when `checks` is not given (default 12). */
  fillers?: number;
  gate?: Level;
}

type Outcome = Pick<ResultSpec, 'status' | 'message' | 'expected' | 'actual' | 'exchanges' | 'baseline' | 'durationMs'>;

interface GridCheck extends CheckInfo {
  /** The outcome on node i of `nodes`. */
  on: (node: string, i: number, nodes: readonly string[]) => Outcome;
}

const ADDRESS = 'cd'.repeat(32);

// Exchanges are stamped 7 ms apart from the start of each run, so that two runs made alike are equal.
let clock = 0;
const exchange = (spec: ExchangeSpec): ReturnType<typeof fixtureExchange> => fixtureExchange({ at: (clock += 7), ...spec });

const passing = (node: string, message: string, method = 'chain_blockNumber', result = '42'): Outcome => ({
  status: 'pass',
  message,
  exchanges: [exchange({ node, body: rpc(method, '[]'), response: ok(result) })],
});

const reset = (node: string): Outcome => ({
  status: 'error',
  message: 'no verdict: the node reset the connection (UND_ERR_SOCKET)',
  exchanges: [exchange({ node, body: rpc('chain_blockNumber', '[]'), failure: 'UND_ERR_SOCKET: other side closed', ms: 30.4 })],
  durationMs: 31,
});

/** The index of the node that fails the check whose baseline entry expired: the fifth, or the second of fewer than five. */
const expiredOn = (nodes: readonly string[]): number => (nodes.length >= 5 ? 4 : 1);

const ROLES: readonly GridCheck[] = [
  {
    id: 'transport/empty-batch',
    level: 'MUST',
    category: 'transport',
    title: 'An empty batch is answered with one Invalid Request error',
    spec: 'JSON-RPC 2.0 §6',
    scope: 'node',
    on: (node, i) =>
      i === 1 || i === 4
        ? {
            status: 'fail',
            message: 'an empty batch was answered with an empty array, not with one Invalid Request error object',
            expected: '{"jsonrpc":"2.0","error":{"code":-32600,...},"id":null}',
            actual: '[]',
            exchanges: [exchange({ node, body: '[]', response: '[]' })],
          }
        : passing(node, 'answered with a single error object, code -32600'),
  },
  {
    id: 'transport/control-characters-answered',
    level: 'PROFILE',
    category: 'transport',
    title: 'A body with raw control characters is refused with Parse error -32700',
    spec: 'profile: docs/reference-profile.md#transport',
    scope: 'node',
    on: () => ({ status: 'skip', message: 'the profile in use does not say how control characters are refused' }),
  },
  {
    id: 'chain_getAccount/balance-is-u128-string',
    level: 'MUST',
    category: 'methods',
    title: 'Account balance is a u128 decimal string',
    spec: 'spec: Resources > Account',
    scope: 'node',
    on: (node, i) =>
      i === 1
        ? {
            status: 'fail',
            message: 'result.balance is a JSON number; the spec requires a decimal string (u128)',
            expected: `a decimal string such as "${U128_MAX}"`,
            actual: `${U128_MAX} (a number)`,
            exchanges: [exchange({ node, body: rpc('chain_getAccount', `["${ADDRESS}"]`), response: ok(`{"address":"${ADDRESS}","balance":${U128_MAX},"nonce":${U64_MAX}}`) })],
          }
        : passing(node, 'balance is "1000000000000000000000"', 'chain_getAccount', `{"address":"${ADDRESS}","balance":"1000000000000000000000","nonce":"0"}`),
  },
  {
    id: 'chain_getBlockByHeight/unknown-height-error',
    level: 'PROFILE',
    category: 'methods',
    title: 'An unknown height is refused with code -32004',
    spec: 'profile: docs/reference-profile.md#unknown-height',
    scope: 'node',
    on: (node, i) =>
      i === 1
        ? {
            status: 'fail',
            message: `error code -32000, the profile says -32004 (block not found): ${HOSTILE_MESSAGE}`,
            expected: '-32004',
            actual: '-32000 "bad \u0000\u0007 input \u001b[31mred\u001b[0m"',
            exchanges: [
              exchange({
                node,
                body: rpc('chain_getBlockByHeight', `[${U64_MAX}]`, 7),
                response: `{"jsonrpc":"2.0","error":{"code":-32000,"message":${JSON.stringify(HOSTILE_MESSAGE)}},"id":7}`,
              }),
            ],
          }
        : passing(node, 'refused with -32004', 'chain_getBlockByHeight', '{"code":-32004}'),
  },
  {
    id: 'chain_sendRawTransaction/rejects-bad-signature',
    level: 'SHOULD',
    category: 'methods',
    title: 'A transaction with a bad signature is refused with a JSON-RPC error',
    spec: 'spec: chain_sendRawTransaction',
    scope: 'node',
    on: (node, i) =>
      i === 1
        ? {
            status: 'fail',
            message: 'the transaction was accepted into the mempool',
            expected: 'a JSON-RPC error',
            actual: 'result "0x9f…"',
            baseline: { state: 'expected-fail', reason: 'ticket #42: signature checks land in v2', expires: '2099-12-31' },
            exchanges: [exchange({ node, body: rpc('chain_sendRawTransaction', '["00ff"]'), response: ok('"9f86d081884c7d65"') })],
          }
        : passing(node, 'refused with -32602', 'chain_sendRawTransaction', '{"code":-32602}'),
  },
  {
    id: 'net_peerCount/is-u64',
    level: 'SHOULD',
    category: 'methods',
    title: 'net_peerCount is a u64 decimal string',
    spec: 'spec: net_peerCount',
    scope: 'node',
    on: (node, i) => ({ ...passing(node, 'result "2"', 'net_peerCount', '"2"'), ...(i === 0 ? { baseline: { state: 'now-passing' as const, reason: 'was a hex string before v1.3' } } : {}) }),
  },
  {
    id: 'chain_getBlockByHeight/head-height-monotonic',
    level: 'MUST',
    category: 'chain',
    title: 'The head height never goes backwards',
    spec: 'spec: Blocks',
    scope: 'node',
    on: (node, i) => (i === 0 ? reset(node) : passing(node, 'heights 40, 41, 41, 42')),
  },
  {
    id: 'chain_getBlockByHeight/genesis-height-zero',
    level: 'MUST',
    category: 'chain',
    title: 'The genesis block has height 0',
    spec: 'spec: Blocks',
    scope: 'node',
    on: (node, i, nodes) =>
      i === expiredOn(nodes)
        ? {
            status: 'fail',
            message: 'block 0 has "height":"1"',
            expected: '"0"',
            actual: '"1"',
            baseline: { state: 'expired', reason: 'ticket #17: off-by-one in genesis', expires: '2024-12-31' },
            exchanges: [exchange({ node, body: rpc('chain_getBlockByHeight', '[0]'), response: ok('{"height":"1","hash":"00","parent":null}') })],
          }
        : passing(node, 'block 0 has height "0"', 'chain_getBlockByHeight', '{"height":"0"}'),
  },
  {
    id: 'chain_faucetClaim/grants-funds',
    level: 'PROFILE',
    category: 'state',
    title: 'A faucet claim credits the account',
    spec: 'profile: docs/reference-profile.md#faucet',
    scope: 'node',
    on: (node, i) => (i === 0 ? { status: 'skip', message: 'the node has no faucet (chain_faucetClaim is not a method here)' } : passing(node, 'credited 10 units', 'chain_faucetClaim', '"ok"')),
  },
  {
    id: 'network/consistent-head',
    level: 'MUST',
    category: 'network',
    title: 'All nodes agree on the block at a common height',
    spec: 'spec: Network',
    scope: 'network',
    on: (_node, _i, nodes) => ({
      status: 'pass',
      message: `all ${nodes.length} nodes return the same hash at height 40`,
      exchanges: nodes.map((n, k) => exchange({ node: n, body: rpc('chain_getBlockByHeight', '[40]'), response: ok('{"height":"40","hash":"aa"}'), at: 1 + k })),
    }),
  },
  {
    id: 'network/tx-propagation',
    level: 'SHOULD',
    category: 'network',
    title: 'A transaction sent to one node reaches the others',
    spec: 'spec: Network',
    scope: 'network',
    on: (_node, _i, nodes) => ({
      status: 'fail',
      message: `the transaction sent to ${nodes[0] ?? ''} was not in the mempool of ${nodes[1] ?? ''} after 5 s`,
      expected: 'present on every node',
      actual: `missing on ${nodes[1] ?? ''}`,
      exchanges: [
        exchange({ node: nodes[0] ?? '', body: rpc('chain_sendRawTransaction', '["0a0b"]'), response: ok('"77aa"'), at: 3 }),
        exchange({ node: nodes[1] ?? '', body: rpc('chain_getTransaction', '["77aa"]'), response: ok('null'), at: 5004 }),
      ],
      durationMs: 5010,
    }),
  },
  {
    id: 'network/peers-listed',
    level: 'PROFILE',
    category: 'network',
    title: 'Each node lists the others as peers',
    spec: 'profile: docs/reference-profile.md#peers',
    scope: 'network',
    on: () => ({ status: 'skip', message: 'the profile in use does not say how peers are listed' }),
  },
  {
    id: 'discovery/rpc-discover-openrpc',
    level: 'PROFILE',
    category: 'discovery',
    title: 'rpc.discover returns a valid OpenRPC document',
    spec: 'OpenRPC 1.2.6',
    scope: 'node',
    on: (node, i) => (i === 2 ? { status: 'skip', message: 'rpc.discover is not offered (-32601)' } : passing(node, 'a valid OpenRPC 1.2.6 document with 11 methods', 'rpc.discover', '{"openrpc":"1.2.6"}')),
  },
];

/** The checks with a part to play: `checks` given with the same ids are left out, so that each id has one row. */
const ROLE_IDS: ReadonlySet<string> = new Set(ROLES.map((c) => c.id));

function fillers(count: number): CheckInfo[] {
  const categories = ['transport', 'methods', 'chain', 'state', 'pou', 'discovery'] as const;
  const levels: readonly Level[] = ['MUST', 'SHOULD', 'PROFILE'];
  return Array.from({ length: count }, (_, i) => ({
    id: `${categories[i % categories.length] ?? 'methods'}/generated-${String(i).padStart(3, '0')}`,
    level: levels[i % levels.length] ?? 'MUST',
    category: categories[i % categories.length] ?? 'methods',
    title: `Generated check ${i}, passing everywhere`,
    spec: 'spec: Generated',
    scope: 'node' as const,
  }));
}

/** A run of the same checks against `nodes` nodes (see above). Every call returns a fresh object. */
export function gridRun(options: GridFixtureOptions = {}): RunResult {
  clock = 0;
  const count = Math.min(GRID_NODES.length, Math.max(2, options.nodes ?? 2));
  const nodes = GRID_NODES.slice(0, count);
  const extra: GridCheck[] = (options.checks ?? fillers(options.fillers ?? 12))
    .filter((c) => !ROLE_IDS.has(c.id))
    .map((c) => ({ ...c, on: (node: string) => passing(node, c.title) }));
  // Role checks first in each category, then the others of that category, in category order.
  const order = ['transport', 'methods', 'chain', 'state', 'pou', 'network', 'discovery'];
  const checks = [...ROLES, ...extra].sort((a, b) => order.indexOf(a.category) - order.indexOf(b.category));
  const results: CheckResult[] = [];
  for (const check of checks) {
    const { on, ...info } = check;
    const make = (node: string, outcome: Outcome): CheckResult => fixtureResult({ ...info, node, ...outcome });
    if (check.scope === 'network') results.push(make('network', on('network', -1, nodes)));
    else nodes.forEach((node, i) => results.push(make(node, on(node, i, nodes))));
  }
  return runResult({
    version: '0.1.0',
    startedMs: Date.parse('2025-03-01T12:00:00.000Z'),
    finishedMs: Date.parse('2025-03-01T12:00:00.000Z') + 18_400,
    targets: [...nodes],
    profile: { name: 'reference', source: 'built-in (docs/reference-profile.md)' },
    gate: options.gate ?? 'MUST',
    options: { only: [], skip: [], baseline: '.chainrpc/baseline.json', deadlineMs: 120_000 },
    results,
    noTarget: false,
    hints: [],
  });
}

/** fixtureRun's run against its first node only (its results on NODE_A and the network's), summed again. */
export function oneNodeRun(): RunResult {
  const run = fixtureRun();
  run.targets = [NODE_A];
  run.results = run.results.filter((r) => r.node === NODE_A || r.node === 'network');
  run.summary = summarize(run.results, run.gate, false);
  return run;
}
