/**
 * `chainrpc load` as users run it: the built binary in its own process, against reference nodes in their own
 * processes on loopback. What a user relies on at the edges: bad input is one clear line and exit 2, Ctrl-C
 * writes the report of what ran (exit 130), and a node that dies mid-run still gets a report that says when
 * and how (exit 1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../core/json/index.js';
import type { LoadReport } from '../load/model.js';
import { spawnNode } from '../reference-node/devnet/startDevnet.js';
import { CHAINRPC_BIN, runChainrpc } from './runChainrpc.js';
import { findK6, K6_SKIP_NOTE, runK6 } from './support/k6.js';

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-load-'));
const started: ChildProcess[] = [];

/** A reference node in its own process (what `chainrpc node` starts), with fast blocks. */
async function node(name: string): Promise<{ url: string; process: ChildProcess }> {
  const n = await spawnNode(['--port', '0', '--p2p-port', '0', '--data-dir', join(dir, name), '--block-time', '100'], join(dir, `${name}.log`));
  started.push(n.process);
  return n;
}

/** The report a run wrote, found through the folder it printed. */
function reportOf(stdout: string): LoadReport {
  const folder = /^reports: (.+)$/m.exec(stdout)?.[1];
  if (folder === undefined) throw new Error(`no report folder printed:\n${stdout}`);
  return parseJson(readFileSync(join(folder.startsWith('/') ? folder : join(process.cwd(), folder), 'report.json'), 'utf8')) as unknown as LoadReport;
}

/** `chainrpc load ...args` in its own process (node started with `nodeOptions`): its output as it comes, a wait for a line of it, its end. */
function startLoad(args: string[], nodeOptions: string[] = []): { child: ChildProcess; stdout: () => string; stderr: () => string; waitFor: (pattern: RegExp) => Promise<void>; exit: () => Promise<number | null> } {
  const child = spawn(process.execPath, [...nodeOptions, CHAINRPC_BIN, 'load', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let stdout = '';
  let stderr = '';
  const waiting: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    for (const w of waiting.filter((x) => x.pattern.test(stdout))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (pattern) => (pattern.test(stdout) ? Promise.resolve() : new Promise((resolve) => waiting.push({ pattern, resolve }))),
    exit: () => closed,
  };
}

/** A reference node with blocks every 30 s: a funding waits for one far longer than any test. */
async function slowNode(name: string): Promise<{ url: string; process: ChildProcess }> {
  const n = await spawnNode(['--port', '0', '--p2p-port', '0', '--data-dir', join(dir, name), '--block-time', '30000'], join(dir, `${name}.log`));
  started.push(n.process);
  return n;
}

/** A progress line of the measured window, a second in: enough ran to be reported. */
const A_SECOND_IN = / [1-9]\.\d s \/ 60\.0 s /;

beforeAll(() => {
  if (!existsSync(CHAINRPC_BIN)) throw new Error(`${CHAINRPC_BIN} is missing: run npm run build (npm test does it first)`);
});
afterAll(() => {
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('chainrpc load: bad input', () => {
  it('an invalid scenario file is one line naming the JSON pointer and the rule, exit 2, nothing sent', async () => {
    const file = join(dir, 'bad-scenario.json');
    writeFileSync(file, JSON.stringify({ name: 'bad', arrivals: { model: 'open', rate: -5 }, duration: '5s', mix: [{ method: 'chain_blockNumber' }] }));
    const r = await runChainrpc('load', file, '--url', 'http://127.0.0.1:9', '--report-dir', join(dir, 'reports-bad'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^chainrpc: load: .*\/arrivals\/rate.*minimum/m);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'reports-bad'))).toBe(false);
  });

  it.each([
    [['load', 'reads'], /give at least one --url/],
    [['load', 'no-such-scenario', '--url', 'http://127.0.0.1:9'], /no-such-scenario/],
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--duration', 'soon'], /--duration must be a duration such as 500ms, 30s or 2m; got "soon"/],
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--threshold', 'p99 < 5%'], /p99 is a time/],
    [['load', 'sweep', 'reads', '--url', 'http://127.0.0.1:9', '--url', 'http://127.0.0.1:10'], /give one --url/],
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--rates', '10,20'], /--rates belongs to chainrpc load sweep/],
    [['load', 'sweep', 'reads', '--url', 'http://127.0.0.1:9', '--baseline', 'report.json'], /--baseline compares runs of chainrpc load/],
    // Numeric limits are stated as limits: the scenario schema's bound on a rate.
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--rate', '1e9'], /^chainrpc: load: --rate must be at most 1,000,000 requests\/s; got "1e9"\n$/],
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--rate', '0'], /^chainrpc: load: --rate must be greater than 0 requests\/s; got "0"\n$/],
    [['load', 'sweep', 'reads', '--url', 'http://127.0.0.1:9', '--max-rate', '2000000'], /--max-rate must be at most 1,000,000 requests\/s; got "2000000"/],
    // A sweep's own options that cannot run, refused before the node is contacted (a step of 0 s was an internal error, exit 4, after the first probe).
    [['load', 'sweep', 'reads', '--url', 'http://127.0.0.1:9', '--step', '0s', '--start-rate', '50', '--max-rate', '200', '--head-hz', '0'], /^chainrpc: load sweep: --step must be longer than 0 \(1ms at least\); got "0s"\n$/],
    [['load', 'sweep', 'reads', '--url', 'http://127.0.0.1:9', '--step', '0'], /^chainrpc: load sweep: --step must be longer than 0, a duration such as 500ms, 30s or 2m; got "0"\n$/],
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--max-lag', '0ms'], /^chainrpc: load: --max-lag must be longer than 0 \(1ms at least\); got "0ms"\n$/],
    [['load', 'sweep', 'reads', '--url', 'http://127.0.0.1:9', '--start-rate', '500', '--max-rate', '200'], /--start-rate 500 is above --max-rate 200/],
    [['load', 'sweep', 'reads', '--url', 'http://127.0.0.1:9', '--rates', '10,20', '--start-rate', '5'], /--rates runs the rates given; --start-rate belongs to a searched sweep/],
    [['load', 'sweep', 'reads', '--url', 'http://127.0.0.1:9', '--duration', '5s'], /--duration is a run's measured window; a sweep's steps each last --step/],
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--regression', 'ten'], /--regression must be a number of percent \(e\.g\. 10 or 2\.5\); got "ten"/],
    // What the user gave, not a field they never wrote (/transactions).
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--corpus', 'corpus.json'], /^chainrpc: load: built-in scenario reads: --corpus corpus\.json: this scenario sends no chain_sendRawTransaction, so it has no use for a corpus/],
    // The node's health: a threshold on it needs what measures it; --pid and --metrics-url as given.
    [['load', 'soak', '--url', 'http://127.0.0.1:9'], /the threshold "rss-growth < 50MB\/h" judges the node's memory: give --pid <pid> \(a node on this machine\) or --metrics-url/],
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--head-hz', '0', '--threshold', 'stalls == 0'], /"stalls == 0" judges the nodes' heads, which --head-hz 0 leaves unfollowed/],
    // One head alone (one --url, no --head-reference): nothing to measure the lag or stalls against.
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--threshold', 'stalls == 0'], /"stalls == 0" compares the node's head with another's, and only one node's head is followed: give a second --url or --head-reference/],
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--threshold', 'head-lag-p99 < 100ms'], /"head-lag-p99 < 100ms" compares the node's head with another's/],
    [['load', 'sweep', 'reads', '--url', 'http://127.0.0.1:9', '--threshold', 'head-lag-drift < 1s/h'], /"head-lag-drift < 1s\/h" compares the node's head with another's/],
    // Regressions are counted in the load's own reads too, but a mix of transfers alone reads nothing.
    [['load', 'send-raw-tx', '--url', 'http://127.0.0.1:9', '--head-hz', '0', '--threshold', 'regressions == 0'], /"regressions == 0" judges the nodes' heads, which --head-hz 0 leaves unfollowed/],
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--pid', '4194311'], /--pid 4194311 \(for http:\/\/127\.0\.0\.1:9\): no such process here/],
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--pid', '1', '--pid', '2'], /2 --pid for 1 --url/],
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--pid', String(process.pid), '--metrics-url', 'http://127.0.0.1:9/metrics'], /has both a --pid and a --metrics-url/],
    // Faults under load (docs/chaos.md): refused before any node starts.
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--chaos', '2s:kill:leader'], /--chaos steps act on a devnet chainrpc starts: give --devnet <mn>:<ln>/],
    [['load', 'reads', '--devnet', '0:1'], /--devnet 0:1: write <mn>:<ln>, from 1 to 9 MN/],
    [['load', 'reads', '--devnet', '3:0', '--chaos', '2s:kill:ln1'], /the network has no node ln1 \(it has mn1, mn2, mn3\)/],
    [['load', 'reads', '--devnet', '3:0', '--duration', '5s', '--chaos', '4s:pause:mn1:2s'], /ends at 6000 ms, not within the run's 5000 ms/],
    [['load', 'reads', '--devnet', '3:0', '--url', 'http://127.0.0.1:9'], /--devnet loads the nodes it starts: give no --url/],
    [['load', 'reads', '--devnet', '3:0', '--chaos', '2s:kill:mn1', '--head-hz', '0'], /--chaos measures the chain through the nodes' heads/],
    [['load', 'reads', '--devnet', '3:0', '--threshold', 'failover < 3s'], /"failover < 3s" judges a run with faults: give --chaos/],
    [['load', 'sweep', 'reads', '--url', 'http://127.0.0.1:9', '--devnet', '3:0'], /--devnet, --chaos and --chaos-exec belong to chainrpc load/],
    // A fault threshold against a network chainrpc did not start: --chaos-exec is the way, and the message says it.
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--threshold', 'recovery < 5s'], /or --chaos-exec <at>:<command> against the --url nodes/],
    // Transactions' fates need transactions in the mix.
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--chaos-exec', '1s:true', '--threshold', 'lost-tx == 0'], /lost-tx needs transactions in the mix \[rule: threshold-inclusion\]/],
    // --regression compares with nothing without a --baseline: said, not ignored.
    [['load', 'reads', '--url', 'http://127.0.0.1:9', '--regression', '5'], /--regression sets the change allowed against a --baseline, and none is given/],
    [['load', 'merge', 'summary.json', '--regression', '5'], /--regression sets the change allowed against a --baseline, and none is given/],
  ])('%j: exit 2 and says why', async (args, message) => {
    const r = await runChainrpc(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('a corpus file that is not one: exit 2 before any node is touched, saying what is wrong with that file', async () => {
    const file = join(dir, 'not-a-corpus.json');
    writeFileSync(file, '{}');
    const r = await runChainrpc('load', 'send-raw-tx', '--url', 'http://127.0.0.1:9', '--corpus', file, '--report-dir', join(dir, 'reports-corpus'));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(`chainrpc: load: ${file} is not a corpus this chainrpc reads: its /format is missing, not "chainrpc-corpus/1" (make one with \`chainrpc load corpus\`)\n`);
  });

  it('no node at the URL: exit 3 before any load, and says which URL', async () => {
    // A regressions threshold with the heads unfollowed is measured by the reads' own watch: not refused.
    const r = await runChainrpc('load', 'reads', '--url', 'http://127.0.0.1:9', '--duration', '1s', '--head-hz', '0', '--threshold', 'regressions == 0', '--report-dir', join(dir, 'reports-none'));
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('http://127.0.0.1:9');
  });
});

describe('chainrpc load: runs that end early still report', () => {
  it('Ctrl-C stops sending and writes the report of what ran: exit 130, the run marked interrupted', async () => {
    const n = await node('interrupted');
    const load = startLoad(['reads', '--url', n.url, '--rate', '40', '--duration', '60s', '--warmup', '200ms', '--report-dir', join(dir, 'reports-int')]);
    await load.waitFor(A_SECOND_IN);
    const sentAt = Date.now();
    load.child.kill('SIGINT');
    const code = await load.exit();
    expect(code).toBe(130);
    expect(Date.now() - sentAt).toBeLessThan(10_000);
    expect(load.stderr()).toContain('interrupted: stopping, then writing the report of what ran');
    const report = reportOf(load.stdout());
    expect(report.verdict.exitCode).toBe(130);
    const [run] = report.runs;
    expect(run?.stop.reason).toBe('interrupted');
    expect(run?.schedule.sent).toBeGreaterThan(20);
    expect(run?.methods.reduce((k, m) => k + m.ok, 0)).toBeGreaterThan(20);
  }, 60_000);

  it('Ctrl-C during setup (senders funded on a slow chain) stops the wait at once: exit 130, a report with no run', async () => {
    const n = await slowNode('slow');
    const load = startLoad(['send-raw-tx', '--url', n.url, '--rate', '10', '--duration', '5s', '--report-dir', join(dir, 'reports-setup')]);
    await load.waitFor(/signing a corpus/);
    // Into the wait for a block that is 30 s away.
    await new Promise((r) => setTimeout(r, 500));
    const sentAt = Date.now();
    load.child.kill('SIGINT');
    expect(await load.exit(), load.stderr()).toBe(130);
    expect(Date.now() - sentAt).toBeLessThan(5_000);
    const report = reportOf(load.stdout());
    expect(report.verdict.exitCode).toBe(130);
    expect(report.runs).toEqual([]);
    // It was stopped in the wait, not after it: the block the funding waits for has not come.
    const height = await runChainrpc('call', '--url', n.url, 'chain_blockNumber');
    expect(Number(height.stdout.trim())).toBe(0);
  }, 60_000);

  it.each([
    ['load corpus', (url: string, out: string) => ['corpus', '--url', url, '--out', join(out, 'corpus.json'), '--senders', '4', '--per-sender', '5']],
    ['load k6', (url: string, out: string) => ['k6', 'send-raw-tx', '--url', url, '--out', join(out, 'k6')]],
  ])('%s: Ctrl-C in the funding wait stops it at once, exit 130, and leaves no file behind', async (name, args) => {
    const n = await slowNode(`slow-${name.replace(' ', '-')}`);
    const out = mkdtempSync(join(dir, 'out-'));
    const load = startLoad(args(n.url, out));
    await load.waitFor(/funding|signing a corpus/);
    await new Promise((r) => setTimeout(r, 500));
    const sentAt = Date.now();
    load.child.kill('SIGINT');
    expect(await load.exit(), load.stderr()).toBe(130);
    expect(Date.now() - sentAt).toBeLessThan(5_000);
    expect(load.stderr()).toContain(`chainrpc: ${name}: interrupted: no`);
    // Not the corpus, not the k6 folder, not a temporary file.
    expect(readdirSync(out)).toEqual([]);
  }, 60_000);

  it('a node that dies mid-run: the report says when and how, exit 1, and the figures before it are kept', async () => {
    const n = await node('dies');
    const load = startLoad(['reads', '--url', n.url, '--rate', '40', '--duration', '60s', '--warmup', '200ms', '--report-dir', join(dir, 'reports-dies')]);
    await load.waitFor(A_SECOND_IN);
    n.process.kill('SIGKILL');
    expect(await load.exit()).toBe(1);
    const report = reportOf(load.stdout());
    const [run] = report.runs;
    expect(run?.stop.reason).toBe('target-unreachable');
    expect(run?.stop.atMs).toBeGreaterThan(900);
    expect(run?.stop.atMs).toBeLessThan(20_000);
    expect(run?.stop.message).toMatch(/ECONNREFUSED|ECONNRESET|closed/);
    expect(run?.valid).toBe(false);
    expect(run?.methods.reduce((k, m) => k + m.ok, 0)).toBeGreaterThan(20);
    expect(report.verdict.summary).toMatch(/stopped answering \d+\.\d s into the run/);
    expect(readFileSync(join(dir, 'reports-dies', 'latest', 'report.html'), 'utf8')).toContain('stopped: the node could not be reached');
  }, 60_000);
});

describe('chainrpc load: the generator thread', () => {
  it('starts under node options a worker thread refuses (V8\'s, as given for long runs): the run is made and reported', async () => {
    const n = await node('v8-options');
    const load = startLoad(['reads', '--url', n.url, '--rate', '20', '--duration', '1s', '--warmup', '0s', '--report-dir', join(dir, 'reports-v8')], ['--max-old-space-size=512', '--stack-size=2000']);
    // 0, or 1 when this lane's busy cores made the generator late (NOT TRUSTED): what matters is that it ran.
    expect([0, 1], load.stderr()).toContain(await load.exit());
    expect(load.stderr()).not.toMatch(/ERR_WORKER_INVALID_EXEC_ARGV|internal error/);
    expect(reportOf(load.stdout()).runs[0]?.schedule.sent).toBe(20);
  }, 60_000);

  it('one that cannot start ends the command with its error, and nothing (the inclusion tracker) keeps the process alive', async () => {
    const n = await node('no-thread');
    // An --import that fails in worker threads only: setup (funding, the corpus, the tracker) runs, the generator cannot.
    const hook = `data:text/javascript,${encodeURIComponent("import { isMainThread } from 'node:worker_threads'; if (!isMainThread) throw new Error('no thread for you');")}`;
    const load = startLoad(['send-raw-tx', '--url', n.url, '--rate', '20', '--duration', '1s', '--warmup', '0s', '--report-dir', join(dir, 'reports-no-thread')], ['--import', hook]);
    const ended = await Promise.race([load.exit(), new Promise<'hung'>((r) => setTimeout(() => r('hung'), 30_000))]);
    expect(ended, `still running 30 s later; stderr: ${load.stderr()}`).not.toBe('hung');
    expect(ended).toBe(4);
    expect(load.stderr()).toMatch(/no thread for you|worker thread exited/);
  }, 60_000);
});

const k6 = findK6();
if (k6 === undefined) console.warn(`test/cli-load.test.ts (k6 recipes) ${K6_SKIP_NOTE}`);

describe('chainrpc load k6 and load merge', () => {
  it('a scenario k6 cannot express is refused before any node is touched, naming the feature (exit 2)', async () => {
    const file = join(dir, 'poisson.json');
    writeFileSync(file, JSON.stringify({ name: 'p', arrivals: { model: 'open', rate: 10, distribution: 'poisson' }, duration: '5s', mix: [{ method: 'chain_blockNumber' }] }));
    const r = await runChainrpc('load', 'k6', file, '--url', 'http://127.0.0.1:9', '--out', join(dir, 'k6-poisson'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/k6 cannot run this scenario: Poisson arrivals/);
    expect(existsSync(join(dir, 'k6-poisson'))).toBe(false);
  });

  it('transactions in batches are refused before any node is touched (exit 2); a node that does not answer (exit 3) leaves no folder', async () => {
    // Before: the batch size was refused only once a whole corpus had been funded and signed, left in --out/.work.
    const batched = await runChainrpc('load', 'k6', 'send-raw-tx', '--url', 'http://127.0.0.1:9', '--batch-size', '4', '--out', join(dir, 'k6-batched'));
    expect(batched.code, batched.stderr).toBe(2);
    expect(batched.stderr).toMatch(/k6 cannot run this scenario: transactions in batches/);
    expect(existsSync(join(dir, 'k6-batched'))).toBe(false);
    // Before: .chainrpc-owned and an empty .work were left.
    const gone = await runChainrpc('load', 'k6', 'reads', '--url', 'http://127.0.0.1:9', '--out', join(dir, 'k6-gone', 'test'));
    expect(gone.code, gone.stderr).toBe(3);
    expect(existsSync(join(dir, 'k6-gone'))).toBe(false);
  });

  it('a summary from another tool or version is refused by merge with what it is and what is expected (exit 2)', async () => {
    const k6Export = join(dir, 'k6-export.json');
    writeFileSync(k6Export, JSON.stringify({ root_group: {}, metrics: { http_reqs: { count: 10, rate: 5 } } }));
    const other = await runChainrpc('load', 'merge', k6Export, '--report-dir', join(dir, 'reports-merge'));
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/chainrpc k6 summary/);
    const newer = join(dir, 'newer.json');
    writeFileSync(newer, JSON.stringify({ format: 'chainrpc-k6-summary/3' }));
    const r = await runChainrpc('load', 'merge', newer, '--report-dir', join(dir, 'reports-merge'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/chainrpc-k6-summary\/3/);
    expect(existsSync(join(dir, 'reports-merge'))).toBe(false);
  });

  it.skipIf(k6 === undefined)('the recipe as printed: write a send-raw-tx test, run the 2 segment commands, merge into one report (exit 0)', async () => {
    const n = await node('k6-recipe');
    const out = join(dir, 'k6-recipe');
    const made = await runChainrpc('load', 'k6', 'send-raw-tx', '--url', n.url, '--out', out, '--rate', '20', '--duration', '2s', '--warmup', '500ms', '--segments', '2', '--operator', 'tx-test');
    expect(made.code, made.stderr).toBe(0);
    expect(existsSync(join(out, 'testrun.yaml'))).toBe(true);
    expect(made.stdout).toContain('not judged by k6 (only the Node engine measures them): inclusion >= 99%');
    const commands = made.stdout.split('\n').filter((l) => l.includes(' k6 run '));
    expect(commands).toHaveLength(2);
    // Each instance reads only its share of the senders.
    expect(commands.map((c) => /CHAINRPC_CORPUS=(\S+)/.exec(c)?.[1])).toEqual(['corpus-0-of-2.json', 'corpus-1-of-2.json']);
    const runs = await Promise.all(
      commands.map((line) => {
        const args = line.slice(line.indexOf(' k6 run ') + ' k6 run '.length).trim().split(/\s+/);
        return runK6(k6 ?? 'k6', args, out);
      }),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const summaries = readdirSync(out).filter((f) => f.startsWith('chainrpc-summary')).map((f) => join(out, f));
    expect(summaries).toHaveLength(2);
    const merged = await runChainrpc('load', 'merge', ...summaries, '--report-dir', join(dir, 'reports-k6'));
    expect(merged.code, merged.stderr).toBe(0);
    const report = reportOf(merged.stdout);
    const [run] = report.runs;
    expect(run?.schedule.sent).toBeGreaterThanOrEqual(38);
    expect(run?.methods.every((m) => m.ok === m.calls)).toBe(true);
    expect(report.verdict.exitCode).toBe(0);
  }, 60_000);
});

