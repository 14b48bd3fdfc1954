/**
 * The package installs where CI needs it (README, "In a CI job, outside the clone"): `npm pack` makes a
 * tarball of the build and what it reads at run time; installed into an empty folder with its runtime
 * dependencies only, it runs `chainrpc --help` and a reference node; and the README's recipe, run as printed
 * in another empty folder outside the clone, certifies that node.
 */
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../core/paths.js';
import { startLongProcess } from './runChainrpc.js';
import type { LongRun } from './runChainrpc.js';

const run = promisify(execFile);
let dir: string;
let tarball: string;
let node: LongRun | undefined;

/** npm's environment without what `npm test` set for itself, quiet, and from the cache first (CI installed from it). */
function npmEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.toLowerCase().startsWith('npm_')) env[k] = v;
  return { ...env, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra };
}

/** The first ```sh block under the README heading `heading`. */
function readmeBlock(heading: string): string {
  const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
  const at = readme.indexOf(`\n## ${heading}\n`);
  if (at === -1) throw new Error(`README.md has no section "${heading}"`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (block?.[1] === undefined) throw new Error(`README.md's "${heading}" has no sh block`);
  return block[1];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-install-'));
  // The build is npm test's (a prepack build would replace dist/ under the other tests' feet).
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: packageRoot, env: npmEnv() });
  tarball = join(dir, stdout.trim().split('\n').at(-1) ?? '');
}, 120_000);

afterAll(async () => {
  if (node !== undefined && node.child.exitCode === null) {
    node.child.kill('SIGTERM');
    await new Promise((r) => node?.child.once('exit', r));
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds the build and what it reads at run time, and no sources or tests', async () => {
    // The build's entry is executable: `npx chainrpc` in the clone runs it as it is (npm chmods only what it installs).
    expect(statSync(join(packageRoot, 'dist', 'cli', 'chainrpc.js')).mode & 0o111).toBe(0o111);
    expect(existsSync(tarball)).toBe(true);
    const { stdout } = await run('tar', ['tzf', tarball]);
    const entries = stdout.split('\n').filter((e) => e !== '' && !e.endsWith('/'));
    expect(entries).toContain('package/dist/cli/chainrpc.js');
    expect(entries).toContain('package/load/k6/chainrpc.k6.js');
    expect(entries.some((e) => e.startsWith('package/schemas/methods/'))).toBe(true);
    expect(entries.some((e) => e.startsWith('package/load/scenarios/'))).toBe(true);
    const strays = entries.filter((e) => /\.test\.|\/test\/|\.map$/.test(e) || (e.endsWith('.ts') && !e.endsWith('.d.ts')));
    expect(strays).toEqual([]);
  });

  it('installs into an empty folder with its runtime dependencies, runs --help and a reference node; the README recipe certifies that node', async () => {
    const app = join(dir, 'app');
    mkdirSync(app);
    await run('npm', ['install', tarball], { cwd: app, env: npmEnv(), timeout: 120_000 });
    const installed = readdirSync(join(app, 'node_modules'));
    // Runtime dependencies only: no test runner, compiler or linter.
    for (const dev of ['vitest', 'typescript', 'eslint', 'tsx']) expect(installed).not.toContain(dev);
    const bin = join(app, 'node_modules', '.bin', 'chainrpc');
    const help = await run(bin, ['--help'], { cwd: app });
    expect(help.stdout).toContain('Usage: chainrpc <command>');

    node = startLongProcess(bin, ['node', '--port', '0', '--p2p-port', '0', '--data-dir', join(dir, 'node-data'), '--block-time', '200'], { cwd: app });
    const url = await node.waitFor(/^http:/);

    // The recipe as printed, in an empty folder outside the clone that holds the tarball; its global installs
    // go to a folder of this test's.
    const ci = join(dir, 'ci-job');
    mkdirSync(ci);
    copyFileSync(tarball, join(ci, tarball.split('/').at(-1) ?? ''));
    const prefix = join(dir, 'global');
    const recipe = readmeBlock('In a CI job, outside the clone');
    const job = spawn('sh', ['-e', '-c', recipe], {
      cwd: ci,
      env: npmEnv({ NODE: url, npm_config_prefix: prefix, PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}` }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    job.stdout.on('data', (d: Buffer) => (output += d.toString()));
    job.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise((r) => job.once('exit', r));
    expect(code, output).toBe(0);
    expect(output).toContain('CERTIFIED');
    // Its reports, in the folder the recipe named, with the JUnit XML for the CI's test tab.
    const found = (readdirSync(join(ci, 'reports'), { recursive: true }) as string[]).filter((f) => f.endsWith('junit.xml'));
    expect(found.length).toBeGreaterThan(0);
  }, 180_000);
});
