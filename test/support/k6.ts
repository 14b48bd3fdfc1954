/**
 * The real k6 binary for the tests that run generated scripts: $K6_BIN, else `k6` on the PATH. `.ci/run`
 * points K6_BIN at the k6 built from source beside the repo (../shared/tools/k6). Always run without the
 * usage report, on loopback only.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJson } from '../../core/json/index.js';
import type { K6Summary } from '../../load/k6/K6Summary.js';
import { writeK6Script } from '../../load/k6/writeK6Script.js';
import { prepareTarget } from '../../load/runLoad.js';
import { loadScenario, type ResolvedScenario, type ScenarioOverrides } from '../../load/scenario/loadScenario.js';
import { referenceProfile } from '../../profile/referenceProfile.js';

/** The k6 to run, or undefined (the tests then skip, saying why). */
export function findK6(): string | undefined {
  const candidates = [process.env.K6_BIN, 'k6'].filter((c): c is string => c !== undefined && c !== '');
  for (const bin of candidates) {
    try {
      execFileSync(bin, ['version'], { stdio: 'ignore', env: { ...process.env, K6_NO_USAGE_REPORT: 'true' }, timeout: 10_000 });
      return bin;
    } catch {
      // not this one
    }
  }
  return undefined;
}

export const K6_SKIP_NOTE = 'skipped: no k6 found (set K6_BIN to a k6 binary, v0.48 or later, or put k6 on the PATH)';

export interface K6Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `k6 run <args>` in `cwd`, to its end (bounded by `timeoutMs`). */
export function runK6(bin: string, args: readonly string[], cwd: string, timeoutMs = 60_000): Promise<K6Run> {
  return new Promise((resolve) => {
    execFile(bin, ['run', '--no-usage-report', '-q', ...args], { cwd, timeout: timeoutMs, env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : null;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A built-in scenario's (or a resolved scenario's) k6 test for `url`, prepared against it (corpus, funding) and written into `out`. */
export async function writeTestK6(scenario: string | ResolvedScenario, overrides: ScenarioOverrides, url: string, out: string, segments = 1): Promise<string> {
  const resolved = typeof scenario === 'string' ? loadScenario(scenario, overrides) : scenario;
  const profile = referenceProfile();
  const prepared = await prepareTarget(url, { scenario: resolved, profile, profileSource: null, log: () => {} }, join(out, '.work'));
  writeK6Script({ scenario: resolved, url, profile, prepared, out, version: 'test', segments });
  return out;
}

/**
 * Runs the k6 test in `out` as `parts` instances side by side, each its own execution segment (one
 * instance: the whole test); `extra(k)` adds arguments for instance k (its corpus share).
 */
export function runK6Segments(bin: string, out: string, parts: number, extra: (k: number) => string[] = () => []): Promise<K6Run[]> {
  const at = (k: number): string => (k === 0 ? '0' : k === parts ? '1' : `${k}/${parts}`);
  const sequence = Array.from({ length: parts + 1 }, (_, k) => at(k)).join(',');
  return Promise.all(
    Array.from({ length: parts }, (_, k) =>
      runK6(bin, parts === 1 ? ['script.js'] : ['--address', '127.0.0.1:0', '--execution-segment', `${at(k)}:${at(k + 1)}`, '--execution-segment-sequence', sequence, ...extra(k), 'script.js'], out),
    ),
  );
}

/** The chainrpc summaries the k6 instances wrote into `folder`. */
export const summariesIn = (folder: string): K6Summary[] =>
  readdirSync(folder)
    .filter((f) => /^chainrpc-summary.*\.json$/.test(f))
    .map((f) => parseJson(readFileSync(join(folder, f), 'utf8')) as unknown as K6Summary);

/** A summary's calls and those answered with a result, over every method. */
export const callCounts = (s: K6Summary): { calls: number; ok: number } =>
  Object.values(s.methods).reduce((n, m) => ({ calls: n.calls + m.calls, ok: n.ok + m.ok }), { calls: 0, ok: 0 });
