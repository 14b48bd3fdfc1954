/**
 * Corpus signing benchmark (not a test): how fast `chainrpc load corpus` pre-signs transfers, with 1
 * signing thread and with 2, goal >= 20,000 transactions/s with every core (docs/load-transactions.md).
 * Run: npx tsx bench/corpus.bench.ts [--senders N] [--per-sender M] [--rounds R] [--dist]
 * Each round signs and writes the whole corpus (N x M transfers, default 100 x 300) once with 1 thread and
 * once with 2, alternating (a noisy neighbour slows both alike); the medians are reported. Timed from the
 * header's write to the file in place (signing, the writes, the fsync), with the signing threads started
 * and ready, as `chainrpc load corpus` has them after funding (they start before it); their start is
 * reported apart. No node: funding is not timed (it waits for blocks).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CORPUS_FORMAT } from '../load/corpus/Corpus.js';
import type { Corpus } from '../load/corpus/Corpus.js';
import { readCorpus } from '../load/corpus/readCorpus.js';
import { referenceCodec } from '../profile/referenceCodec.js';
import { deriveKey, KEY_DERIVATION } from '../load/corpus/deriveKey.js';
import type { SignJob } from '../load/corpus/signLanes.js';
import type * as PoolModule from '../load/corpus/SigningPool.js';
import type * as WriteModule from '../load/corpus/writeCorpus.js';
import { packageRoot } from '../core/paths.js';

const GOAL = 20_000;
const { values } = parseArgs({
  options: { senders: { type: 'string', default: '100' }, 'per-sender': { type: 'string', default: '300' }, rounds: { type: 'string', default: '5' }, dist: { type: 'boolean', default: false } },
});
// --dist: the compiled build users run (npx tsc -p tsconfig.build.json first); its threads start without tsx.
const from = (file: string): string => (values.dist ? pathToFileURL(join(packageRoot, 'dist', 'load', 'corpus', `${file}.js`)).href : `../load/corpus/${file}.js`);
const { SigningPool: Pool } = (await import(from('SigningPool'))) as typeof PoolModule;
type SigningPool = PoolModule.SigningPool;
const { writeCorpus } = (await import(from('writeCorpus'))) as typeof WriteModule;
const senders = Number(values.senders);
const perSender = Number(values['per-sender']);
const rounds = Number(values.rounds);
if (![senders, perSender, rounds].every((n) => Number.isSafeInteger(n) && n > 0)) {
  console.error('usage: npx tsx bench/corpus.bench.ts [--senders N] [--per-sender M] [--rounds R] [--dist]   (positive integers)');
  process.exit(2);
}

const seed = 'bench-corpus';
const recipients = Array.from({ length: 16 }, (_, k) => referenceCodec.addressOf(deriveKey(seed, 'recipient', k)));
const job: SignJob = { seed, chainId: '1', value: '1', fee: '1000000000000000', recipients, lanes: Array.from({ length: senders }, (_, index) => ({ index, firstNonce: 0, count: perSender })) };
const header: Omit<Corpus, 'senders'> = {
  format: CORPUS_FORMAT,
  createdAt: new Date().toISOString(),
  tool: { name: 'chainrpc', version: 'bench' },
  warning: 'benchmark corpus',
  chainId: '1',
  codec: referenceCodec.name,
  profile: 'reference',
  method: 'chain_sendRawTransaction',
  keys: { derivation: KEY_DERIVATION, seedSha256: '0'.repeat(64) },
  value: '1',
  fee: '1000000000000000',
  recipients,
};
const transactions = senders * perSender;
const pools: SigningPool[] = [];
const dir = mkdtempSync(join(tmpdir(), 'chainrpc-corpus-bench-'));

/** Transactions/s of one corpus written by the pool (its threads started and ready, as after funding). */
async function once(pool: SigningPool): Promise<number> {
  const written = await writeCorpus({ out: join(dir, `t${pool.size}.json`), header, job, signer: pool });
  return transactions / (written.ms / 1000);
}

/** Milliseconds from starting a pool to every thread ready: what funding hides in `chainrpc load corpus`. */
async function startPool(threads: number): Promise<{ pool: SigningPool; ms: number }> {
  const t0 = performance.now();
  const pool = Pool.start({ kind: 'reference' }, threads);
  await pool.ready();
  return { pool, ms: performance.now() - t0 };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

try {
  console.log(`corpus signing: ${senders} senders x ${perSender} = ${transactions} transfers a run, ${rounds} rounds, 1 and 2 threads alternating`);
  console.log(`machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`);
  const p1 = await startPool(1);
  const p2 = await startPool(2);
  pools.push(p1.pool, p2.pool);
  await once(p2.pool); // warm-up: JIT, the page cache
  await once(p1.pool);
  const one: number[] = [];
  const two: number[] = [];
  for (let r = 0; r < rounds; r++) {
    one.push(await once(p1.pool));
    two.push(await once(p2.pool));
  }
  // The file is a valid corpus; reading it back (each engine thread does) is timed apart.
  const readStart = performance.now();
  const corpus = readCorpus(join(dir, 't2.json'));
  const readMs = performance.now() - readStart;
  if (corpus.senders.length !== senders || corpus.senders.some((l) => l.txs.length !== perSender)) throw new Error('the benchmark corpus is not whole');
  const m1 = median(one);
  const m2 = median(two);
  const row = (name: string, v: number): string => `${name.padEnd(34)} ${Math.round(v).toLocaleString('en-US').padStart(8)} tx/s`;
  console.log(row('1 thread (median)', m1));
  console.log(row('2 threads (median)', m2));
  console.log(`speed-up 2 threads / 1 thread      ${(m2 / m1).toFixed(2)}x`);
  console.log(`readCorpus (parse + schema + lane rules) ${Math.round(readMs)} ms for ${transactions} transactions`);
  console.log(`thread start (hidden behind funding) 1: ${Math.round(p1.ms)} ms, 2: ${Math.round(p2.ms)} ms (${values.dist ? 'compiled, dist/' : 'from sources, through tsx'})`);
  console.log(`against the goal (${GOAL.toLocaleString('en-US')} tx/s, 2 threads) ${(m2 / GOAL).toFixed(2)}x ${m2 >= GOAL ? 'MET' : 'NOT MET'}`);
} finally {
  await Promise.all(pools.map((p) => p.close()));
  rmSync(dir, { recursive: true, force: true });
}
