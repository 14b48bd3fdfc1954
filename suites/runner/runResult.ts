import type { CheckResult, Level, RunResult } from '../model.js';
import { summarize } from './verdict.js';

/** What a run established, from which its RunResult is made. */
export interface RunFacts {
  version: string;
  startedMs: number;
  finishedMs: number;
  targets: string[];
  profile: RunResult['profile'];
  gate: Level;
  options: RunResult['options'];
  /** Every result, in the order the reports list them. */
  results: CheckResult[];
  /** No target answered JSON-RPC: nothing was verified (exit code 3). */
  noTarget: boolean;
  hints: string[];
  /** MUST checks of the catalogue that --only / --skip left out of the run (none: 0): a run without them certifies nothing. */
  mustLeftOut?: number;
  /** Interrupted (Ctrl-C) before every check ended: no verdict, exit code 130. */
  interrupted?: boolean;
}

/**
 * The RunResult of a run (format chainrpc-report/4, reports/conformance/report.schema.json), its summary
 * summed by the verdict rules (verdict.ts). The runner makes every RunResult here, and so do test fixtures.
 */
export function runResult(facts: RunFacts): RunResult {
  return {
    format: 'chainrpc-report/4',
    tool: { name: 'chainrpc', version: facts.version },
    startedAt: new Date(facts.startedMs).toISOString(),
    finishedAt: new Date(facts.finishedMs).toISOString(),
    durationMs: facts.finishedMs - facts.startedMs,
    targets: facts.targets,
    profile: facts.profile,
    gate: facts.gate,
    options: facts.options,
    results: facts.results,
    ...(facts.interrupted === true ? { interrupted: true as const } : {}),
    summary: summarize(facts.results, facts.gate, facts.noTarget, facts.mustLeftOut ?? 0, facts.interrupted === true),
    hints: facts.hints,
  };
}
