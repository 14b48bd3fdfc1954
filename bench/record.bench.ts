/**
 * `npm run bench:record`: what `chainrpc record`'s proxy adds to an exchange (issue 26: well under a millisecond).
 * A reference node in its own process (the build, `chainrpc node`), the proxy of the build in this process with
 * its capture on disk; rounds of N sequential calls straight to the node and N through the proxy, in
 * alternation (the same client: one kept connection, exact bytes), each call's time from its send to its last
 * byte. The figure is the difference of the medians (and of the p99s) of the two, with the spread of the rounds.
 *
 * Options: --calls N (per side per round, default 2,000), --rounds N (default 5).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type * as ExactHttpPoolModule from '../core/client/ExactHttpPool.js';
import type * as captureFormatModule from '../load/capture/captureFormat.js';
import type * as CaptureWriterModule from '../load/capture/CaptureWriter.js';
import type * as RecordingProxyModule from '../load/capture/RecordingProxy.js';
import type * as startDevnetModule from '../reference-node/devnet/startDevnet.js';
import { fromBuild } from './fromBuild.js';

const { ExactHttpPool } = await fromBuild<typeof ExactHttpPoolModule>('core/client/ExactHttpPool.js');
const { CAPTURE_FORMAT } = await fromBuild<typeof captureFormatModule>('load/capture/captureFormat.js');
const { CaptureWriter } = await fromBuild<typeof CaptureWriterModule>('load/capture/CaptureWriter.js');
const { RecordingProxy } = await fromBuild<typeof RecordingProxyModule>('load/capture/RecordingProxy.js');
const { spawnNode } = await fromBuild<typeof startDevnetModule>('reference-node/devnet/startDevnet.js');

const { values } = parseArgs({ options: { calls: { type: 'string' }, rounds: { type: 'string' } } });
const CALLS = Number(values.calls ?? 2_000);
const ROUNDS = Number(values.rounds ?? 5);

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-record-bench-'));
const { url, process: child } = await spawnNode(['--port', '0', '--p2p-port', '0', '--data-dir', join(dir, 'node'), '--block-time', '1000'], join(dir, 'node.log'));
const writer = new CaptureWriter(join(dir, 'capture.ndjson'), { format: CAPTURE_FORMAT, startedAt: new Date().toISOString(), upstream: url, answers: true, tool: { name: 'chainrpc', version: 'bench' } }, { maxBytes: 1024 ** 3 });
const proxy = await RecordingProxy.start({ upstream: url, host: '127.0.0.1', port: 0, writer, answers: true, maxBodyBytes: 64 * 1024 * 1024, timeoutMs: 10_000, originMs: performance.now() });
const body = Buffer.from('{"jsonrpc":"2.0","method":"chain_getBlockByHeight","params":[0],"id":1}');

/** N sequential calls to `origin`; each one's time, ms. */
async function times(origin: string): Promise<number[]> {
  const pool = new ExactHttpPool(origin, { maxIdle: 1 });
  const out: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await pool.send({ method: 'POST', path: '/rpc', headers: { 'content-type': 'application/json' }, body, timeoutMs: 10_000, maxBodyBytes: 1024 * 1024 });
    out.push(performance.now() - t0);
  }
  pool.close();
  return out;
}

const q = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
const us = (ms: number): string => `${Math.round(ms * 1_000)} µs`;

console.log(`chainrpc record's proxy: ${CALLS.toLocaleString('en-US')} sequential calls per side, ${ROUNDS} rounds; node v${process.versions.node}, ${new Date().toISOString()}\n`);
try {
  await times(url);
  await times(proxy.url);
  const added: { p50: number; p99: number }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const direct = await times(url);
    const through = await times(proxy.url);
    added.push({ p50: q(through, 0.5) - q(direct, 0.5), p99: q(through, 0.99) - q(direct, 0.99) });
    console.log(`  round ${round}: direct p50 ${us(q(direct, 0.5))} p99 ${us(q(direct, 0.99))}; through the proxy p50 ${us(q(through, 0.5))} p99 ${us(q(through, 0.99))}; added p50 ${us(added.at(-1)?.p50 ?? 0)}`);
  }
  const p50s = added.map((a) => a.p50);
  console.log(`\n  added by the proxy, p50 (median of the rounds)   ${us(q(p50s, 0.5))}   (rounds ${us(Math.min(...p50s))} to ${us(Math.max(...p50s))})`);
  console.log(`  added by the proxy, p99 (median of the rounds)   ${us(q(added.map((a) => a.p99), 0.5))}`);
  console.log(`  exchanges recorded                               ${writer.exchanges.toLocaleString('en-US')}`);
} finally {
  await proxy.close();
  writer.close('duration');
  child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
