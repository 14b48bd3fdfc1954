/**
 * Processes stop as a user stops them (docs/reference-node.md, "Starting and stopping"): a node and a devnet
 * started with `npx chainrpc …` in the background stop cleanly on a kill of the npx PID, the one a script
 * holds; a devnet prints its own PID first and stops every node on SIGINT or SIGTERM to it; a node whose
 * devnet is killed outright stops by itself; and a node started from a shell with `&` outlives that shell,
 * as anything started so does. Real processes throughout, through npm's own npx. A devnet handles a signal from its
 * first moment (one while it starts stops every node started or starting); a node it was starting when it was
 * killed stops too; a terminal's Ctrl-C (SIGINT to the whole process group) stops every node once, cleanly; and a
 * second devnet on a running one's data dir is refused before it touches anything there.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allExited, CHAINRPC_BIN, isRunning, startChainrpc } from './runChainrpc.js';
import type { LongRun } from './runChainrpc.js';
import { createClient } from '../core/client/index.js';

let dir: string;
const started: LongRun[] = [];
const strays: number[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-stopping-'));
});

afterEach(() => {
  // Whatever a failed test left running, ended by the PIDs this file started.
  for (const run of started.splice(0)) if (run.child.exitCode === null) run.child.kill('SIGKILL');
  for (const pid of strays.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function start(args: string[], options: { npx?: boolean; env?: NodeJS.ProcessEnv } = {}): LongRun {
  const run = startChainrpc(args, options);
  started.push(run);
  return run;
}

/** The environment of a shell outside npm (the tests themselves run under `npm test`, which sets npm_command). */
function outsideNpm(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];
  return env;
}

/** The node's own pid, from the line its log says it serves with. */
async function nodePid(run: LongRun): Promise<number> {
  const line = await run.waitFor(/serving http/, { stream: 'stderr' });
  const pid = Number(/pid (\d+)\)/.exec(line)?.[1]);
  strays.push(pid);
  return pid;
}

async function height(url: string): Promise<bigint> {
  const client = createClient({ baseUrl: url, timeoutMs: 5_000 });
  try {
    return BigInt(String(await client.call('chain_blockNumber', [])));
  } finally {
    await client.close();
  }
}

/** The devnet's table: each node's name and pid. */
async function devnetTable(run: LongRun): Promise<{ devnetPid: number; nodePids: number[] }> {
  const first = await run.waitFor(/^devnet:/, { stream: 'stderr' });
  await run.waitFor(/^devnet ready/, { ms: 60_000 });
  const nodePids = run.stdout().split('\n').filter((l) => /^(mn|ln)\d+ /.test(l)).map((l) => Number(l.split(/\s+/)[4]));
  strays.push(...nodePids);
  // Its own pid is the first thing it says.
  const devnetPid = Number(/^devnet: pid (\d+):/.exec(first)?.[1]);
  strays.push(devnetPid);
  return { devnetPid, nodePids };
}

describe('stopping a node', () => {
  it('started with npx in the background: SIGTERM to the npx pid stops the node cleanly, and its store reopens', async () => {
    const data = join(dir, 'node');
    const run = start(['node', '--port', '0', '--p2p-port', '0', '--data-dir', data, '--block-time', '100'], { npx: true });
    const url = await run.waitFor(/^http:/);
    const pid = await nodePid(run);
    // npm runs chainrpc under a shell of its own: the npx pid is not the node's.
    expect(pid).not.toBe(run.child.pid);
    await new Promise((r) => setTimeout(r, 500));
    const before = await height(url);
    run.child.kill('SIGTERM');
    expect(await allExited([pid], 5_000), `node pid ${pid} still runs after its npx pid was killed`).toBe(true);
    expect(await run.closed(5_000), 'its output was never closed').toBe(true);
    expect(run.stderr()).toMatch(/the process that started it \(pid \d+\) exited: stopping/);
    // Stopped cleanly: the store's lock is released and its chain kept.
    const again = start(['node', '--port', '0', '--p2p-port', '0', '--data-dir', data, '--block-time', '100']);
    const url2 = await again.waitFor(/^http:/);
    expect(await height(url2)).toBeGreaterThanOrEqual(before);
    again.child.kill('SIGTERM');
    expect(await new Promise((r) => again.child.once('exit', r))).toBe(0);
  }, 60_000);

  it('started from a shell with &: runs on after the shell exits, unless told --on-parent-exit stop', async () => {
    // The shell exits once the node serves (not after a fixed sleep: on a busy machine a node can take longer to
    // load than that, and a parent gone before the node has even looked at it cannot be watched).
    const script = (extra: string, out: string): string =>
      `"${process.execPath}" "${CHAINRPC_BIN}" node --port 0 --p2p-port 0 --data-dir "${join(dir, out)}" --block-time 100 ${extra} > "${join(dir, `${out}.out`)}" 2>&1 &\n` +
      `for i in $(seq 200); do grep -q serving "${join(dir, `${out}.out`)}" 2>/dev/null && break; sleep 0.1; done`;
    for (const [extra, out, runsOn] of [['', 'runs-on', true], ['--on-parent-exit stop', 'stops', false]] as const) {
      // The shell starts the node in the background and exits once it serves, as a script's would.
      const shell = spawn('sh', ['-c', script(extra, out)], { env: outsideNpm(), stdio: 'ignore' });
      expect(await new Promise((r) => shell.once('exit', r))).toBe(0);
      const logFile = join(dir, `${out}.out`);
      let line: RegExpExecArray | null = null;
      for (const until = Date.now() + 20_000; line === null && Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
        line = existsSync(logFile) ? /pid (\d+)\) serving (http:\/\/[\d.:]+)/.exec(readFileSync(logFile, 'utf8')) : null;
      }
      if (line === null) throw new Error(`no node started: ${existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''}`);
      const pid = Number(line[1]);
      strays.push(pid);
      if (runsOn) {
        await new Promise((r) => setTimeout(r, 1_000 + 2 * 500));
        expect(isRunning(pid)).toBe(true);
        expect(await height(line[2] ?? '')).toBeGreaterThanOrEqual(0n);
        process.kill(pid, 'SIGTERM');
        expect(await allExited([pid], 5_000)).toBe(true);
      } else {
        expect(await allExited([pid], 5_000), `node pid ${pid} outlived its shell with --on-parent-exit stop`).toBe(true);
        expect(readFileSync(logFile, 'utf8')).toMatch(/exited: stopping/);
      }
    }
  }, 60_000);
});

describe('stopping a devnet', () => {
  it('started with npx in the background: prints its own pid first; SIGTERM to the npx pid stops it and every node', async () => {
    const run = start(['devnet', '--mn', '1', '--ln', '1', '--block-time', '200', '--data-dir', join(dir, 'devnet')], { npx: true });
    const { devnetPid, nodePids } = await devnetTable(run);
    expect(devnetPid).not.toBe(run.child.pid);
    expect(nodePids).toHaveLength(2);
    for (const pid of [devnetPid, ...nodePids]) expect(isRunning(pid)).toBe(true);
    run.child.kill('SIGTERM');
    expect(await allExited([devnetPid, ...nodePids], 10_000), 'a devnet process outlived the npx pid').toBe(true);
    expect(await run.closed(5_000), 'its output was never closed').toBe(true);
    // Every node stopped cleanly (exit code 0), told by the devnet.
    expect(run.stderr().match(/\(pid \d+\) exited \(code 0\)/g)).toHaveLength(2);
  }, 90_000);

  it('SIGINT to the pid it prints stops every node, also under npx', async () => {
    const run = start(['devnet', '--mn', '1', '--ln', '1', '--block-time', '200', '--data-dir', join(dir, 'devnet')], { npx: true });
    const { devnetPid, nodePids } = await devnetTable(run);
    process.kill(devnetPid, 'SIGINT');
    expect(await allExited([devnetPid, ...nodePids], 10_000)).toBe(true);
    // Exited is not yet read: the last lines may still be in the pipe.
    expect(await run.closed(5_000), 'its output was never closed').toBe(true);
    expect(run.stderr()).toContain('devnet: SIGINT: stopping every node');
    expect(run.stderr().match(/\(pid \d+\) exited \(code 0\)/g)).toHaveLength(2);
  }, 90_000);

  it('killed outright (SIGKILL): its nodes stop by themselves, cleanly', async () => {
    const data = join(dir, 'devnet');
    const run = start(['devnet', '--mn', '1', '--ln', '1', '--block-time', '200', '--data-dir', data]);
    const { devnetPid, nodePids } = await devnetTable(run);
    expect(devnetPid).toBe(run.child.pid);
    process.kill(devnetPid, 'SIGKILL');
    expect(await allExited(nodePids, 5_000), 'a node outlived its devnet').toBe(true);
    for (const name of ['mn1', 'ln1']) expect(readFileSync(join(data, name, 'node.log'), 'utf8')).toMatch(/the process that started it \(pid \d+\) exited: stopping/);
  }, 90_000);
});

/** The pids of the processes whose command line names `dir` (Linux /proc): what a devnet left running in its data dir. */
function processesIn(dir: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').some((arg) => arg.startsWith(dir))) pids.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** Waits until no process names `dir`; the pids of those still running after `ms` (kept for afterEach to kill). */
async function leftIn(dir: string, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const pids = processesIn(dir);
    if (pids.length === 0 || Date.now() > deadline) {
      strays.push(...pids);
      return pids;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The process's exit code (or signal name), or 'running' after `ms`. */
function exitOf(run: LongRun, ms: number): Promise<number | string> {
  const { child } = run;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? String(child.signalCode));
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('running'), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? String(signal));
    });
  });
}

describe.skipIf(!existsSync('/proc/self/cmdline'))('a devnet while it starts, and in a terminal', () => {
  it('SIGTERM while it starts (a node started, the next starting): exit 0, says it stops, and no node runs on', async () => {
    const data = join(dir, 'devnet');
    const run = start(['devnet', '--mn', '1', '--ln', '1', '--block-time', '200', '--data-dir', data]);
    // Once mn1 serves, the devnet spawns ln1 at once: the signal finds ln1 starting.
    await run.waitFor(/^devnet: mn1 MN /, { stream: 'stderr', ms: 60_000 });
    run.child.kill('SIGTERM');
    expect(await exitOf(run, 20_000), run.stderr()).toBe(0);
    expect(await run.closed(5_000)).toBe(true);
    expect(run.stderr()).toContain('devnet: SIGTERM: stopping every node');
    expect(run.stdout()).not.toMatch(/devnet ready/);
    expect(await leftIn(data, 3_000), 'a node of the devnet runs on').toEqual([]);
    // Stopped, it left no lock: a devnet starts there again.
    expect(existsSync(join(data, 'devnet.lock'))).toBe(false);
  }, 90_000);

  it('killed outright (SIGKILL) while it starts: the node it was starting stops by itself too', async () => {
    const data = join(dir, 'devnet');
    const run = start(['devnet', '--mn', '1', '--ln', '1', '--block-time', '200', '--data-dir', data]);
    await run.waitFor(/^devnet: mn1 MN /, { stream: 'stderr', ms: 60_000 });
    // ln1 is spawned and still loading: its parent is gone before it could look at it. (Killed at mn1's line alone,
    // the devnet could die before it spawned ln1, on a busy machine: then there is no ln1 to see stop.)
    for (const until = Date.now() + 30_000; processesIn(join(data, 'ln1')).length === 0; await new Promise((r) => setTimeout(r, 5))) {
      if (Date.now() > until) throw new Error('the devnet never spawned ln1');
    }
    run.child.kill('SIGKILL');
    expect(await leftIn(data, 10_000), 'a node outlived its devnet').toEqual([]);
    for (const name of ['mn1', 'ln1']) expect(readFileSync(join(data, name, 'node.log'), 'utf8'), name).toMatch(/exited: stopping/);
  }, 90_000);

  it('Ctrl-C in a terminal (SIGINT to its whole process group): every node stops once, cleanly (store closed), exit 0', async () => {
    const data = join(dir, 'devnet');
    // Its own process group, as a shell's foreground job is: the tty's SIGINT goes to every process in it.
    const child = spawn(process.execPath, [CHAINRPC_BIN, 'devnet', '--mn', '1', '--ln', '1', '--block-time', '200', '--data-dir', data], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const text = { out: '', err: '' };
    child.stdout.on('data', (d: Buffer) => (text.out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text.err += d.toString()));
    const exited = new Promise<number | string>((r) => child.once('close', (code, signal) => r(code ?? String(signal))));
    const pid = child.pid ?? 0;
    strays.push(pid);
    for (const until = Date.now() + 60_000; !/devnet ready/.test(text.out); await new Promise((r) => setTimeout(r, 50))) {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`no devnet ready: ${text.err}`);
    }
    strays.push(...processesIn(data));
    process.kill(-pid, 'SIGINT');
    expect(await Promise.race([exited, new Promise((r) => setTimeout(() => r('running'), 20_000))]), text.err).toBe(0);
    expect(text.err).toContain('devnet: SIGINT: stopping every node');
    expect(text.err.match(/(mn1|ln1) \(pid \d+\) exited \(code 0\)/g), text.err).toHaveLength(2);
    for (const name of ['mn1', 'ln1']) {
      const log = readFileSync(join(data, name, 'node.log'), 'utf8');
      expect(log, name).toMatch(/stopped cleanly: store closed/);
      expect(log, name).not.toMatch(/again: exiting now/);
    }
    expect(await leftIn(data, 3_000)).toEqual([]);
  }, 90_000);
});

describe('a data dir in use', () => {
  /** What a second devnet must not change: the genesis, mn1's key, and its store's LOCK file (inode). */
  const state = (data: string): string[] => [readFileSync(join(data, 'genesis.json'), 'utf8'), readFileSync(join(data, 'mn1', 'node-key'), 'utf8'), String(statSync(join(data, 'mn1', 'chain', 'LOCK')).ino)];

  it("a second devnet on a running devnet's data dir, or on one a node holds, is refused (exit 2, naming the process), and nothing there is touched", async () => {
    const data = join(dir, 'devnet');
    const first = start(['devnet', '--mn', '1', '--ln', '0', '--block-time', '200', '--data-dir', data]);
    const { devnetPid, nodePids } = await devnetTable(first);
    const url = first.stdout().split('\n').find((l) => l.startsWith('mn1 '))?.split(/\s+/)[2] ?? '';
    const before = state(data);
    for (const extra of [[], ['--keep-data']]) {
      const second = start(['devnet', '--mn', '1', '--ln', '0', '--block-time', '200', '--data-dir', data, ...extra]);
      expect(await exitOf(second, 20_000), `${extra.join(' ')}: ${second.stderr()}`).toBe(2);
      expect(await second.closed(5_000)).toBe(true);
      expect(second.stderr()).toContain(`${data} is in use by a running devnet (pid ${devnetPid};`);
      expect(state(data)).toEqual(before);
    }
    // The first devnet still serves from its own files, and stops as before, its lock released.
    expect(await height(url)).toBeGreaterThanOrEqual(0n);
    expect(isRunning(nodePids[0] ?? 0)).toBe(true);
    first.child.kill('SIGTERM');
    expect(await exitOf(first, 15_000)).toBe(0);
    expect(existsSync(join(data, 'devnet.lock'))).toBe(false);
    // A node started by hand on the devnet's mn1 folder holds its store: a devnet there is refused, naming it.
    const node = start(['node', '--port', '0', '--p2p-port', '0', '--data-dir', join(data, 'mn1'), '--genesis', join(data, 'genesis.json')]);
    const pid = await nodePid(node);
    const held = state(data);
    const third = start(['devnet', '--mn', '1', '--ln', '0', '--block-time', '200', '--data-dir', data]);
    expect(await exitOf(third, 20_000), third.stderr()).toBe(2);
    expect(await third.closed(5_000)).toBe(true);
    expect(third.stderr()).toContain(`its store ${join(data, 'mn1', 'chain')} is held by a running node (pid ${pid})`);
    expect(state(data)).toEqual(held);
    node.child.kill('SIGTERM');
    expect(await exitOf(node, 10_000)).toBe(0);
    // Nothing holds it now: a fresh devnet takes it.
    const fourth = start(['devnet', '--mn', '1', '--ln', '0', '--block-time', '200', '--data-dir', data]);
    await devnetTable(fourth);
    expect(state(data)[1]).not.toBe(held[1]);
    fourth.child.kill('SIGTERM');
    expect(await exitOf(fourth, 15_000)).toBe(0);
  }, 120_000);
});
