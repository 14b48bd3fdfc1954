import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the module at `moduleUrl`: the load engine's threads, the corpus's signing threads and the fuzzer's case thread.
 * From the compiled dist/ (a .js file) Node loads it. From the TypeScript sources under vitest or tsx (a .ts
 * file) Node 20 cannot, and an `--import tsx` in the worker's execArgv is not applied to its entry point, so
 * a one-line boot script registers tsx's ESM loader in the worker (development only: tsx is a
 * devDependency), then imports the module; the sources it imports by URL later load through tsx too.
 */
export function startWorker(moduleUrl: string, options: Pick<WorkerOptions, 'workerData'> = {}): Worker {
  const execArgv = workerExecArgv();
  if (!moduleUrl.endsWith('.ts')) return new Worker(new URL(moduleUrl), { ...options, execArgv });
  const api = pathToFileURL(tsxEsmApi(moduleUrl)).href;
  const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(moduleUrl)}); })`;
  return new Worker(boot, { ...options, execArgv, eval: true });
}

/** Node options a worker thread takes and that change how it loads or reports (`--flag value` or `--flag=value`). */
const WITH_VALUE = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '--conditions', '-C']);
const PER_THREAD = /^--(no-)?(experimental-|enable-source-maps$|warnings$|deprecation$|trace-warnings$|trace-deprecation$|throw-deprecation$|pending-deprecation$|cpu-prof|heap-prof)/;

/**
 * The parent's node options that a worker thread takes: how modules load (--import, --require, --loader,
 * --conditions, --experimental-*), warnings, source maps and profiling. A worker refuses V8 options and options
 * of the whole process (`node --max-old-space-size=4096 chainrpc load ...` would fail to start it:
 * ERR_WORKER_INVALID_EXEC_ARGV), and needs neither: they already apply to every thread of the process.
 */
export function workerExecArgv(parent: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < parent.length; i++) {
    const a = parent[i] as string;
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (WITH_VALUE.has(name)) {
      out.push(a);
      if (!a.includes('=') && i + 1 < parent.length) out.push(parent[++i] as string);
    } else if (PER_THREAD.test(a)) out.push(a);
  }
  return out;
}

/** tsx's ESM API as an import resolves it (require.resolve would give its CommonJS build, which cannot import the ESM half). */
function tsxEsmApi(from: string): string {
  const manifest = createRequire(from).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, { import?: { default?: string } }> };
  const entry = pkg.exports?.['./esm/api']?.import?.default;
  if (entry === undefined) throw new Error(`tsx at ${dirname(manifest)} has no ESM API (tsx/esm/api); tsx 4 is needed to run load workers from sources`);
  return join(dirname(manifest), entry);
}
