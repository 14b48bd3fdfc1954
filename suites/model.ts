/**
 * The conformance suite's data model: checks, their verdicts and evidence, and the result of a run.
 * Runner, reporters and the CLI all speak these types; reports/conformance/report.schema.json describes the JSON
 * form of RunResult.
 */

import type { Category, Level } from '../core/ruleKinds.js';

/** A check's level (what backs it) and category (core/ruleKinds.ts: one definition, shared with the faults). */
export { LEVELS, type Category, type Level } from '../core/ruleKinds.js';

/**
 * pass: the node did what the rule says. fail: the node is wrong (evidence shows how). error: the
 * check could not reach a verdict because the tool, the network or the configuration is wrong (or the
 * node hung, reset or flooded the connection). skip: the check does not apply (and says why).
 */
export type Status = 'pass' | 'fail' | 'error' | 'skip';

/** One HTTP exchange as evidence: what was sent (exactly) and what came back (capped). */
export interface Exchange {
  /** The node's base URL. */
  node: string;
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    /** The body as sent, as text (bodies the suite sends are text; invalid UTF-8 is shown with U+FFFD). */
    body: string;
    /** Sent with no body at all: neither Content-Length nor Transfer-Encoding (a POST, RFC 9112 §6.3). */
    bodyless?: boolean;
    /** The body was longer than the 4 KiB kept: `body` holds its start and says how long it was, so it cannot be sent again as is. */
    truncated?: boolean;
  };
  /** Absent when no response arrived (refused, timed out). */
  response?: {
    status: number;
    headers: Record<string, string>;
    /** At most the first 4 KiB of the body. */
    body: string;
    truncated: boolean;
  };
  /** Transport failure, when there was one: a TransportError code and message. */
  failure?: string;
  /** Milliseconds from sending to the last byte (or the failure). */
  ms: number;
  startedAt: string;
}

/** Why a verdict was reached: the exchanges that show it, and expected versus actual. */
export interface Evidence {
  /** One line: what was wrong (fail), what went wrong (error), why not applicable (skip), or what was shown (pass). */
  message: string;
  expected?: string;
  actual?: string;
  /** The exchanges the check made, in order (capped at the last 8). */
  exchanges: Exchange[];
}

/** A check as the catalogue lists it (what reports show for it). */
export interface CheckInfo {
  /** Stable id: `<area>/<rule>`, e.g. transport/empty-batch, chain_getAccount/balance-is-u128-string. */
  id: string;
  level: Level;
  category: Category;
  title: string;
  /** Where the rule comes from: "JSON-RPC 2.0 §6", "spec: Resources > Account", "profile: docs/reference-profile.md#...". */
  spec: string;
  /** 'node': run once per --url; 'network': once for all of them together. */
  scope: 'node' | 'network';
}

/** What an expected-failures baseline said about a result. */
export interface BaselineMark {
  reason: string;
  expires?: string;
  /** expected-fail: failed as the baseline expects (does not gate); now-passing: listed but passes (shrink the baseline); expired: the entry's date passed, so it gates again. */
  state: 'expected-fail' | 'now-passing' | 'expired';
}

/** The verdict of one check on one node (or on the network). */
export interface CheckResult extends CheckInfo {
  /** The base URL the check ran against, or "network" for network-scope checks. */
  node: string;
  status: Status;
  evidence: Evidence;
  durationMs: number;
  baseline?: BaselineMark;
  /**
   * A ready-to-paste command that repeats the exchange that showed a failed check's failure (curl), or,
   * where that request was too long to keep whole, runs the check again (chainrpc test --only).
   */
  reproduce?: string;
}

export interface RunSummary {
  /** Counts per level and status. */
  counts: Record<Level, Record<Status, number>>;
  /** Failures (and errors) at or above the gate level that no baseline entry excuses. */
  gating: number;
  /** True when the run passes at the gate level. */
  passed: boolean;
  /**
   * Certified: passed, and every MUST requirement seen to hold: every MUST result a pass (none skipped,
   * none excused by a baseline) and no MUST check left out by --only / --skip. Any gate.
   */
  certified: boolean;
  /** The process exit code: 0 passed, 1 failures, 3 target unreachable, 130 interrupted (Ctrl-C) before the end. */
  exitCode: 0 | 1 | 3 | 130;
  /** One sentence after the verdict word, e.g. "no failure at MUST level". */
  verdict: string;
}

export interface RunResult {
  /** Version of the report format (reports/conformance/report.schema.json). */
  format: 'chainrpc-report/4';
  tool: { name: 'chainrpc'; version: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  targets: string[];
  profile: { name: string; source: string };
  /** The lowest level whose failures fail the run. */
  gate: Level;
  /** Filters and baseline the run used. */
  options: { only: string[]; skip: string[]; baseline?: string; deadlineMs: number };
  results: CheckResult[];
  /** True when the run was interrupted (Ctrl-C) before every check ended: the checks that had not are errors saying so. */
  interrupted?: true;
  summary: RunSummary;
  /** What to fix first, in a sentence each, when a run went wrong for a reason a flag or a profile mends (absent: none). */
  hints?: string[];
}
