/**
 * `chainrpc load sweep`'s own options, refused before anything is sent (exit 2), and the search's rates (the
 * sweep's runs themselves are proven in load/sweep/runSweep.test.ts, in the timing lane).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchRates } from '../../../load/sweep/runSweep.js';
import { CliError } from '../../CliError.js';
import { sweepCommand, sweepLine } from './sweep.js';

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-load-sweep-'));
const scenario = join(dir, 'bl.json');
let server: Server;
let url: string;
/** Requests the node got: none may come before a refusal. */
let requests = 0;

beforeAll(async () => {
  writeFileSync(scenario, JSON.stringify({ name: 'bl', arrivals: { model: 'open', rate: 100 }, duration: '8s', warmup: '1s', mix: [{ method: 'chain_blockNumber' }] }));
  server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end('{"jsonrpc":"2.0","id":1,"result":7}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

/** The command's refusal: a usage error (exit 2), with the node never contacted. */
async function refusal(...args: string[]): Promise<string> {
  const before = requests;
  const error = await sweepCommand([scenario, '--url', url, '--head-hz', '0', '--report-dir', join(dir, 'reports'), ...args]).then(
    (code) => new Error(`exit ${code}, not refused`),
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(CliError);
  expect((error as CliError).kind).toBe('usage');
  expect(requests - before, 'requests the node got').toBe(0);
  return (error as CliError).message;
}

describe('load sweep: options refused before anything is sent (exit 2)', () => {
  it('a step of 0 (the tester: an internal error, exit 4, once the first step had probed the node)', async () => {
    expect(await refusal('--step', '0s', '--start-rate', '50', '--max-rate', '200')).toBe('load sweep: --step must be longer than 0 (1ms at least); got "0s"');
    expect(await refusal('--step', '0ms')).toMatch(/--step must be longer than 0/);
    expect(await refusal('--step', '0.4ms')).toMatch(/--step must be longer than 0 \(1ms at least\); got "0\.4ms"/);
    // A bare 0 is too short, not a duration missing its unit.
    expect(await refusal('--step', '0')).toBe('load sweep: --step must be longer than 0, a duration such as 500ms, 30s or 2m; got "0"');
    expect(await refusal('--step', 'soon')).toBe('load sweep: --step must be a duration such as 500ms, 30s or 2m; got "soon"');
  });

  it('a search that starts above its maximum, and search bounds beside --rates, which would be ignored', async () => {
    expect(await refusal('--start-rate', '500', '--max-rate', '200')).toBe('load sweep: --start-rate 500 is above --max-rate 200: the search starts at or below its maximum');
    expect(await refusal('--rates', '10,20', '--start-rate', '5')).toMatch(/--rates runs the rates given; --start-rate belongs to a searched sweep/);
    expect(await refusal('--rates', '10,20', '--max-rate', '50')).toMatch(/--rates runs the rates given; --max-rate belongs to a searched sweep/);
  });

  it('--rate and --duration, which every step replaces', async () => {
    expect(await refusal('--rate', '100')).toMatch(/--rate sets one rate; a sweep runs many: give --rates/);
    expect(await refusal('--duration', '5s')).toMatch(/--duration is a run's measured window; a sweep's steps each last --step/);
  });

  it('rates of 0 or less, or above the schema\'s bound, as any rate', () => {
    expect(() => sweepLine.parse([scenario, '--start-rate', '0'])).toThrow('--start-rate must be greater than 0 requests/s; got "0"');
    expect(() => sweepLine.parse([scenario, '--max-rate', '-5'])).toThrow(CliError);
    expect(() => sweepLine.parse([scenario, '--rates', '10,0'])).toThrow(/--rates are rates separated by commas; each must be greater than 0/);
    expect(() => sweepLine.parse([scenario, '--rates', '10,1e7'])).toThrow(/each must be at most 1,000,000/);
  });
});

describe('load sweep: the searched rates', () => {
  /** Runs the search against a node whose SLO holds up to `knee`; the rates it tried, in order. */
  async function search(startRate: number, maxRate: number, knee: number): Promise<number[]> {
    const tried: number[] = [];
    await searchRates(
      (rate) => {
        tried.push(rate);
        if (!(rate > 0) || tried.length > 100) return Promise.reject(new Error(`the search went astray: ${tried.join(', ')}`));
        return Promise.resolve(rate <= knee);
      },
      { startRate, maxRate, resolution: 0.02, aborted: () => false },
    );
    return tried;
  }

  it('never tries a rate of 0: a start under 0.05/s once doubled to a rounded 0/s, and the ramp then doubled 0 for ever', async () => {
    const tried = await search(0.01, 100_000, 0.05);
    expect(tried.slice(0, 4)).toEqual([0.01, 0.02, 0.04, 0.08]);
    expect(Math.min(...tried)).toBeGreaterThan(0);
    expect(new Set(tried).size).toBe(tried.length);
  });

  it('doubles, then bisects to within 2%, and never goes above the maximum', async () => {
    const tried = await search(50, 100_000, 130);
    expect(tried.slice(0, 4)).toEqual([50, 100, 200, 150]);
    const held = tried.filter((r) => r <= 130);
    const broke = tried.filter((r) => r > 130);
    expect((Math.min(...broke) - Math.max(...held)) / Math.max(...held)).toBeLessThanOrEqual(0.02);
    expect(await search(50, 120, 1_000)).toEqual([50, 100, 120]);
  });
});
