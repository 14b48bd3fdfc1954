import { isUnreachable, unreachableMessage } from '../../core/client/baseUrl.js';
import { createClient } from '../../core/client/index.js';
import type { RpcClient } from '../../core/client/index.js';
import type { Check } from '../Check.js';
import { CheckContext, MAX_RESPONSE_BYTES } from '../CheckContext.js';
import { CheckError, CheckFailure, CheckSkip } from '../checkOutcomes.js';
import type { RunShared } from '../CheckContext.js';
import type { CheckResult, Exchange, Level, RunResult, Status } from '../model.js';
import type { Profile } from '../../profile/Profile.js';
import { asU64 } from '../../profile/readWire.js';
import { Wallet } from '../Wallet.js';
import type { Baseline } from './Baseline.js';
import { reproduceFor } from './reproduce.js';
import { runHints } from './runHints.js';
import { runResult } from './runResult.js';

export interface SuiteOptions {
  targets: string[];
  profile: Profile;
  /** The checks to run (already filtered by --only / --skip). */
  checks: Check[];
  only?: string[];
  skip?: string[];
  /** How many MUST checks of the catalogue --only / --skip left out (default 0): the run cannot certify without them. */
  mustLeftOut?: number;
  gate: Level;
  baseline?: Baseline;
  /** Checks (or flows) running at once. Default 8. */
  concurrency?: number;
  /** Per-check limit, ms. Default max(20 s, 20 block times). */
  checkTimeoutMs?: number;
  /** The whole run's limit, ms: what has not finished then gets an error verdict. Default 5 min. */
  deadlineMs?: number;
  version: string;
  onStart?: (total: number) => void;
  onResult?: (result: CheckResult, done: number, total: number) => void;
  /** Extra sink for every exchange (the transcript is also returned). */
  onExchange?: (exchange: Exchange) => void;
  /**
   * The `chainrpc test` options that shape this run (--profile, --rpc-path, ...), for the command that
   * runs a failed check again where its request was too long to keep whole. Default none.
   */
  rerunArgs?: string[];
}

export interface SuiteRun {
  run: RunResult;
  /** Every exchange of the run, in order (bodies capped). */
  transcript: Exchange[];
}

/** Most exchanges kept for the transcript: a run against a hostile node must stay bounded. */
const MAX_TRANSCRIPT = 20_000;

interface Job {
  checks: Check[];
  node: string;
}

/**
 * Runs the checks against the targets: independent checks concurrently (bounded), the checks of one
 * flow in order, each under its own timeout and all under a global deadline, so that a node that hangs,
 * floods or resets still gets a verdict per check and the run always ends.
 */
export async function runSuite(options: SuiteOptions): Promise<SuiteRun> {
  const started = Date.now();
  const profile = options.profile;
  const checkTimeoutMs = options.checkTimeoutMs ?? Math.max(20_000, profile.blockTimeMs * 20);
  const deadlineMs = options.deadlineMs ?? 300_000;
  const deadline = new AbortController();
  const deadlineTimer = setTimeout(() => deadline.abort(), deadlineMs);
  const transcript: Exchange[] = [];
  const clients = new Map<string, RpcClient>();
  const wallets = new Map<string, Wallet>();
  const chainIds = new Map<string, Promise<bigint>>();
  let ids = 1000;

  const shared: RunShared = {
    profile,
    targets: options.targets,
    client(node) {
      let c = clients.get(node);
      if (!c) {
        c = createClient({ baseUrl: node, rpcPath: profile.rpcPath, connections: 8, timeoutMs: Math.min(checkTimeoutMs, 10_000), maxResponseBytes: MAX_RESPONSE_BYTES });
        clients.set(node, c);
      }
      return c;
    },
    wallet(node) {
      let w = wallets.get(node);
      if (!w) {
        w = new Wallet(node);
        wallets.set(node, w);
      }
      return w;
    },
    record(exchange) {
      if (transcript.length < MAX_TRANSCRIPT) transcript.push(exchange);
      options.onExchange?.(exchange);
    },
    chainId(node) {
      let p = chainIds.get(node);
      if (!p) {
        p = (async () => {
          if (profile.chainId !== undefined) return profile.chainId;
          const probe = new CheckContext(shared, { id: 'setup/chain-id', level: 'PROFILE', category: 'methods', title: 'chain id', spec: '', scope: 'node' }, node, deadline.signal);
          const r = await probe.call('chain_health', [], node).catch(() => undefined);
          return (r?.ok ? asU64(probe.field(r.result, 'chain_id')) : undefined) ?? 1n;
        })();
        chainIds.set(node, p);
      }
      return p;
    },
    nextId: () => ids++,
    served: new Map(),
  };

  // Reachability: a target that does not answer a JSON-RPC call at all gets an error verdict on every
  // check (exit code 3 when none answers); checks that need it are not run against it.
  const unreachable = new Map<string, { message: string; exchanges: Exchange[] }>();
  await Promise.all(
    options.targets.map(async (node) => {
      const ctx = new CheckContext(shared, { id: 'setup/reachable', level: 'MUST', category: 'transport', title: 'reachable', spec: '', scope: 'node' }, node, AbortSignal.timeout(Math.min(checkTimeoutMs, 10_000)));
      try {
        const res = await ctx.post({ jsonrpc: '2.0', method: ctx.method('chain_blockNumber'), params: [], id: 1 });
        const endpoint = `${node}${profile.rpcPath === '/' ? '' : profile.rpcPath}`;
        const json = res.json;
        // An endpoint answers a call as a call: with its id, whatever it says. An error page in JSON (a 404
        // with id null for a path the server does not serve) is not one; a 2xx answer is left to the checks.
        const answersCalls = typeof json === 'object' && json !== null && !Array.isArray(json) && (json.id === 1 || (res.status >= 200 && res.status < 300));
        if (!answersCalls) {
          const got = json === undefined ? 'no JSON' : `${res.text.slice(0, 160)}${res.text.length > 160 ? '…' : ''}`;
          unreachable.set(node, { message: `${endpoint} does not answer JSON-RPC calls (HTTP ${res.status}: ${got}): not a JSON-RPC endpoint`, exchanges: ctx.exchanges });
        }
      } catch (err) {
        // Nothing answered at all (refused, no such host, no answer in time): the node is not running there.
        const cause = (err as Error).cause;
        const message = isUnreachable(cause) ? unreachableMessage(node, `${cause.code}: ${cause.message}`) : `${node} is unreachable: ${(err as Error).message}`;
        unreachable.set(node, { message, exchanges: ctx.exchanges });
      }
    }),
  );
  const reachable = options.targets.filter((t) => !unreachable.has(t));

  const results: CheckResult[] = [];
  const shownBy = new WeakMap<CheckResult, Exchange>();
  const jobs: Job[] = [];
  const immediate: CheckResult[] = [];
  const resultOf = (check: Check, node: string, status: Status, message: string, exchanges: Exchange[] = [], durationMs = 0): CheckResult => ({
    id: check.id,
    level: check.level,
    category: check.category,
    title: check.title,
    spec: check.spec,
    scope: check.scope,
    node,
    status,
    evidence: { message, exchanges },
    durationMs,
  });
  for (const node of options.targets) {
    const down = unreachable.get(node);
    const flows = new Map<string, Check[]>();
    for (const check of options.checks.filter((c) => c.scope === 'node')) {
      if (down) {
        immediate.push(resultOf(check, node, 'error', down.message, down.exchanges));
      } else if (check.flow) {
        const list = flows.get(check.flow) ?? [];
        list.push(check);
        if (list.length === 1) jobs.push({ checks: list, node });
        flows.set(check.flow, list);
      } else {
        jobs.push({ checks: [check], node });
      }
    }
  }
  for (const check of options.checks.filter((c) => c.scope === 'network')) {
    if (reachable.length === 0) immediate.push(resultOf(check, 'network', 'error', 'no target is reachable'));
    else if (check.needs?.includes('several-nodes') && options.targets.length < 2) immediate.push(resultOf(check, 'network', 'skip', 'needs at least two --url'));
    else if (reachable.length < options.targets.length) immediate.push(resultOf(check, 'network', 'error', `not every target is reachable: ${[...unreachable.keys()].join(', ')}`));
    else jobs.push({ checks: [check], node: 'network' });
  }

  const total = immediate.length + jobs.reduce((n, j) => n + j.checks.length, 0);
  options.onStart?.(total);
  const emit = (r: CheckResult): void => {
    const mark = options.baseline?.mark(r);
    if (mark) r.baseline = mark;
    // The exchange that showed the failure: the one the check names, else its last (checks stop at the first wrong answer).
    const reproduce = reproduceFor(r, shownBy.get(r) ?? r.evidence.exchanges[r.evidence.exchanges.length - 1], { targets: options.targets, args: options.rerunArgs ?? [] });
    if (reproduce !== undefined) r.reproduce = reproduce;
    results.push(r);
    options.onResult?.(r, results.length, total);
  };
  for (const r of immediate) emit(r);

  const runOne = async (check: Check, node: string): Promise<CheckResult> => {
    const begin = Date.now();
    if (deadline.signal.aborted) return resultOf(check, node, 'error', `not run: the run's deadline (${deadlineMs} ms) passed`);
    if (check.needs?.includes('crafted-transactions') && !profile.codec.crafted) return resultOf(check, node, 'skip', `the profile's codec (${profile.codec.name}) has no crafted variants`);
    const controller = new AbortController();
    const onDeadline = (): void => controller.abort();
    deadline.signal.addEventListener('abort', onDeadline);
    const target = node === 'network' ? (reachable[0] ?? node) : node;
    const ctx = new CheckContext(shared, check, target, controller.signal);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve('timeout');
      }, checkTimeoutMs);
    });
    try {
      const outcome = await Promise.race([check.run(ctx).then((note) => ({ note })), timedOut]);
      if (outcome === 'timeout') return resultOf(check, node, 'error', `the check did not finish within ${checkTimeoutMs} ms`, ctx.exchanges, Date.now() - begin);
      return resultOf(check, node, 'pass', outcome.note ?? check.title, ctx.exchanges, Date.now() - begin);
    } catch (err) {
      const ms = Date.now() - begin;
      if (err instanceof CheckFailure) {
        const r = resultOf(check, node, 'fail', err.message, ctx.exchanges, ms);
        if (err.expected !== undefined) r.evidence.expected = err.expected;
        if (err.actual !== undefined) r.evidence.actual = err.actual;
        const shown = err.shown ?? ctx.lastShown();
        if (shown !== undefined) shownBy.set(r, shown);
        return r;
      }
      if (err instanceof CheckSkip) return resultOf(check, node, 'skip', err.message, ctx.exchanges, ms);
      if (controller.signal.aborted) {
        const why = deadline.signal.aborted ? `the run's deadline (${deadlineMs} ms) passed` : `the check did not finish within ${checkTimeoutMs} ms`;
        return resultOf(check, node, 'error', why, ctx.exchanges, ms);
      }
      const message = err instanceof CheckError ? err.message : `the check itself failed (a bug in the suite or an unexpected answer): ${(err as Error).message}`;
      return resultOf(check, node, 'error', message, ctx.exchanges, ms);
    } finally {
      clearTimeout(timer);
      deadline.signal.removeEventListener('abort', onDeadline);
    }
  };

  let next = 0;
  const worker = async (): Promise<void> => {
    for (let job = jobs[next++]; job !== undefined; job = jobs[next++]) {
      for (const check of job.checks) emit(await runOne(check, job.node));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
  clearTimeout(deadlineTimer);
  await Promise.all([...clients.values()].map((c) => c.close().catch(() => undefined)));

  const order = new Map(options.checks.map((c, i) => [c.id, i]));
  results.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0) || a.node.localeCompare(b.node));
  return {
    run: runResult({
      version: options.version,
      startedMs: started,
      finishedMs: Date.now(),
      targets: options.targets,
      profile: { name: profile.name, source: profile.source },
      gate: options.gate,
      options: {
        only: options.only ?? [],
        skip: options.skip ?? [],
        ...(options.baseline ? { baseline: options.baseline.path } : {}),
        deadlineMs,
      },
      results,
      noTarget: reachable.length === 0,
      mustLeftOut: options.mustLeftOut ?? 0,
      hints: runHints({ targets: options.targets, profile, results, transcript }),
    }),
    transcript,
  };
}
