/**
 * What `chainrpc replay` does besides sending a check's recorded request again: it finds the newest
 * conformance report when none is named (whatever kind of run came after it), and it runs the check itself
 * again against the node, so it can say whether the check passes now, in the check's own words.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError } from '../CliError.js';
import { jsonFileIs } from '../../core/files/ownedFolder.js';
import { packageVersion } from '../../core/packageVersion.js';
import { CONFORMANCE_REPORT_KIND } from '../../reports/conformance/writeReports.js';
import { LATEST_LINK, latestLinkOf } from '../../reports/shared/reportFolder.js';
import { catalogue } from '../../suites/catalogue.js';
import type { RunResult, Status } from '../../suites/model.js';
import { loadProfile, ProfileError } from '../../profile/loadProfile.js';
import { runSuite } from '../../suites/runner/runSuite.js';

/** Whether a report's `format` is a chainrpc test run's (chainrpc-report/...): the only kind with checks to replay. */
export function isConformanceFormat(format: unknown): format is string {
  return typeof format === 'string' && format.startsWith('chainrpc-report/');
}

/** Whether the JSON file at `path` is the report of a chainrpc test run. */
const isConformanceReport = (path: string): boolean => jsonFileIs(path, (report) => isConformanceFormat(report.format), Number.POSITIVE_INFINITY);

/**
 * The newest conformance report under a report folder: `latest-conformance/report.json`; in a folder written
 * before that link existed, `latest/report.json` when it is a conformance report, else the newest run folder
 * (by name: start times sort as text; load runs are `load-<time>`) holding one. Undefined: none.
 */
export function newestConformanceReport(root: string): string | undefined {
  const base = resolve(root);
  for (const link of [latestLinkOf(CONFORMANCE_REPORT_KIND), LATEST_LINK]) {
    const path = join(base, link, 'report.json');
    if (isConformanceReport(path)) return path;
  }
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return undefined;
  }
  const runs = names.filter((n) => /^\d{4}-\d\d-\d\dT/.test(n)).sort().reverse();
  for (const name of runs) {
    const path = join(base, name, 'report.json');
    if (isConformanceReport(path)) return path;
  }
  return undefined;
}

/** The settings of the run that the report does not record, given to replay as to test. */
export interface CheckAgainSettings {
  /** --profile: else the report's profile (its file, or the built-in reference profile). */
  profile?: string | undefined;
  rpcPath?: string | undefined;
  methodPrefix?: string | undefined;
  blockTimeMs?: number | undefined;
  privateKey?: string | undefined;
}

/** The check's verdict now: the line replay prints, and its status (undefined: the check could not be run). */
export interface CheckAgain {
  status?: Status;
  line: string;
}

/**
 * Prepares to run check `id` again, alone (as `chainrpc test --only <id>` would), judged by the run's profile
 * unless `settings` name another: the profile is read now (a usage error when it cannot be, before anything
 * is sent). The function it resolves with runs the check against `node` (a base URL, or "network" for a check
 * across the run's targets) and never throws for what the node does: a verdict of any kind is the answer.
 */
export async function planCheckAgain(run: RunResult, id: string, settings: CheckAgainSettings): Promise<(node: string) => Promise<CheckAgain>> {
  const check = catalogue().find((c) => c.id === id);
  if (check === undefined) return () => Promise.resolve({ line: `now: not judged: this chainrpc (${packageVersion()}) has no check ${id}; the answer above is the node's` });
  const source = settings.profile ?? (run.profile.source === 'built-in' ? undefined : run.profile.source);
  let profile: Awaited<ReturnType<typeof loadProfile>>;
  try {
    profile = await loadProfile(source);
  } catch (err) {
    if (err instanceof ProfileError) throw new CliError(`replay: the run's profile is needed to judge the check again: ${err.message}; give --profile`);
    throw err;
  }
  if (settings.rpcPath !== undefined) profile.rpcPath = settings.rpcPath;
  if (settings.methodPrefix !== undefined) profile.methodPrefix = settings.methodPrefix;
  if (settings.blockTimeMs !== undefined) profile.blockTimeMs = settings.blockTimeMs;
  if (settings.privateKey !== undefined) profile.privateKey = settings.privateKey;
  const judged = profile;
  return async (node) => {
    const targets = check.scope === 'network' ? run.targets : [node];
    const { run: again } = await runSuite({ targets, profile: judged, checks: [check], only: [id], gate: run.gate, version: packageVersion(), deadlineMs: 120_000 });
    const result = again.results.find((r) => r.id === id);
    if (result === undefined) return { line: `now: not judged: ${id} gave no result` };
    return { status: result.status, line: `now: ${result.status.toUpperCase()} ${id} on ${result.node}: ${result.evidence.message}` };
  };
}
