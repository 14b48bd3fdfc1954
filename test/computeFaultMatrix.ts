/**
 * The proof of the suite: run the whole catalogue against the honest reference node and against one
 * fault-injected variant per conformance fault (reference-node/faults/), and record which checks fail where.
 * The robustness faults (the fuzzer's proof) are left out: the suite is not built to send their inputs.
 * Used by test/fault-matrix.test.ts (asserts) and scripts/fault-matrix.ts (writes docs/fault-matrix.md).
 */
import { CONFORMANCE_FAULTS } from '../reference-node/faults/faultCatalogue.js';
import type { FaultInfo } from '../reference-node/faults/faultCatalogue.js';
import type { Check } from '../suites/Check.js';
import { catalogue } from '../suites/catalogue.js';
import type { CheckResult } from '../suites/model.js';
import { runChecks, startTestNetwork, startTestNode } from './support/suites.js';

export interface FaultRun {
  fault: FaultInfo;
  /** Ids of the checks that failed (status fail) against the faulty node(s). */
  caughtBy: string[];
  /** Checks that ended in error: no verdict (kept apart from fail). */
  errors: string[];
  /** Why each of them ended in error (its evidence's message, on the node it erred on first). */
  errorReasons: Record<string, string>;
  ms: number;
}

export interface FaultMatrix {
  checks: Check[];
  honest: { single: CheckResult[]; network: CheckResult[] };
  faults: FaultRun[];
}

/** Kinds of the small network the network-scope faults need (two MNs to disagree on a leader, an LN to relay). */
export const NETWORK = ['MN', 'MN', 'LN'] as const;

async function againstSingle(checks: Check[], faults: string[]): Promise<CheckResult[]> {
  const node = await startTestNode({ faults });
  try {
    return await withErrorsRunAgain(checks, [node.url], MATRIX_CHECKS_PER_NODE);
  } finally {
    await node.stop();
  }
}

/** A network-scope fault goes to the last node (the LN) only: one faulty node among honest peers. */
async function againstNetwork(checks: Check[], faults: string[]): Promise<CheckResult[]> {
  const net = await startTestNetwork([...NETWORK], (i) => ({ faults: i === NETWORK.length - 1 ? faults : [] }));
  try {
    return await withErrorsRunAgain(checks, net.urls, MATRIX_CHECKS_PER_NODE * net.urls.length);
  } finally {
    await net.stop();
  }
}

/**
 * The checks against `urls`; those that ended in error (a setup that could not be done: no verdict, not a
 * failure) run once more, alone, against the same node(s) before they stop, and their second result stands.
 * Passes and failures are never run again.
 */
async function withErrorsRunAgain(checks: Check[], urls: string[], concurrency: number): Promise<CheckResult[]> {
  const first = await runChecks(checks, urls, { concurrency });
  return replaceErrors(first, (errored) => runChecks(checks.filter((c) => errored.has(c.id)), urls, { concurrency: 1 }));
}

/** `results` with each error replaced by the result `again` gives the same check on the same node (ids of the errored checks given). */
async function replaceErrors(results: CheckResult[], again: (errored: Set<string>) => Promise<CheckResult[]>): Promise<CheckResult[]> {
  const errored = new Set(results.filter((r) => r.status === 'error').map((r) => r.id));
  if (errored.size === 0) return results;
  const key = (r: CheckResult): string => `${r.id}@${r.node}`;
  const second = new Map((await again(errored)).map((r) => [key(r), r]));
  return results.map((r) => (r.status === 'error' ? (second.get(key(r)) ?? r) : r));
}

/**
 * Checks at once per node in the matrix: fewer than `chainrpc test`'s default (16). The matrix runs
 * MATRIX_CONCURRENCY networks at once beside other test files, on nodes making a block every 100 ms; with 16
 * checks per node there, calls slowed past a block time, and a check's two reads (a height, then its block)
 * straddled a new block, so block-missing (a height one above the tip) went unseen once in CI. What the matrix
 * proves (each check against its faults) does not depend on how many checks run at once.
 */
const MATRIX_CHECKS_PER_NODE = 8;

/**
 * Runs at a time: a run mostly waits (for blocks, inclusion timeouts of seconds on the faults that stall the
 * chain or drop transactions), so more runs than cores keep the cores busy without making any wait longer.
 */
const MATRIX_CONCURRENCY = 4;

/** Runs everything (each conformance fault); `onProgress` hears each fault as it finishes, MATRIX_CONCURRENCY at a time. */
export async function computeFaultMatrix(onProgress?: (run: FaultRun, done: number, total: number) => void): Promise<FaultMatrix> {
  const checks = catalogue();
  const nodeChecks = checks.filter((c) => c.scope === 'node');
  const honest = { single: await againstSingle(nodeChecks, []), network: await againstNetwork(checks, []) };
  const against = (f: FaultInfo, these: Check[]): Promise<CheckResult[]> => (f.scope === 'network' ? againstNetwork(these, [f.name]) : againstSingle(these.filter((c) => c.scope === 'node'), [f.name]));
  const first: { fault: FaultInfo; results: CheckResult[]; ms: number }[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let f = CONFORMANCE_FAULTS[next++]; f !== undefined; f = CONFORMANCE_FAULTS[next++]) {
      const begin = Date.now();
      const results = await against(f, checks);
      first.push({ fault: f, results, ms: Date.now() - begin });
      onProgress?.(runOf(f, results, Date.now() - begin), first.length, CONFORMANCE_FAULTS.length);
    }
  };
  await Promise.all(Array.from({ length: MATRIX_CONCURRENCY }, () => worker()));
  // An error the proof needs a verdict for (a check no targeted fault has failed, or a fault no check has caught yet)
  // runs once more on fresh node(s) of the same fault, now that the matrix's other runs are over: with
  // MATRIX_CONCURRENCY networks at once beside other test files on two cores, a faucet claim can miss its setup wait
  // in both of its run's tries (network/transaction-visible-everywhere ended in error on no-relay so, in CI), which
  // says nothing of the check or the fault.
  const proven = new Set(targetedFaults({ checks, honest, faults: first.map((r) => runOf(r.fault, r.results, r.ms)) }).flatMap((r) => r.caughtBy));
  const runs: FaultRun[] = [];
  for (const r of first) {
    const caught = r.results.some((x) => x.status === 'fail');
    const needed = new Set(r.results.filter((x) => x.status === 'error' && (!caught || !proven.has(x.id))).map((x) => x.id));
    if (needed.size > 0) {
      const begin = Date.now();
      r.results = await replaceErrors(r.results, (errored) => against(r.fault, checks.filter((c) => errored.has(c.id) && needed.has(c.id))));
      r.ms += Date.now() - begin;
    }
    runs.push(runOf(r.fault, r.results, r.ms));
  }
  const order = new Map(CONFORMANCE_FAULTS.map((f, i) => [f.name, i]));
  runs.sort((a, b) => (order.get(a.fault.name) ?? 0) - (order.get(b.fault.name) ?? 0));
  return { checks, honest, faults: runs };
}

/** What one fault's results say: the checks that failed, and those that ended in error and why. */
function runOf(fault: FaultInfo, results: CheckResult[], ms: number): FaultRun {
  const errorReasons: Record<string, string> = {};
  for (const r of results) if (r.status === 'error') errorReasons[r.id] ??= `${r.node}: ${r.evidence.message}`;
  return { fault, caughtBy: [...new Set(results.filter((r) => r.status === 'fail').map((r) => r.id))], errors: Object.keys(errorReasons), errorReasons, ms };
}

/**
 * A fault that fails more than this share of the checks breaks everything at once (an id echoed with
 * another type fails every call): it proves nothing about any one check, so a check counts as proven
 * only by a fault that fails fewer.
 */
export const BROAD_FAULT_SHARE = 0.25;

/** The faults that fail only a few checks, each check's proof. */
export function targetedFaults(m: FaultMatrix): FaultRun[] {
  return m.faults.filter((r) => r.caughtBy.length <= m.checks.length * BROAD_FAULT_SHARE);
}

/**
 * Checks that no single fault can make fail, each with the reason. Kept short on purpose: a check
 * listed here is one the proof cannot vouch for.
 */
export const UNPROVEN: Readonly<Record<string, string>> = {};

/** docs/fault-matrix.md: faults as rows, the checks that catch each, and each check's faults. */
export function renderFaultMatrix(m: FaultMatrix): string {
  const byCheck = new Map<string, string[]>(m.checks.map((c) => [c.id, []]));
  for (const run of targetedFaults(m)) for (const id of run.caughtBy) byCheck.get(id)?.push(run.fault.name);
  const broad = m.faults.filter((r) => !targetedFaults(m).includes(r)).map((r) => `\`${r.fault.name}\``);
  const lines = [
    '<!-- Generated by `npm run gen:fault-matrix` (scripts/fault-matrix.ts). Do not edit. -->',
    '# Fault matrix: the proof of the suite',
    '',
    `Every check of the catalogue (${m.checks.length}) was run against the honest reference node (all pass) and against`,
    `${m.faults.length} fault-injected variants of it (\`chainrpc node --fault <name>\`, docs/faults.md), one deviation each`,
    '(the conformance faults: the robustness faults, the proof of the fuzzer, are not run here).',
    'A fault is caught when at least one check fails on it; a check is proven when at least one fault makes it fail.',
    '`test/fault-matrix.test.ts` asserts both on every CI run. A fault that fails more than a quarter of the checks at once',
    `(${broad.join(', ') || 'none'}) proves no check in particular: the second table counts only targeted faults.`,
    '',
    '## Faults and the checks that catch them',
    '',
    '| fault | category | level of the rule | caught by |',
    '|---|---|---|---|',
    ...m.faults.map((r) => `| \`${r.fault.name}\` | ${r.fault.category} | ${r.fault.level} | ${r.caughtBy.map((id) => `\`${id}\``).join(', ') || '**not caught**'} |`),
    '',
    '## Checks and the targeted faults they fail on',
    '',
    '| check | level | fails on |',
    '|---|---|---|',
    ...m.checks.map((c) => `| \`${c.id}\` | ${c.level} | ${(byCheck.get(c.id) ?? []).map((f) => `\`${f}\``).join(', ') || (UNPROVEN[c.id] ? `unproven: ${UNPROVEN[c.id]}` : '**none**')} |`),
    '',
  ];
  return lines.join('\n');
}
