/**
 * `chainrpc fuzz` as a user runs it (the build, real nodes on loopback): a clean run exits 0 with its four
 * reports; a node with a robustness fault exits 1, and the printed replay command shows the finding again on
 * it and no longer on an honest node; no node answering is exit 3; usage errors are exit 2.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from './support/suites.js';
import { runChainrpc } from './runChainrpc.js';

let dir: string;
let honest: TestNode;
let faulty: TestNode;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-fuzz-'));
  honest = await startTestNode();
  faulty = await startTestNode({ faults: ['loses-id-on-odd-hex'] });
});

afterAll(async () => {
  await honest.stop();
  await faulty.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('chainrpc fuzz', () => {
  it('a clean run: exit 0, the headline, the seed to run it again, and the four reports', async () => {
    const r = await runChainrpc('fuzz', '--url', honest.url, '--cases', '300', '--seed', '5', '--report-dir', join(dir, 'clean'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^FUZZ: no finding in 300 cases \(seed 5,/m);
    expect(r.stderr).toContain('--seed 5 makes this run again');
    const folder = /^reports: (.+)$/m.exec(r.stdout)?.[1] ?? '';
    for (const file of ['report.json', 'summary.md', 'junit.xml', 'report.html']) expect(existsSync(join(folder, file)), file).toBe(true);
    // The page to open, named as chainrpc test and load name it.
    expect(/^HTML report: (.+)$/m.exec(r.stdout)?.[1]).toMatch(/report\.html$/);
    const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as { format: string; cases: number; findings: unknown[] };
    expect(report).toMatchObject({ format: 'chainrpc-fuzz/1', cases: 300, findings: [] });
  }, 60_000);

  it('a node with a bug: exit 1, the finding shrunk, and its replay shows it again (1), and not on an honest node (0)', async () => {
    const r = await runChainrpc('fuzz', '--url', faulty.url, '--seed', '1', '--max-findings', '1', '--report-dir', join(dir, 'found'));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FUZZ: 1 finding on /m);
    expect(r.stdout).toMatch(/F1 envelope chain_sendRawTransaction: .*with id null/);
    const replay = /^replay one: chainrpc fuzz --replay (\S+) F1$/m.exec(r.stdout);
    expect(replay).not.toBeNull();
    const again = await runChainrpc('fuzz', '--replay', replay?.[1] ?? '', 'F1');
    expect(again.code, again.stderr).toBe(1);
    expect(again.stdout).toContain('now: SHOWS AGAIN');
    const fixed = await runChainrpc('fuzz', '--replay', replay?.[1] ?? '', 'F1', '--url', honest.url);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain('now: NO LONGER SHOWS');
  }, 60_000);

  it('--threads 2: the case thread finds what one thread finds, under a profile file with overrides', async () => {
    // A profile file, and an override of the command line on top of it: the case thread must judge by both.
    const profile = join(dir, 'profile.json');
    writeFileSync(profile, JSON.stringify({ name: 'reference, from a file' }));
    const args = (threads: string, out: string): string[] => ['fuzz', '--url', faulty.url, '--profile', profile, '--rpc-path', '/rpc', '--seed', '1', '--cases', '400', '--threads', threads, '--report-dir', join(dir, out)];
    const one = await runChainrpc(...args('1', 'one'));
    const two = await runChainrpc(...args('2', 'two'));
    expect(one.code, one.stderr).toBe(1);
    expect(two.code, two.stderr).toBe(1);
    // The profile file and the override go into report.json and every replay command; --replay without them loads them.
    const replay = /^replay one: chainrpc fuzz --replay (\S+) (F\d+) --profile (\S+) --rpc-path \/rpc$/m.exec(one.stdout);
    expect(replay?.[3], one.stdout).toBe(profile);
    const report = JSON.parse(readFileSync(replay?.[1] ?? '', 'utf8')) as { options: { profileFile?: string; rpcPath?: string } };
    expect(report.options.profileFile).toBe(profile);
    expect(report.options.rpcPath).toBe('/rpc');
    expect(readFileSync(join(/^reports: (.+)$/m.exec(one.stdout)?.[1] ?? '', 'summary.md'), 'utf8')).toContain(`--profile ${profile} --rpc-path /rpc`);
    const again = await runChainrpc('fuzz', '--replay', replay?.[1] ?? '', replay?.[2] ?? '');
    expect(again.stderr).toContain(`judging by the run's profile, ${profile}`);
    expect(again.stderr).toContain("with the run's --rpc-path /rpc (named in the report)");
    expect(again.code, again.stdout + again.stderr).toBe(1);
    const findings = (stdout: string): string[] => [...stdout.matchAll(/^\s*(F\d+ \S+ \S+):/gm)].map((m) => m[1] ?? '');
    expect(findings(two.stdout).length).toBeGreaterThan(0);
    expect(findings(two.stdout)).toEqual(findings(one.stdout));
    const bad = await runChainrpc('fuzz', '--url', honest.url, '--threads', '3');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--threads/);
  }, 90_000);

  it('a node of another network: judged by the reference profile its own limit looks like a bug; --profile detect judges it by its own', async () => {
    // A node whose batches stop at 8 calls (the reference profile says 1000): a batch of 9 refused whole is its right.
    const small = await startTestNode({ maxBatch: 8 });
    try {
      const given = ['fuzz', '--url', small.url, '--only', 'envelope', '--cases', '3000', '--seed', '2'];
      const asReference = await runChainrpc(...given, '--max-findings', '1', '--report-dir', join(dir, 'as-reference'));
      expect(asReference.code, asReference.stderr).toBe(1);
      expect(asReference.stderr).toMatch(/judging by the reference profile \(its limits: batches of 1000.*--profile detect/);
      // A batch's finding about the batch as a whole names no method (not its first call's).
      expect(asReference.stdout).toMatch(/^ {2}F1 envelope: answered a batch of 9 with one error object/m);
      const detected = await runChainrpc(...given, '--profile', 'detect', '--report-dir', join(dir, 'detected'));
      expect(detected.code, detected.stdout + detected.stderr).toBe(0);
      expect(detected.stderr).toMatch(/fuzz: detect: batch size limit/);
      expect(detected.stderr).not.toMatch(/judging by the reference profile/);
      const file = /^profile detected \(.*\): (.+)$/m.exec(detected.stdout)?.[1] ?? '';
      expect((JSON.parse(readFileSync(file, 'utf8')) as { maxBatch: unknown }).maxBatch).toBe(8);
      const folder = /^reports: (.+)$/m.exec(detected.stdout)?.[1] ?? '-';
      expect(file.startsWith(folder)).toBe(true);
      // report.json names it (absolute), for --replay and the reports' replay commands.
      const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as { options: { profileFile?: string } };
      expect(report.options.profileFile).toBe(resolve(file));
    } finally {
      await small.stop();
    }
  }, 90_000);

  it('a node that dies: its liveness replay shows again on a node it kills (1), and no longer on one that answers after it (0)', async () => {
    const dying = await startTestNode({ faults: ['dies-on-huge-height'] });
    const another = await startTestNode({ faults: ['dies-on-huge-height'] });
    try {
      // One case at a time: the request it names is the one that killed the node, not a guess.
      const r = await runChainrpc('fuzz', '--url', dying.url, '--seed', '1', '--concurrency', '1', '--max-findings', '1', '--report-dir', join(dir, 'died'));
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toMatch(/^ {2}F1 liveness/m);
      const replay = /^replay one: chainrpc fuzz --replay (\S+) F1$/m.exec(r.stdout);
      const dead = await runChainrpc('fuzz', '--replay', replay?.[1] ?? '', 'F1');
      expect(dead.code, dead.stdout + dead.stderr).toBe(3);
      const again = await runChainrpc('fuzz', '--replay', replay?.[1] ?? '', 'F1', '--url', another.url);
      expect(again.stdout).toMatch(/^now: SHOWS AGAIN: the node stopped answering after this request/m);
      expect(again.code, again.stdout + again.stderr).toBe(1);
      const fixed = await runChainrpc('fuzz', '--replay', replay?.[1] ?? '', 'F1', '--url', honest.url);
      expect(fixed.stdout).toMatch(/^now: NO LONGER SHOWS/m);
      expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
    } finally {
      await dying.stop();
      await another.stop();
    }
  }, 90_000);

  it('a second node that never answered is named in the last line and in summary.md', async () => {
    const r = await runChainrpc('fuzz', '--url', honest.url, '--url', 'http://127.0.0.1:1', '--cases', '100', '--seed', '5', '--report-dir', join(dir, 'half'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^FUZZ: no finding in 100 cases \(.*; http:\/\/127\.0\.0\.1:1 did not answer at the start: not fuzzed\)$/m);
    const folder = /^reports: (.+)$/m.exec(r.stdout)?.[1] ?? '';
    expect(readFileSync(join(folder, 'summary.md'), 'utf8')).toContain('http://127.0.0.1:1 did not answer a known-good call');
  }, 60_000);

  it('exits 3 when no node answers, and 2 on usage errors', async () => {
    const none = await runChainrpc('fuzz', '--url', 'http://127.0.0.1:1', '--cases', '10');
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/no node answered at http:\/\/127\.0\.0\.1:1\/rpc: the connection was refused \(nothing listens there\)/);
    expect(none.stderr).not.toMatch(/--rpc-path/);
    expect((await runChainrpc('fuzz', '--url', honest.url, '--only', 'chain_nope')).code).toBe(2);
    expect((await runChainrpc('fuzz', '--cases', '10')).code).toBe(2);
    const notFuzz = join(dir, 'other.json');
    writeFileSync(notFuzz, '{"format":"chainrpc-load/2","runs":[]}');
    const wrong = await runChainrpc('fuzz', '--replay', notFuzz, 'F1');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/not a chainrpc fuzz report/);
    expect((await runChainrpc('fuzz', '--replay', notFuzz)).code).toBe(2);
  }, 60_000);
});
