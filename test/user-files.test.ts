/**
 * Nothing a user has is lost (issue 21): every command that writes a folder or a file (devnet, node, test,
 * load and its corpus, k6 and merge commands, profile detect), given a folder holding a user's files
 * (thesis.txt and sub/y) or one of those files, either writes beside them or refuses with exit 2 and a message
 * naming the folder; the files survive every command and every flag that writes there. And replay reads the
 * newest conformance report whatever load run came after it. The built binary in its own process, as users
 * run it; nodes are real `chainrpc node` processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnNode } from '../reference-node/devnet/startDevnet.js';
import { CHAINRPC_BIN, runChainrpcIn } from './runChainrpc.js';
import type { ChainrpcRun } from './runChainrpc.js';

const base = mkdtempSync(join(tmpdir(), 'chainrpc-user-files-'));
const started: ChildProcess[] = [];
let url = '';

/** A folder holding a user's files: thesis.txt and sub/y. */
function usersFolder(name: string): string {
  const dir = join(base, name);
  mkdirSync(join(dir, 'sub'), { recursive: true });
  writeFileSync(join(dir, 'thesis.txt'), 'four years of work\n');
  writeFileSync(join(dir, 'sub', 'y'), 'y\n');
  return dir;
}

/** The user's files are there, unchanged. */
function intact(dir: string): void {
  expect(readFileSync(join(dir, 'thesis.txt'), 'utf8'), `${dir}/thesis.txt`).toBe('four years of work\n');
  expect(readFileSync(join(dir, 'sub', 'y'), 'utf8'), `${dir}/sub/y`).toBe('y\n');
}

/**
 * `chainrpc ...args` in `cwd`, to its end; a command that should have refused at once but runs on (a node, a
 * devnet) is stopped with SIGINT once it serves or after `ms`, so the test ends and reports what it did.
 */
function runBriefly(cwd: string, args: readonly string[], ms = 20_000): Promise<ChainrpcRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHAINRPC_BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(child);
    let stdout = '';
    let stderr = '';
    const stop = (): void => void child.kill('SIGINT');
    const timer = setTimeout(stop, ms);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      // Serving: a node printed its URLs, a devnet its table.
      if (/^(devnet ready|http:\/\/.*\nhttp:\/\/)/m.test(stdout)) setTimeout(stop, 200);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Refused: exit 2 and a message naming `dir`. */
function refused(r: ChainrpcRun, dir: string): void {
  expect({ code: r.code, names: r.stderr.includes(dir) }, r.stderr + r.stdout.slice(-500)).toEqual({ code: 2, names: true });
}

beforeAll(async () => {
  if (!existsSync(CHAINRPC_BIN)) throw new Error(`${CHAINRPC_BIN} is missing: run npm run build (npm test does it first)`);
  const n = await spawnNode(['--port', '0', '--p2p-port', '0', '--data-dir', join(base, 'node'), '--block-time', '100'], join(base, 'node.log'));
  started.push(n.process);
  url = n.url;
}, 60_000);

afterAll(() => {
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  rmSync(base, { recursive: true, force: true });
});

describe('devnet and node: a data dir of a user\'s files is refused, never emptied', () => {
  it('devnet --data-dir <a user\'s folder>: exit 2 naming it, fresh or --keep-data, and as --data-dir . in it; every file kept', async () => {
    const dir = usersFolder('devnet-user');
    for (const args of [['--data-dir', dir], ['--data-dir', dir, '--keep-data'], ['--data-dir', '.'], ['--data-dir', '.', '--keep-data']]) {
      const r = await runBriefly(dir, ['devnet', '--mn', '1', '--ln', '0', '--block-time', '200', ...args]);
      refused(r, dir);
      expect(r.stderr).toContain(args.includes('--keep-data') ? '--keep-data resumes the devnet kept in a folder a chainrpc devnet made' : 'give --data-dir a new or empty folder');
      // --keep-data is suggested only where it would work: a user's folder holds no devnet to resume.
      if (!args.includes('--keep-data')) expect(r.stderr).not.toContain('or --keep-data');
      expect(readdirSync(dir).sort(), args.join(' ')).toEqual(['sub', 'thesis.txt']);
      intact(dir);
    }
  }, 90_000);

  it('devnet starts fresh in a folder it made; a user\'s file put there since stops the fresh start (exit 2) and stays; --keep-data resumes beside it', async () => {
    const dir = join(base, 'devnet-own');
    const first = await runBriefly(base, ['devnet', '--mn', '1', '--ln', '1', '--block-time', '200', '--data-dir', dir]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('devnet ready');
    const again = await runBriefly(base, ['devnet', '--mn', '1', '--ln', '1', '--block-time', '200', '--data-dir', dir]);
    expect(again.code, again.stderr).toBe(0);
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'thesis.txt'), 'four years of work\n');
    writeFileSync(join(dir, 'sub', 'y'), 'y\n');
    const fresh = await runBriefly(base, ['devnet', '--mn', '1', '--ln', '1', '--block-time', '200', '--data-dir', dir]);
    refused(fresh, dir);
    expect(fresh.stderr).toContain('holds what chainrpc devnet did not make (sub/, thesis.txt)');
    intact(dir);
    const kept = await runBriefly(base, ['devnet', '--mn', '1', '--ln', '1', '--block-time', '200', '--data-dir', dir, '--keep-data']);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toContain('devnet ready');
    intact(dir);
  }, 120_000);

  it('node --data-dir and --show-id <a user\'s folder>: exit 2 naming it, nothing written; a node\'s own data dir still resumes', async () => {
    const dir = usersFolder('node-user');
    for (const args of [['--port', '0', '--p2p-port', '0'], ['--show-id']]) {
      const r = await runBriefly(base, ['node', '--data-dir', dir, ...args]);
      refused(r, dir);
      expect(r.stderr).toContain("give --data-dir a new or empty folder, or a node's data dir to resume it");
      expect(readdirSync(dir).sort(), args.join(' ')).toEqual(['sub', 'thesis.txt']);
      intact(dir);
    }
    const own = join(base, 'node-own');
    const id = await runBriefly(base, ['node', '--data-dir', own, '--show-id']);
    expect(id.code, id.stderr).toBe(0);
    expect((await runBriefly(base, ['node', '--data-dir', own, '--show-id'])).stdout).toBe(id.stdout);
  }, 60_000);
});

describe('reports: a run writes beside a user\'s files; a `latest` of the user\'s is refused before anything runs', () => {
  it('test --report-dir: a run folder and the latest links beside thesis.txt and sub/; a user\'s latest: exit 2 naming the folder, kept', async () => {
    const dir = usersFolder('reports-test');
    const r = await runChainrpcIn(base, ['test', '--url', url, '--only', 'transport/empty-batch', '--block-time', '100', '--report-dir', dir]);
    expect(r.code, r.stdout.slice(-800)).toBe(0);
    expect(readdirSync(dir).filter((f) => !/^\d{4}-/.test(f)).sort()).toEqual(['latest', 'latest-conformance', 'sub', 'thesis.txt']);
    intact(dir);
    const clash = usersFolder('reports-test-latest');
    writeFileSync(join(clash, 'latest'), 'my notes\n');
    const refusedRun = await runChainrpcIn(base, ['test', '--url', url, '--only', 'transport/empty-batch', '--block-time', '100', '--report-dir', clash]);
    refused(refusedRun, clash);
    expect(refusedRun.stderr).toContain('holds latest, which is not chainrpc\'s link to the newest report');
    expect(readdirSync(clash).sort()).toEqual(['latest', 'sub', 'thesis.txt']);
    expect(readFileSync(join(clash, 'latest'), 'utf8')).toBe('my notes\n');
    intact(clash);
  }, 60_000);

  it('load and load merge --report-dir <a folder whose latest is a user\'s>: exit 2 naming it before anything runs, kept', async () => {
    const dir = usersFolder('reports-load');
    mkdirSync(join(dir, 'latest'));
    writeFileSync(join(dir, 'latest', 'mine.txt'), 'mine\n');
    const run = await runChainrpcIn(base, ['load', 'reads', '--url', url, '--rate', '20', '--duration', '1s', '--warmup', '500ms', '--report-dir', dir]);
    refused(run, dir);
    expect(run.stderr).toContain('holds latest/, which is not chainrpc\'s link');
    const summary = join(base, 'summary.json');
    writeFileSync(summary, '{}');
    const merge = await runChainrpcIn(base, ['load', 'merge', summary, '--report-dir', dir]);
    refused(merge, dir);
    expect(readdirSync(dir).sort()).toEqual(['latest', 'sub', 'thesis.txt']);
    expect(readFileSync(join(dir, 'latest', 'mine.txt'), 'utf8')).toBe('mine\n');
    intact(dir);
  }, 60_000);

  it('fuzz --report-dir <a folder whose latest is a user\'s>: exit 2 naming it before any case is sent, kept', async () => {
    const dir = usersFolder('reports-fuzz');
    mkdirSync(join(dir, 'latest'));
    writeFileSync(join(dir, 'latest', 'mine.txt'), 'mine\n');
    const run = await runChainrpcIn(base, ['fuzz', '--url', url, '--cases', '50', '--report-dir', dir]);
    refused(run, dir);
    expect(run.stderr).not.toContain('fuzz: seed');
    expect(readdirSync(dir).sort()).toEqual(['latest', 'sub', 'thesis.txt']);
    intact(dir);
  }, 60_000);
});

describe('load output: a user\'s folder or file is never written over', () => {
  it('load k6 --out <a user\'s folder> (and --operator): exit 2 naming it, their script.js kept; a folder it made is made again', async () => {
    const dir = usersFolder('k6-user');
    writeFileSync(join(dir, 'script.js'), '// my own k6 script\n');
    for (const extra of [[], ['--operator', 'reads-test', '--segments', '2']]) {
      const r = await runChainrpcIn(base, ['load', 'k6', 'reads', '--url', url, '--out', dir, ...extra]);
      refused(r, dir);
      expect(r.stderr).toContain('give --out a new or empty folder, or one chainrpc load k6 made');
      expect(readdirSync(dir).sort()).toEqual(['script.js', 'sub', 'thesis.txt']);
      expect(readFileSync(join(dir, 'script.js'), 'utf8')).toBe('// my own k6 script\n');
      intact(dir);
    }
    const own = join(base, 'k6-own');
    for (let i = 0; i < 2; i++) {
      const r = await runChainrpcIn(base, ['load', 'k6', 'reads', '--url', url, '--out', own, '--operator', 'reads-test']);
      expect(r.code, r.stderr).toBe(0);
    }
    expect(readdirSync(own).sort()).toEqual(['.chainrpc-owned', 'chainrpc.k6.js', 'data.json', 'script.js', 'testrun.yaml']);
  }, 60_000);

  it('load corpus --out <a user\'s file>: exit 2 naming it, kept; a corpus it wrote is written again', async () => {
    const dir = usersFolder('corpus-user');
    for (const out of [join(dir, 'thesis.txt'), join(dir, 'sub')]) {
      const r = await runChainrpcIn(base, ['load', 'corpus', '--url', url, '--out', out, '--senders', '2', '--per-sender', '2']);
      refused(r, out);
      intact(dir);
    }
    const corpus = join(dir, 'corpus.json');
    for (let i = 0; i < 2; i++) {
      const r = await runChainrpcIn(base, ['load', 'corpus', '--url', url, '--out', corpus, '--senders', '2', '--per-sender', '2', '--seed', `user-files-${i}`]);
      expect(r.code, r.stderr).toBe(0);
    }
    expect(readFileSync(corpus, 'utf8')).toMatch(/^\{\s*"format": "chainrpc-corpus\/1"/);
    intact(dir);
  }, 60_000);

  it('profile detect --out <a user\'s file>: exit 2 naming it before any probe, kept; a draft it wrote is written again', async () => {
    const dir = usersFolder('profile-user');
    const r = await runChainrpcIn(base, ['profile', 'detect', '--url', url, '--out', join(dir, 'thesis.txt'), '--no-limits', '--no-transactions']);
    refused(r, join(dir, 'thesis.txt'));
    intact(dir);
    const draft = join(dir, 'profile.json');
    for (let i = 0; i < 2; i++) {
      const made = await runChainrpcIn(base, ['profile', 'detect', '--url', url, '--out', draft, '--no-limits', '--no-transactions']);
      expect(made.code, made.stderr).toBe(0);
    }
    intact(dir);
  }, 60_000);
});

describe('replay finds the newest conformance report whatever ran after it', () => {
  it('test, then a load run into the same default report folder (beside a user\'s files), then replay: exit 0 and the check\'s verdict now', async () => {
    const cwd = join(base, 'replay');
    const root = usersFolder(join('replay', '.chainrpc', 'reports'));
    const tested = await runChainrpcIn(cwd, ['test', '--url', url, '--only', 'transport/empty-batch', '--block-time', '100']);
    expect(tested.code, tested.stdout.slice(-800)).toBe(0);
    const loaded = await runChainrpcIn(cwd, ['load', 'reads', '--url', url, '--rate', '20', '--duration', '1s', '--warmup', '500ms']);
    expect([0, 1], loaded.stderr).toContain(loaded.code);
    const r = await runChainrpcIn(cwd, ['replay', 'transport/empty-batch']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^transport\/empty-batch was PASS on http:/m);
    expect(r.stdout).toMatch(new RegExp(`^now: PASS transport/empty-batch on ${url}: `, 'm'));
    intact(root);
  }, 60_000);
});
