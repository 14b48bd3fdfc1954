/**
 * The chainrpc binary as users run it: a real process from dist/ (npm test builds it first),
 * talking to a real loopback HTTP server where it talks to a node.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './support/startTestServer.js';
import type { TestServer } from './support/startTestServer.js';
import { parseJson } from '../core/json/index.js';
import { packageRoot } from '../core/paths.js';
import { COMMANDS } from '../cli/commandList.js';
import { CHAINRPC_BIN, isRunning, runChainrpc, runChainrpcIn, startChainrpc } from './runChainrpc.js';
import type { LongRun } from './runChainrpc.js';
import { startTestNode } from './support/suites.js';
import { catalogue } from '../suites/catalogue.js';
import { startVaryingNode } from './support/varyingNode.js';

const BIN = CHAINRPC_BIN;
const vectors = JSON.parse(readFileSync(join(packageRoot, 'core/codec/tx-vectors.json'), 'utf8')) as {
  vectors: { privateKey: string; address: string; seed: string; tx: { chainId: string; to: string; value: string; nonce: string; fee: string }; wire: string; hash: string }[];
};

const chainrpc = runChainrpc;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npm run build (npm test does it first)`);
});

describe('chainrpc', () => {
  it('--help lists every command and the exit codes', async () => {
    const r = await chainrpc('--help');
    expect(r.code).toBe(0);
    for (const c of ['test', 'profile', 'replay', 'node', 'devnet', 'call', 'methods', 'tx', 'keygen']) expect(r.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect(r.stdout).toContain('3 target unreachable');
  });

  it.each([['load', 'list'], ['methods'], ['test', '--list']])('%s %s to a reader that goes away at once (| head -1): its true exit code, no stack trace', async (...args) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('an unknown command or option is a usage error (exit 2)', async () => {
    expect((await chainrpc('frobnicate')).code).toBe(2);
    const r = await chainrpc('keygen', '--bogus');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Unknown option '--bogus'");
  });

  it('bad usage of any command is one line naming the command and the option, exit 2', async () => {
    const cases: [string[], string][] = [
      [['test', '--url'], 'chainrpc: test: --url needs a value: --url <base-url>\n'],
      [['test', '--url', 'http://127.0.0.1:1', '--concurrency', 'x'], 'chainrpc: test: --concurrency must be a positive integer; got "x"\n'],
      [['test', '--url', 'http://127.0.0.1:1', '--timeout', '-5'], 'chainrpc: test: --timeout needs a value: --timeout <ms> ("-5" is taken for an option; write --timeout=-5 for a value that starts with -)\n'],
      [['node', '--port', '70000'], 'chainrpc: node: --port must be an integer from 0 to 65535; got "70000"\n'],
      [['devnet', '--mn', '0'], 'chainrpc: devnet: --mn must be an integer from 1 to 32; got "0"\n'],
      [['call', '--timeout', '5'], 'chainrpc: call: --url is required: --url <base-url> (see chainrpc call --help)\n'],
      [['tx', 'decode', '--bogus'], "chainrpc: tx decode: Unknown option '--bogus' (see chainrpc tx decode --help)\n"],
      [['methods', '--json=yes'], 'chainrpc: methods: --json takes no value; got --json=yes\n'],
      [['keygen', 'stray'], 'chainrpc: keygen: unexpected argument "stray": keygen takes only options (see chainrpc keygen --help)\n'],
    ];
    for (const [args, stderr] of cases) {
      const r = await chainrpc(...args);
      expect({ args, code: r.code, stderr: r.stderr, stdout: r.stdout }).toEqual({ args, code: 2, stderr, stdout: '' });
    }
  });

  it('--help wins over everything else on the line, and prints the command\'s help', async () => {
    const r = await chainrpc('test', '--url', '--bogus', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: chainrpc test --url <base-url>/);
  });

  it('tx sign reproduces the committed test vector exactly', async () => {
    const v = vectors.vectors[0];
    if (!v) throw new Error('no vectors');
    const r = await chainrpc('tx', 'sign', '--key', v.privateKey, '--to', v.tx.to, '--value', v.tx.value, '--nonce', v.tx.nonce, '--fee', v.tx.fee, '--chain-id', v.tx.chainId);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ hash: v.hash, wire: v.wire, sender: v.address });
  });

  it('tx decode verifies strictly: a changed signature byte exits 1, bad hex exits 2', async () => {
    const v = vectors.vectors[0];
    if (!v) throw new Error('no vectors');
    const ok = await chainrpc('tx', 'decode', v.wire);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ signature_valid: true, value_tokens: '1.5', fee_tokens: '0.001' });
    const i = v.wire.length - 10;
    const tampered = v.wire.slice(0, i) + (v.wire[i] === '0' ? '1' : '0') + v.wire.slice(i + 1);
    const bad = await chainrpc('tx', 'decode', tampered);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ signature_valid: false });
    const odd = await chainrpc('tx', 'decode', v.wire.slice(1));
    expect(odd.code).toBe(2);
    expect(odd.stderr).toContain('odd length');
  });

  it('keygen --seed is reproducible and matches the vectors', async () => {
    const v = vectors.vectors[0];
    if (!v) throw new Error('no vectors');
    const r = await chainrpc('keygen', '--seed', v.seed);
    expect(JSON.parse(r.stdout)).toEqual({ private_key: v.privateKey, address: v.address });
  });

  it('call prints the result exactly (bigints too), exits 1 on a JSON-RPC error, 3 when unreachable', async () => {
    server = await startTestServer((req, res) => {
      const body = parseJson(req.body.toString()) as { id: number; method: string; params: unknown[] };
      res.setHeader('content-type', 'application/json');
      if (body.method === 'chain_getBlockByHeight' && body.params[0] === 12) {
        res.end(`{"jsonrpc":"2.0","id":${body.id},"result":{"height":12,"big":18446744073709551615}}`);
      } else {
        res.end(`{"jsonrpc":"2.0","id":${body.id},"error":{"code":-32601,"message":"Method not found"}}`);
      }
    });
    const ok = await chainrpc('call', '--url', server.url, 'chain_getBlockByHeight', '12');
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim()).toBe('{"height":12,"big":18446744073709551615}');
    const err = await chainrpc('call', '--url', server.url, 'nope');
    expect(err.code).toBe(1);
    expect(err.stderr).toContain('"code":-32601');
    const url = server.url;
    await server.close();
    server = undefined;
    const down = await chainrpc('call', '--url', url, 'chain_health');
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('Could not reach');
  });
});

describe('help pages', () => {
  // The built binary, as a user runs it (many processes: here, not in the unit lane).
  it('chainrpc <command> <subcommand> --help prints the subcommand\'s own help, and <command> --help the command\'s page', async () => {
    const commands = await Promise.all(COMMANDS.map((entry) => entry.load()));
    const asked = commands.flatMap((c) => [{ args: [c.name, '--help'], help: c.help }, ...(c.subcommands ?? []).map((s) => ({ args: [c.name, s.name, '--help'], help: s.help }))]);
    expect(asked.map((a) => a.args.join(' '))).toEqual(expect.arrayContaining(['load k6 --help', 'load merge --help', 'profile detect --help', 'tx sign --help']));
    const printed = await Promise.all(asked.map(async (a) => ({ args: a.args.join(' '), stdout: (await runChainrpc(...a.args)).stdout })));
    expect(printed).toEqual(asked.map((a) => ({ args: a.args.join(' '), stdout: `${a.help}\n` })));
  }, 60_000);

});

describe('chainrpc node and devnet', () => {
  it('node prints its JSON-RPC URL, then its peer URL, serves, and stops cleanly on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-node-'));
    try {
      const run = startChainrpc(['node', '--port', '0', '--p2p-port', '0', '--data-dir', dir, '--block-time', '100']);
      const url = await run.waitFor(/^http:/);
      expect(run.stdout().split('\n')[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const p2p = await run.waitFor(/^http:/, { ms: 10_000, skip: 1 });
      expect(p2p).not.toBe(url);
      // The peer protocol is on its own port; the JSON-RPC port does not serve it.
      expect((await fetch(`${url}/p2p/blocks?from=0`)).status).toBe(404);
      expect((await fetch(`${p2p}/p2p/blocks?from=0`)).status).toBe(200);
      const health = await chainrpc('call', '--url', url, 'chain_health');
      expect(JSON.parse(health.stdout)).toEqual({ status: 'ok', mode: 'MN', chain_id: 1 });
      run.child.kill('SIGTERM');
      const code = await new Promise((r) => run.child.once('exit', r));
      expect(code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('node --show-id prints the node id (making the key once), what a genesis names; an LN without a genesis is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-id-'));
    try {
      const first = await chainrpc('node', '--show-id', '--data-dir', dir);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/^[0-9a-f]{64}\n$/);
      expect((await chainrpc('node', '--show-id', '--data-dir', dir)).stdout).toBe(first.stdout);
      expect(statSync(join(dir, 'node-key')).mode & 0o777).toBe(0o600);
      const ln = await chainrpc('node', '--kind', 'LN', '--port', '0', '--p2p-port', '0', '--data-dir', join(dir, 'ln'));
      expect(ln.code).toBe(2);
      expect(ln.stderr).toContain('an LN follows a network and needs its genesis');
      expect(ln.stderr).toContain('--genesis FILE');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a genesis fixes its network\'s block time: a node started without --block-time runs at it, one given another is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-blocktime-'));
    const stop = async (run: LongRun): Promise<void> => {
      run.child.kill('SIGTERM');
      await new Promise((r) => run.child.once('exit', r));
    };
    try {
      // A lone MN with 100 ms blocks: its own network, whose genesis (with the block time) it writes to its data dir.
      const first = startChainrpc(['node', '--port', '0', '--p2p-port', '0', '--data-dir', dir, '--block-time', '100']);
      await first.waitFor(/^http:/);
      await stop(first);
      const genesis = join(dir, 'genesis.json');
      expect(JSON.parse(readFileSync(genesis, 'utf8'))).toMatchObject({ format: 'chainrpc-genesis/2', block_time_ms: 100 });
      // Started again without --block-time: blocks 100 ms apart, not the default 1000.
      const again = startChainrpc(['node', '--port', '0', '--p2p-port', '0', '--data-dir', dir]);
      try {
        const url = await again.waitFor(/^http:/);
        const at = async (height: number): Promise<number> => {
          for (let tries = 0; tries < 100; tries++) {
            const r = await chainrpc('call', '--url', url, 'chain_getBlockByHeight', String(height));
            if (r.code === 0) return Number((JSON.parse(r.stdout) as { timestamp: number }).timestamp);
            await new Promise((w) => setTimeout(w, 100));
          }
          throw new Error(`no block ${height}`);
        };
        const height = Number((await chainrpc('call', '--url', url, 'chain_blockNumber')).stdout);
        const gap = (await at(height + 3)) - (await at(height + 2));
        expect(gap).toBeGreaterThanOrEqual(50);
        expect(gap).toBeLessThan(500);
      } finally {
        await stop(again);
      }
      // Given another block time: refused, naming the network's; so is an LN given the genesis with another.
      const other = await chainrpc('node', '--port', '0', '--p2p-port', '0', '--data-dir', dir, '--block-time', '250');
      expect(other.code).toBe(2);
      expect(other.stderr).toContain("the network's block time is 100 ms");
      expect(other.stderr).toContain('give --block-time 100, or leave --block-time out');
      const ln = await chainrpc('node', '--kind', 'LN', '--port', '0', '--p2p-port', '0', '--data-dir', join(dir, 'ln'), '--genesis', genesis, '--block-time', '1000');
      expect(ln.code).toBe(2);
      expect(ln.stderr).toContain("the network's block time is 100 ms (its genesis)");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('node refuses bad settings, a busy port and a locked store with exit 2 and a clear message', async () => {
    expect((await chainrpc('node', '--kind', 'XN')).code).toBe(2);
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-busy-'));
    const run = startChainrpc(['node', '--port', '0', '--p2p-port', '0', '--data-dir', dir, '--block-time', '100']);
    try {
      const url = await run.waitFor(/^http:/);
      const busy = await chainrpc('node', '--port', new URL(url).port, '--p2p-port', '0', '--data-dir', join(dir, 'other'));
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain('pick another --port');
      const locked = await chainrpc('node', '--port', '0', '--p2p-port', '0', '--data-dir', dir);
      expect(locked.code).toBe(2);
      expect(locked.stderr).toMatch(/in use|lock/i);
    } finally {
      run.child.kill('SIGTERM');
      await new Promise((r) => run.child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await chainrpc('node', '--peers', 'not a url')).code).toBe(2);
    expect((await chainrpc('devnet', '--mn', '0')).code).toBe(2);
    const unknownFault = await chainrpc('devnet', '--fault', 'no-such-fault');
    expect(unknownFault.code).toBe(2);
    expect(unknownFault.stderr).toContain('unknown fault "no-such-fault"');
    const unknownNode = await chainrpc('devnet', '--mn', '1', '--ln', '0', '--fault', 'ln1:no-relay');
    expect(unknownNode.code).toBe(2);
    expect(unknownNode.stderr).toContain('names no node of this devnet: ln1 (nodes: mn1)');
  });

  it('devnet prints the table (faults included), and Ctrl-C (SIGINT) stops every node it started', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-devnet-'));
    try {
      // One faulty node (TEST-ONLY): its net_peerCount answers one too many.
      const run = startChainrpc(['devnet', '--mn', '2', '--ln', '1', '--block-time', '200', '--data-dir', dir, '--fault', 'ln1:peer-count-off']);
      await run.waitFor(/^devnet ready/, { ms: 60_000 });
      const rows = run.stdout().split('\n').filter((l) => /^(mn|ln)\d+ /.test(l)).map((l) => l.split(/\s+/));
      expect(rows.map((r) => r[1])).toEqual(['MN', 'MN', 'LN']);
      expect(rows.map((r) => r[5])).toEqual(['-', '-', 'peer-count-off']);
      // Every node has a peer URL of its own, apart from its JSON-RPC URL.
      for (const r of rows) expect(r[3]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      for (const r of rows) expect(r[3]).not.toBe(r[2]);
      const pids = rows.map((r) => Number(r[4]));
      for (const pid of pids) expect(isRunning(pid)).toBe(true);
      const peerCounts = await Promise.all(rows.map((r) => chainrpc('call', '--url', r[2] ?? '', 'net_peerCount')));
      expect(peerCounts.map((c) => c.stdout.trim())).toEqual(['2', '2', '3']);
      run.child.kill('SIGINT');
      expect(await new Promise((r) => run.child.once('exit', r))).toBe(0);
      for (const pid of pids) expect(isRunning(pid), `node pid ${pid} still running`).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('chainrpc test and replay against a faulty node', () => {
  it('exits 1 with the failing check and a curl command; a baseline excuses it (exit 0); replay shows the answer now', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-test-'));
    const run = startChainrpc(['node', '--port', '0', '--p2p-port', '0', '--data-dir', join(dir, 'node'), '--block-time', '100', '--fault', 'empty-batch-array']);
    try {
      const url = await run.waitFor(/^http:/);
      const reports = join(dir, 'reports');
      const failed = await chainrpc('test', '--url', url, '--only', 'transport/*', '--block-time', '100', '--report-dir', reports);
      expect(failed.code, failed.stdout.slice(-1500)).toBe(1);
      expect(failed.stdout).toMatch(/FAIL\s+MUST\s+transport\/empty-batch/);
      expect(failed.stdout).toContain("reproduce: curl -sS -X POST '" + url + "/rpc'");
      expect(failed.stdout).toMatch(/FAILED at gate MUST/);
      for (const f of ['report.json', 'junit.xml', 'summary.md', 'report.html', 'transcript.ndjson']) expect(existsSync(join(reports, 'latest', f)), f).toBe(true);

      const replayed = await chainrpc('replay', 'transport/empty-batch', '--report', join(reports, 'latest', 'report.json'));
      expect(replayed.code).toBe(0);
      expect(replayed.stdout).toContain('< HTTP 200');
      expect(replayed.stdout).toMatch(/<\n\[\]/);

      const baseline = join(dir, 'baseline.json');
      writeFileSync(baseline, JSON.stringify({ expectedFailures: [{ id: 'transport/empty-batch', reason: 'known, fix planned' }] }));
      const excused = await chainrpc('test', '--url', url, '--only', 'transport/*', '--block-time', '100', '--report-dir', reports, '--baseline', baseline);
      expect(excused.code, excused.stdout.slice(-1500)).toBe(0);
      expect(excused.stdout).toContain('[baseline: expected-fail]');
    } finally {
      run.child.kill('SIGTERM');
      await new Promise((r) => run.child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('Ctrl-C stops the run and writes the report of what ran: exit 130, INTERRUPTED, the checks it stopped errors saying so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-int-'));
    // Blocks every 2 s: the state checks wait for them, so the run is still going when Ctrl-C comes.
    const node = startChainrpc(['node', '--port', '0', '--p2p-port', '0', '--data-dir', join(dir, 'node'), '--block-time', '2000']);
    try {
      const url = await node.waitFor(/^http:/);
      const reports = join(dir, 'reports');
      const run = startChainrpc(['test', '--url', url, '--block-time', '2000', '--report-dir', reports]);
      await run.waitFor(/^PASS /);
      run.child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => run.child.once('exit', resolve));
      await run.closed(5_000);
      expect(code, run.stderr()).toBe(130);
      expect(run.stderr()).toContain('test: interrupted: stopping the checks, then writing the report of what ran');
      expect(run.stdout()).toMatch(/INTERRUPTED at gate MUST: the run was interrupted \(Ctrl-C\): \d+ check result\(s\) without a verdict/);
      const report = JSON.parse(readFileSync(join(reports, 'latest', 'report.json'), 'utf8')) as { interrupted?: boolean; summary: { exitCode: number; passed: boolean }; results: { status: string; evidence: { message: string } }[] };
      expect(report.interrupted).toBe(true);
      expect(report.summary).toMatchObject({ exitCode: 130, passed: false });
      // What ended before keeps its verdict; what the interruption stopped says so, and nothing else is an error.
      expect(report.results.some((r) => r.status === 'pass')).toBe(true);
      const stopped = report.results.filter((r) => r.status === 'error');
      expect(stopped.length).toBeGreaterThan(0);
      expect(stopped.filter((r) => !r.evidence.message.startsWith('the run was interrupted (Ctrl-C)')).map((r) => r.evidence.message)).toEqual([]);
      expect(readFileSync(join(reports, 'latest', 'summary.md'), 'utf8')).toContain('INTERRUPTED at gate MUST');
    } finally {
      node.child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('replay reads only the report of a test run, whatever the latest folder holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-other-'));
    try {
      const other = join(dir, 'report.json');
      writeFileSync(other, JSON.stringify({ format: 'chainrpc-load/2', scenarios: [] }));
      const r = await chainrpc('replay', 'transport/empty-batch', '--report', other);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`chainrpc: replay: ${other} is not the report of a chainrpc test run (format "chainrpc-load/2"); give --report <report.json>\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad test options with exit 2', async () => {
    expect((await chainrpc('test')).code).toBe(2);
    expect((await chainrpc('test', '--url', 'nope')).code).toBe(2);
    expect((await chainrpc('test', '--url', 'http://127.0.0.1:1', '--level', 'maybe')).code).toBe(2);
    expect((await chainrpc('test', '--url', 'http://127.0.0.1:1', '--only', 'no-such-check/*')).code).toBe(2);
    const list = await chainrpc('test', '--list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/MUST\s+transport\/empty-batch/);
  });
});

describe('chainrpc test guides a first run', () => {
  it('a --url where nothing answers JSON-RPC at the endpoint: exit 3, one line for the identical errors with their count, and a hint', async () => {
    const node = await startTestNode();
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-first-'));
    try {
      // Under /api, the reference node serves nothing (it answers 404 with an id-null error object).
      const r = await chainrpc('test', '--url', `${node.url}/api`, '--block-time', '100', '--report-dir', dir);
      expect(r.code, r.stdout.slice(-2000)).toBe(3);
      // While running: the error once, not once per check.
      expect(r.stdout.match(/does not answer JSON-RPC calls/g)?.length).toBeLessThanOrEqual(3);
      // Every check of one node, the same error: one line with their count.
      const perNode = catalogue().filter((c) => c.scope === 'node').length;
      expect(r.stdout).toMatch(new RegExp(`ERROR ×${perNode}: http://127\\.0\\.0\\.1:\\d+/api/rpc does not answer JSON-RPC calls \\(HTTP 404`));
      expect(r.stdout).toContain(`hint: ${node.url}/api/rpc answered (HTTP 404), but not as a JSON-RPC endpoint`);
    } finally {
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a node whose methods carry another prefix: said once, with the fix; --method-prefix then certifies it', async () => {
    const node = await startTestNode();
    const acme = await startVaryingNode(node.url, ['method-prefix']);
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-prefix-'));
    try {
      const wrong = await chainrpc('test', '--url', acme.url, '--block-time', '100', '--report-dir', dir);
      expect(wrong.code).toBe(1);
      const hints = wrong.stdout.split('\n').filter((l) => l.includes('hint: Most calls of the spec\'s methods under the prefix "chain_"'));
      expect(hints).toHaveLength(1);
      expect(hints[0]).toContain('Give --method-prefix <prefix>');
      expect(hints[0]).toContain(`chainrpc profile detect --url ${acme.url}`);
      // The state checks that could not fund a key are one hint, not a failure each.
      expect(wrong.stdout).toMatch(/hint: \d+ checks could not fund a fresh key \(chain_faucetClaim answered -32601 \(Method not found\)\)/);
      expect(wrong.stdout).not.toMatch(/FAIL.*funding a fresh key/);
      const report = JSON.parse(readFileSync(join(dir, 'latest', 'report.json'), 'utf8')) as { hints?: string[] };
      expect(report.hints?.some((h) => h.includes('--method-prefix'))).toBe(true);
      const right = await chainrpc('test', '--url', acme.url, '--block-time', '100', '--report-dir', dir, '--method-prefix', 'acme_');
      expect(right.code, right.stdout.slice(-2000)).toBe(0);
      expect(right.stdout).not.toContain('hint:');
    } finally {
      await acme.close();
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('the reproduce hints work exactly as printed: replay names its report; a request too long to keep is run again instead', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainrpc-cli-replay-'));
    const node = await startTestNode({ faults: ['batch-reversed-and-truncated'] });
    const run = async (line: string | undefined): Promise<Awaited<ReturnType<typeof chainrpc>>> => {
      const words = (line ?? '').trim().replace(/^reproduce: chainrpc /, '').split(/\s+/).map((w) => w.replace(/^'(.*)'$/, '$1'));
      // Run where a user would, in a folder of their own: a command without --report-dir writes under ./.chainrpc.
      return runChainrpcIn(dir, words);
    };
    try {
      const reports = join(dir, 'elsewhere');
      // The mixed batch is kept whole but its curl is over 300 characters: replay is printed, with the report it needs.
      const r = await chainrpc('test', '--url', node.url, '--only', 'transport/mixed-batch', '--block-time', '100', '--report-dir', reports);
      expect(r.code).toBe(1);
      const replay = r.stdout.split('\n').find((l) => l.trim().startsWith('reproduce: chainrpc replay'));
      expect(replay, r.stdout).toMatch(/--report /);
      const replayed = await run(replay);
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(replayed.stdout).toContain('transport/mixed-batch was FAIL');
      expect(replayed.stdout).toMatch(/< HTTP 200/);

      // A batch of 1000 calls is kept only in part: the hint runs the check again, with the run's own options.
      const long = await chainrpc('test', '--url', node.url, '--only', 'transport/batch-at-limit-served', '--level', 'profile', '--block-time', '100', '--report-dir', reports);
      expect(long.code).toBe(1);
      const rerun = long.stdout.split('\n').find((l) => l.trim().startsWith('reproduce: chainrpc test'));
      expect(rerun, long.stdout).toContain('--only transport/batch-at-limit-served --block-time 100 --level profile');
      const again = await run(rerun);
      expect(again.code).toBe(1);
      expect(again.stdout).toMatch(/FAIL\s+PROFILE transport\/batch-at-limit-served/);
      // And replay says why it cannot send those bytes, and what to run instead.
      const refused = await chainrpc('replay', 'transport/batch-at-limit-served', '--report', join(reports, 'latest', 'report.json'));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('keeps only the first 4 KiB');
    } finally {
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
