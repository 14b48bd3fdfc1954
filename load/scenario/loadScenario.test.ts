import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { schemasDir } from '../../core/paths.js';
import { builtInScenarios, loadScenario, maxRate, resolveScenario } from './loadScenario.js';
import { ScenarioError } from './ScenarioError.js';

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-scenario-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function errorOf(run: () => unknown): ScenarioError {
  try {
    run();
  } catch (error) {
    if (error instanceof ScenarioError) return error;
    throw error;
  }
  throw new Error('expected a ScenarioError');
}

const minimal = { name: 't', arrivals: { model: 'open', rate: 10 }, duration: '5s', mix: [{ method: 'chain_blockNumber' }] };

describe('built-in scenarios', () => {
  it('the four the docs name exist and every built-in resolves', () => {
    expect(builtInScenarios()).toEqual(expect.arrayContaining(['reads', 'batch', 'send-raw-tx', 'mixed']));
    for (const name of builtInScenarios()) {
      const s = loadScenario(name);
      expect(s.name).toBe(name);
      expect(s.durationMs).toBeGreaterThan(0);
      expect(s.thresholds.length).toBeGreaterThan(0);
    }
  });

  it('reads is an open model of the five read methods, weighted', () => {
    const s = loadScenario('reads');
    expect(s.model).toEqual({ kind: 'open', distribution: 'uniform', stages: [{ from: 200, to: 200, durationMs: 30_000 }] });
    expect([...s.reads].sort()).toEqual(['chain_blockNumber', 'chain_getAccount', 'chain_getBlockByHeight', 'chain_health', 'chain_pouLocal']);
    expect(s.transactions).toBeUndefined();
  });

  it('send-raw-tx and mixed send transactions; --batch-size changes batches and transactions per request', () => {
    expect(loadScenario('send-raw-tx').transactions).toMatchObject({ senders: 32, batchSize: 1 });
    expect(loadScenario('send-raw-tx', { batchSize: 8 }).transactions?.batchSize).toBe(8);
    const batch = loadScenario('batch', { batchSize: 7 });
    expect(batch.mix[0]).toMatchObject({ kind: 'batch', size: 7 });
  });
});

describe('overrides', () => {
  it('--rate replaces the rate and keeps the distribution; --duration and --warmup the times', () => {
    const s = resolveScenario({ ...minimal, arrivals: { model: 'open', rate: 10, distribution: 'poisson' } }, { rate: 40, duration: '2s', warmup: '500ms' });
    expect(s.model).toEqual({ kind: 'open', distribution: 'poisson', stages: [{ from: 40, to: 40, durationMs: 2000 }] });
    expect(s.warmupMs).toBe(500);
  });

  it('a chaos section is read as written and each step checked, with its pointer', () => {
    expect(resolveScenario({ ...minimal, chaos: ['2s:kill:leader', ' 3s:pause:ln1:1s '] }).chaos).toEqual(['2s:kill:leader', '3s:pause:ln1:1s']);
    expect(resolveScenario(minimal).chaos).toEqual([]);
    const e = errorOf(() => resolveScenario({ ...minimal, chaos: ['2s:kill:leader', '3s:restart:mn1:1s'] }));
    expect(e.message).toMatch(/\/chaos\/1.*restart takes no duration/);
    expect(errorOf(() => resolveScenario({ ...minimal, chaos: ['soon:kill:mn1'] })).message).toMatch(/\/chaos\/0/);
  });

  it('--rate on a closed scenario is refused with the pointer', () => {
    const e = errorOf(() => resolveScenario({ ...minimal, arrivals: { model: 'closed', connections: 4 } }, { rate: 5 }));
    expect(e.pointer).toBe('/arrivals/model');
    expect(e.message).toMatch(/--connections/);
  });

  it('--batch-size on a mix with neither batches nor transactions is refused, not ignored', () => {
    const e = errorOf(() => resolveScenario(minimal, { batchSize: 10 }));
    expect(e.pointer).toBe('/mix');
    expect(e.message).toMatch(/--batch-size .* this scenario has neither/);
  });

  it('--corpus on a scenario that sends no transactions names what the user gave, not the /transactions it would write', () => {
    const e = errorOf(() => loadScenario('reads', { corpus: 'my-corpus.json' }));
    expect(e.message).toBe(
      'built-in scenario reads: --corpus my-corpus.json: this scenario sends no chain_sendRawTransaction, so it has no use for a corpus of signed transactions (give a scenario that sends them, such as send-raw-tx or mixed, or leave --corpus out)',
    );
    expect(e.message).not.toContain('/transactions');
  });

  it('thresholds given on the command line are added', () => {
    const s = resolveScenario(minimal, { thresholds: ['p50 < 5ms'] });
    expect(s.thresholds.map((t) => t.text)).toEqual(['p50 < 5ms']);
  });
});

describe('bad scenarios name the JSON pointer and the rule', () => {
  it.each([
    [{ ...minimal, duration: '5 seconds' }, '/duration', 'pattern'],
    [{ ...minimal, mix: [{ method: 'chain_nope' }] }, '/mix/0', ''],
    [{ ...minimal, arrivals: { model: 'open', rate: -1 } }, '/arrivals', ''],
    [{ ...minimal, extra: 1 }, '/extra', 'additionalProperties'],
    [{ ...minimal, duration: undefined }, '/duration', 'duration-required'],
    [{ ...minimal, arrivals: { model: 'open', stages: [{ duration: '1s', rate: 5 }] } }, '/duration', 'duration-with-stages'],
    [{ ...minimal, thresholds: ['p99 < 1%'] }, '/thresholds/0', 'threshold'],
    [{ ...minimal, thresholds: ['errors < 1'] }, '/thresholds/0', 'threshold'],
    [{ ...minimal, thresholds: ['chain_getAccount:p99 < 5ms'] }, '/thresholds/0', 'threshold-method'],
    [{ ...minimal, thresholds: ['inclusion >= 99%'] }, '/thresholds/0', 'threshold-inclusion'],
    [{ ...minimal, thresholds: ['lost-tx == 0'] }, '/thresholds/0', 'threshold-inclusion'],
    [{ ...minimal, thresholds: ['duplicate-tx == 0'] }, '/thresholds/0', 'threshold-inclusion'],
    [{ ...minimal, arrivals: { model: 'closed', connections: 2 }, thresholds: ['achieved >= 99%'] }, '/thresholds/0', 'threshold-achieved'],
    [{ ...minimal, arrivals: { model: 'closed', connections: 2 }, thresholds: ['lag-p99 < 1ms'] }, '/thresholds/0', 'threshold-lag'],
    [{ ...minimal, mix: [{ method: 'chain_sendRawTransaction', params: ['00'] }] }, '/mix/0', ''],
    [{ ...minimal, transactions: { senders: 2 } }, '/transactions', 'transactions-unused'],
  ])('%j -> %s', (raw, pointer, rule) => {
    const e = errorOf(() => resolveScenario(JSON.parse(JSON.stringify(raw)) as never));
    expect(e.pointer?.startsWith(pointer)).toBe(true);
    if (rule !== '') expect(e.rule).toBe(rule);
    expect(e.message).toContain(pointer);
  });

  it.each([
    // A misspelt key of a call: the one problem, not the batch alternative's "/mix/0/batch is missing" after it.
    [{ ...minimal, mix: [{ method: 'chain_blockNumber', wieght: 2 }] }, 'scenario: /mix/0/wieght is not allowed here (unexpected field "wieght") [rule: additionalProperties]'],
    // A misspelt method name: the call's own problem (a wrong value), not the batch alternative's "method is not
    // allowed here" and "batch is missing" (an enum of many values names no alternative, as "model": "closed" does).
    [{ ...minimal, mix: [{ method: 'chain_blockNumbr', weight: 2 }] }, expect.stringMatching(/^scenario: \/mix\/0\/method must be one of "chain_health", .*"chain_blockNumber".*; got "chain_blockNumbr" \[rule: enum\]$/)],
    // A sentence that is no threshold: what one looks like, not the pattern's 400 characters.
    [{ ...minimal, thresholds: ['p99 < fast'] }, 'scenario: /thresholds/0 must be a threshold "[method:]metric op number[unit]", such as "p99 < 250ms", "errors < 1%" or "chain_getAccount:p99 < 5ms" (the metrics and units: docs/load.md, "Thresholds"); got "p99 < fast" [rule: pattern]'],
    // A rate over the bound: not the other arrival models' "stages is missing", "connections is missing".
    [{ ...minimal, arrivals: { model: 'open', rate: 2_000_000 } }, 'scenario: /arrivals/rate must be at most 1000000; got 2000000 [rule: maximum]'],
  ])('the first schema problem alone, without the other alternatives\' noise: %j', (raw, message) => {
    expect(errorOf(() => resolveScenario(JSON.parse(JSON.stringify(raw)) as never)).message).toEqual(message);
  });

  it('maxRate is the schema\'s bound on an arrival rate (what --rate is held to)', () => {
    const schema = JSON.parse(readFileSync(join(schemasDir, 'load', 'scenario.schema.json'), 'utf8')) as { properties: { arrivals: { oneOf: { properties: { rate?: { maximum: number } } }[] } } };
    expect(maxRate()).toBe(schema.properties.arrivals.oneOf[0]?.properties.rate?.maximum);
    expect(maxRate()).toBe(1_000_000);
  });

  it('a file that is not JSON, and a name that is neither built-in nor a file', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"name": ');
    expect(errorOf(() => loadScenario(bad)).message).toMatch(/is not JSON/);
    expect(errorOf(() => loadScenario('no-such-scenario')).message).toMatch(/neither a built-in \(.*reads.*\) nor a file/);
  });

  it('a scenario file on disk resolves like a built-in', () => {
    const file = join(dir, 'mine.json');
    writeFileSync(file, JSON.stringify({ ...minimal, arrivals: { model: 'open', stages: [{ duration: '2s', from: 10, to: 30 }, { duration: '1s', rate: 30 }] }, duration: undefined }));
    const s = loadScenario(file);
    expect(s.durationMs).toBe(3000);
    expect(s.model).toEqual({ kind: 'open', distribution: 'uniform', stages: [{ from: 10, to: 30, durationMs: 2000 }, { from: 30, to: 30, durationMs: 1000 }] });
  });
});
