/**
 * `npm run bench:fuzz`: the fuzzer's speed and reach, measured in one run against reference nodes in their own
 * processes (the build, `chainrpc node`), loopback only.
 *
 *   1. Cases per second against the honest node, liveness probes on (every risky case, every 100 cases), the
 *      default concurrency (4), no rate cap that binds; beside it the baseline measured right before: the same
 *      case bodies sent by the same client with nothing judged and no probe. The ratio is what the oracles,
 *      the probes and the generation cost. Goal (issue 23): 5,000 cases/s. Each fuzz run on one thread
 *      (chainrpc fuzz's default on fewer than 4 cores) and then with the case thread (--threads 2: cases made
 *      and answers judged beside the sending thread), with the sending thread's busy time per case (event-loop
 *      utilization): what the fuzzer could drive were the node on cores of its own. A run with the case thread
 *      starts a new thread, whose code V8 compiles again (the run on one thread reuses the warm main thread).
 *   2. Making a case and judging its answer, each measured apart on this thread, warm (partsApart): the
 *      fuzzer's own work per case without the machine's noise, which moves the rates of item 1 by a third from
 *      one round to the next here.
 *   3. Time to the first finding of each robustness fault (reference-node/faults/robustness.ts), seed 1, and
 *      the case that first showed it: each fault's documented budget is these figures with room.
 *
 * Both come after a warm-up run of 15,000 cases, not counted (V8 compiles the hot paths of the fuzzer and of the
 * node in it, WARM_UP below; a real run, 100,000 cases in the long script, is longer than that).
 *
 * Options: --cases N (for 1, default 10,000), --rounds N (pairs of 1, default 3), --concurrency N (default 4,
 * chainrpc fuzz's).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fromBuild } from './fromBuild.js';
import type * as caseAtModule from '../fuzz/cases/caseAt.js';
import type * as CaseContextModule from '../fuzz/cases/CaseContext.js';
import type * as runFuzzModule from '../fuzz/run/runFuzz.js';
import type * as sendCaseModule from '../fuzz/run/sendCase.js';
import type * as judgeAnswerModule from '../fuzz/run/judgeAnswer.js';
import type * as baseUrlModule from '../core/client/baseUrl.js';
import type * as fuzzVerdictModule from '../fuzz/fuzzVerdict.js';
import type * as referenceProfileModule from '../profile/referenceProfile.js';
import type * as faultCatalogueModule from '../reference-node/faults/faultCatalogue.js';
import type * as startDevnetModule from '../reference-node/devnet/startDevnet.js';
import type * as procStatModule from '../core/process/procStat.js';

const { caseAt } = await fromBuild<typeof caseAtModule>('fuzz/cases/caseAt.js');
const { makeCaseContext } = await fromBuild<typeof CaseContextModule>('fuzz/cases/CaseContext.js');
const { runFuzz } = await fromBuild<typeof runFuzzModule>('fuzz/run/runFuzz.js');
const { CaseSender, sendCase } = await fromBuild<typeof sendCaseModule>('fuzz/run/sendCase.js');
const { judgeAnswer } = await fromBuild<typeof judgeAnswerModule>('fuzz/run/judgeAnswer.js');
const { rpcEndpoint } = await fromBuild<typeof baseUrlModule>('core/client/baseUrl.js');
const { fuzzVerdict } = await fromBuild<typeof fuzzVerdictModule>('fuzz/fuzzVerdict.js');
const { referenceProfile } = await fromBuild<typeof referenceProfileModule>('profile/referenceProfile.js');
const { ROBUSTNESS_FAULTS } = await fromBuild<typeof faultCatalogueModule>('reference-node/faults/faultCatalogue.js');
const { spawnNode } = await fromBuild<typeof startDevnetModule>('reference-node/devnet/startDevnet.js');
const { cpuSeconds } = await fromBuild<typeof procStatModule>('core/process/procStat.js');

const { values } = parseArgs({ options: { cases: { type: 'string' }, rounds: { type: 'string' }, concurrency: { type: 'string' } } });
const CASES = Number(values.cases ?? 10_000);
const ROUNDS = Number(values.rounds ?? 3);
/** chainrpc fuzz's default. */
const CONCURRENCY = Number(values.concurrency ?? 4);
/**
 * Cases of a first run, not counted: V8 compiles the fuzzer's and the node's hot paths in it. Measured
 * 2026-11-27 (runs of 3,000 in a row from a cold start): 888, 1,652, 2,086, 2,735, 2,549, 3,185, 3,341 cases/s,
 * the fuzzer's CPU per case 1,083, 530, 443, 347, 367, 287, 277 µs with its compiler threads. A fuzzer's many
 * rare paths take about 15,000 cases to compile, so a warm-up of 3,000 left the first measured round warming up.
 */
const WARM_UP = 15_000;
const profile = referenceProfile();

async function node(dir: string, faults: string[] = []): Promise<{ url: string; pid: number; stop: () => void }> {
  mkdirSync(dir, { recursive: true });
  const { url, process: child } = await spawnNode(['--port', '0', '--p2p-port', '0', '--data-dir', dir, '--block-time', '300', ...(faults.length > 0 ? ['--fault', faults.join(',')] : [])], join(dir, 'node.log'));
  return { url, pid: child.pid ?? 0, stop: () => void child.kill('SIGTERM') };
}

/**
 * Where a case's CPU goes, each part measured apart on this thread with nothing else running (steadier than a
 * run, where the node and the machine's other work share the cores): making a case (caseAt), and judging its
 * answer (judgeAnswer), fresh cases and fresh answer texts each round as a run has (a case's readings are kept
 * per request object, a long answer's by its text). The answers are the honest node's, sent once. Median of
 * `rounds` rounds after two not counted, µs per case.
 */
async function partsApart(url: string, seed: number, rounds: number): Promise<{ make: number; judge: number }> {
  const ctx = makeCaseContext(profile, { height: 10n, genesisHeight: 0, addresses: [], chainId: 1n });
  const sender = new CaseSender(rpcEndpoint(url, profile.rpcPath), CONCURRENCY);
  const answers = await sendAll(sender, Array.from({ length: CASES }, (_, i) => caseAt(seed, i, ctx)));
  sender.close();
  const cpuUs = (): number => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  const make: number[] = [];
  const judge: number[] = [];
  for (let round = 0; round < rounds + 2; round++) {
    let t0 = cpuUs();
    const cases = Array.from({ length: CASES }, (_, i) => caseAt(seed, i, ctx));
    const made = (cpuUs() - t0) / CASES;
    const fresh = answers.map((a) => (a.text === undefined ? { ...a } : { ...a, text: Buffer.from(a.text).toString() }));
    t0 = cpuUs();
    for (let i = 0; i < CASES; i++) judgeAnswer(cases[i]!.http, fresh[i]!, { profile, slowBoundMs: 1_000 });
    const judged = (cpuUs() - t0) / CASES;
    if (round < 2) continue;
    make.push(made);
    judge.push(judged);
  }
  return { make: median(make), judge: median(judge) };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

type Answer = Awaited<ReturnType<typeof sendCase>>;

/** Every case sent, CONCURRENCY at a time, nothing judged; the answers in the cases' order. */
async function sendAll(sender: InstanceType<typeof CaseSender>, cases: readonly { http: Parameters<typeof sendCase>[1] }[]): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    for (let i = next++; i < cases.length; i = next++) answers[i] = await sendCase(sender, cases[i]!.http, 5_000, profile.maxBodyBytes);
  }));
  return answers;
}

/** The same bodies, sent by the same client, nothing judged: what the transport alone allows. */
async function transportOnly(url: string, seed: number): Promise<number> {
  const ctx = makeCaseContext(profile, { height: 10n, genesisHeight: 0, addresses: [], chainId: 1n });
  const cases = Array.from({ length: CASES }, (_, i) => caseAt(seed, i, ctx));
  const sender = new CaseSender(rpcEndpoint(url, profile.rpcPath), 2 * CONCURRENCY + 4);
  const t0 = performance.now();
  await sendAll(sender, cases);
  const ms = performance.now() - t0;
  sender.close();
  return (CASES * 1_000) / ms;
}

/** CPU seconds between two readings, per case, in µs (undefined off Linux). */
const perCase = (before: number | undefined, after: number | undefined, cases: number): number | undefined => (before === undefined || after === undefined ? undefined : ((after - before) * 1e6) / cases);
const micros = (us: number | undefined): string => (us === undefined ? 'n/a' : `${Math.round(us)} µs`);

const fuzzRun = (urls: string[], seed: number, extra: { cases?: number; maxFindings?: number; threads?: 1 | 2 } = {}) =>
  runFuzz({ urls, profile, profileSource: null, threads: extra.threads ?? 1, seed, cases: extra.cases ?? CASES, durationMs: null, only: [], concurrency: CONCURRENCY, maxRate: 1_000_000, maxBodyBytes: 1024 * 1024, timeoutMs: 5_000, livenessEvery: 100, shrink: { maxAttempts: 60, maxMs: 8_000 }, version: 'bench', ...(extra.maxFindings === undefined ? {} : { maxFindings: extra.maxFindings }) });

console.log(`fuzz benchmark: ${CASES.toLocaleString('en-US')} cases per run, concurrency ${CONCURRENCY}, ${ROUNDS} rounds; node v${process.versions.node}, ${new Date().toISOString()}\n`);
const dir = mkdtempSync(join(tmpdir(), 'chainrpc-fuzz-bench-'));
try {
  const honest = await node(join(dir, 'honest'));
  const pairs: { transport: number; fuzz: number; findings: number; node: number | undefined; fuzzer: number | undefined; mainBusy: number }[] = [];
  /** Making a case and judging its answer, each measured apart (partsApart). */
  let apart: { make: number; judge: number } | undefined;
  const twoThreads: { fuzz: number; node: number | undefined; fuzzer: number | undefined; mainBusy: number; findings: number }[] = [];
  /** One fuzz run: cases/s, CPU per case of both processes, and the busy time per case of the fuzzer's sending thread. */
  const measured = async (seed: number, threads: 1 | 2) => {
    const cpu0 = { node: cpuSeconds(honest.pid), fuzzer: cpuSeconds('self') };
    const elu0 = performance.eventLoopUtilization();
    const run = await fuzzRun([honest.url], seed, { threads });
    const mainBusy = (performance.eventLoopUtilization(elu0).active * 1_000) / run.cases;
    const cpu = { node: perCase(cpu0.node, cpuSeconds(honest.pid), run.cases), fuzzer: perCase(cpu0.fuzzer, cpuSeconds('self'), run.cases) };
    return { run, fuzz: (run.cases * 1_000) / run.durationMs, findings: fuzzVerdict(run).standing.length, mainBusy, ...cpu };
  };
  try {
    await fuzzRun([honest.url], 99, { cases: WARM_UP });
    await fuzzRun([honest.url], 98, { cases: WARM_UP, threads: 2 });
    for (let round = 0; round < ROUNDS; round++) {
      const transport = await transportOnly(honest.url, 100 + round);
      const one = await measured(100 + round, 1);
      pairs.push({ transport, ...one });
      console.log(`  round ${round + 1}/${ROUNDS}: transport only ${Math.round(transport).toLocaleString('en-US')} cases/s, fuzz ${Math.round(one.fuzz).toLocaleString('en-US')} cases/s (ratio ${(one.fuzz / transport).toFixed(2)}), ${one.run.targets[0]?.livenessChecks ?? 0} liveness probes, ${one.findings} findings; CPU per case: node ${micros(one.node)}, fuzzer ${micros(one.fuzzer)}; sending thread busy ${micros(one.mainBusy)} per case`);
      const two = await measured(100 + round, 2);
      twoThreads.push(two);
      console.log(`               with the case thread (--threads 2): ${Math.round(two.fuzz).toLocaleString('en-US')} cases/s, ${two.findings} findings; CPU per case: node ${micros(two.node)}, fuzzer ${micros(two.fuzzer)}; sending thread busy ${micros(two.mainBusy)} per case`);
    }
    apart = await partsApart(honest.url, 200, 5);
  } finally {
    honest.stop();
  }
  console.log(`  cases/s with oracles and liveness (median; goal 5,000)              ${Math.round(median(pairs.map((p) => p.fuzz))).toLocaleString('en-US')}`);
  console.log(`  transport only, cases/s (median)                                     ${Math.round(median(pairs.map((p) => p.transport))).toLocaleString('en-US')}`);
  console.log(`  ratio fuzz / transport (median of the rounds)                        ${median(pairs.map((p) => p.fuzz / p.transport)).toFixed(2)}x`);
  const cpuMedian = (which: 'node' | 'fuzzer'): number | undefined => (pairs.some((p) => p[which] === undefined) ? undefined : median(pairs.map((p) => p[which] ?? 0)));
  console.log(`  CPU per case (median): node ${micros(cpuMedian('node'))}, fuzzer ${micros(cpuMedian('fuzzer'))} (user + system, /proc; both share the machine's cores)`);
  console.log(`  the sending thread's busy time per case (median)                     ${micros(median(pairs.map((p) => p.mainBusy)))}`);
  console.log(`  with the case thread (--threads 2): cases/s (median)                 ${Math.round(median(twoThreads.map((p) => p.fuzz))).toLocaleString('en-US')}`);
  const twoCpu = (which: 'node' | 'fuzzer'): number | undefined => (twoThreads.some((p) => p[which] === undefined) ? undefined : median(twoThreads.map((p) => p[which] ?? 0)));
  console.log(`    CPU per case (median): node ${micros(twoCpu('node'))}, fuzzer ${micros(twoCpu('fuzzer'))} (both threads); sending thread busy ${micros(median(twoThreads.map((p) => p.mainBusy)))} per case`);
  if (apart !== undefined) console.log(`  measured apart, warm, this thread alone (median of 5 rounds): making a case ${apart.make.toFixed(1)} µs, judging its answer ${apart.judge.toFixed(1)} µs\n`);

  console.log('  time to the first finding of each robustness fault (seed 1, --max-findings 1):');
  for (const fault of ROBUSTNESS_FAULTS) {
    const n = await node(join(dir, fault.name), [fault.name]);
    try {
      const t0 = performance.now();
      const run = await fuzzRun([n.url], 1, { cases: 5_000, maxFindings: 1 });
      const found = fuzzVerdict(run).standing.find((f) => f.oracle === fault.oracle);
      console.log(`    ${fault.name.padEnd(32)} ${found === undefined ? 'NOT FOUND in 5,000 cases' : `${found.oracle} at case #${found.original.index} after ${found.atMs} ms (run with shrinking: ${Math.round(performance.now() - t0)} ms)`}`);
    } finally {
      n.stop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
