/**
 * The real k6 binary for the tests that run generated scripts: $K6_BIN, else `k6` on the PATH. `.ci/run`
 * points K6_BIN at the k6 built from source beside the repo (../shared/tools/k6). Always run without the
 * usage report, on loopback only.
 */
import { execFile, execFileSync } from 'node:child_process';

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
