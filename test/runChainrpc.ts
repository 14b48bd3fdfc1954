/** Runs the built chainrpc binary (dist/, made by npm test's build step) as a user would. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../core/paths.js';

export const CHAINRPC_BIN = join(packageRoot, 'dist', 'cli', 'chainrpc.js');

export interface ChainrpcRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `chainrpc ...args` to its end; resolves with the exit code and both streams. */
export function runChainrpc(...args: string[]): Promise<ChainrpcRun> {
  return runChainrpcIn(process.cwd(), args);
}

/** As runChainrpc, in the folder `cwd`: for a command as printed, whose reports go under ./.chainrpc. */
export function runChainrpcIn(cwd: string, args: readonly string[]): Promise<ChainrpcRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHAINRPC_BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface LongRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** The first line of `stream` matching `re`, after `skip` earlier matches; throws after `ms` or when the process ends. */
  waitFor: (re: RegExp, options?: { ms?: number; skip?: number; stream?: 'stdout' | 'stderr' }) => Promise<string>;
  /**
   * True once every process holding its output has closed it (all of it read), false after `ms`. A process
   * that has exited may still have output in the pipe: read stdout() and stderr() after this, not after its exit.
   */
  closed: (ms: number) => Promise<boolean>;
}

/**
 * Starts a long-running `chainrpc ...args` (a node, a devnet) in the background, as the built binary or, with
 * `npx`, as `npx chainrpc` in the package's folder (npm exec, a shell, then chainrpc: the PID a user's script
 * holds is npm's).
 */
export function startChainrpc(args: readonly string[], options: { npx?: boolean; env?: NodeJS.ProcessEnv } = {}): LongRun {
  const env = { cwd: packageRoot, ...(options.env === undefined ? {} : { env: options.env }) };
  return options.npx === true ? startLongProcess('npx', ['--no-install', 'chainrpc', ...args], env) : startLongProcess(process.execPath, [CHAINRPC_BIN, ...args], env);
}

/** Starts `command ...args` in the background; its output is read as it comes. */
export function startLongProcess(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): LongRun {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const text = { stdout: '', stderr: '' };
  child.stdout?.on('data', (d: Buffer) => (text.stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (text.stderr += d.toString()));
  let isClosed = false;
  const closing = new Promise<void>((resolve) => child.once('close', () => resolve(void (isClosed = true))));
  const closed: LongRun['closed'] = async (ms) => {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closing, new Promise((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
    return isClosed;
  };
  const waitFor: LongRun['waitFor'] = async (re, { ms = 30_000, skip = 0, stream = 'stdout' } = {}) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const hit = text[stream].split('\n').filter((l) => re.test(l))[skip];
      if (hit !== undefined) return hit;
      if (child.exitCode !== null || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no ${stream} line matching ${String(re)} (stdout: ${text.stdout.slice(0, 500)}; stderr: ${text.stderr.slice(0, 1000)})`);
  };
  return { child, stdout: () => text.stdout, stderr: () => text.stderr, waitFor, closed };
}

/** Whether a process runs (signal 0). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until none of `pids` runs; false if one still does after `ms`. */
export async function allExited(pids: readonly number[], ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (pids.some(isRunning)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
