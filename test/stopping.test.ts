/**
 * Processes stop as a user stops them (docs/reference-node.md, "Starting and stopping"): a node and a devnet
 * started with `npx chainrpc …` in the background stop cleanly on a kill of the npx PID, the one a script
 * holds; a devnet prints its own PID first and stops every node on SIGINT or SIGTERM to it; a node whose
 * devnet is killed outright stops by itself; and a node started from a shell with `&` outlives that shell,
 * as anything started so does. Real processes throughout, through npm's own npx.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
