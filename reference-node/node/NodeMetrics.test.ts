/**
 * GET /metrics on real reference nodes, through HTTP on loopback: the Prometheus text, the process's
 * metrics, the node's own (calls by method and code, their durations, the gauges), and one registry per
 * node: two nodes in one process count apart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prometheusContentType, register as globalRegistry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest, post } from '../../test/support/rpc.js';
import { testNodeOptions } from '../../test/support/nodeOptions.js';
import { RPC_DURATION_BUCKETS } from './NodeMetrics.js';
import { ReferenceNode } from './ReferenceNode.js';

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g;

/** The samples of a text in the Prometheus text format (0.0.4); a line that is neither a sample nor a comment fails the test. */
function readSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (match === null) throw new Error(`not a sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) labels[name as string] = value as string;
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the series with exactly these labels; undefined when there is none. */
function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  return samples.find((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === wanted)?.value;
}

async function scrape(node: ReferenceNode): Promise<Sample[]> {
  const answer = await httpRequest(node.url, { method: 'GET', path: '/metrics' });
  expect(answer.status).toBe(200);
  return readSamples(answer.body);
}

const call = (method: string, params: unknown[] = [], id = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** Calls of method with code, as the node counts them (0 before the first). */
const calls = (samples: readonly Sample[], method: string, code: string): number => valueOf(samples, 'chainrpc_node_rpc_calls_total', { method, code }) ?? 0;

const dirs: string[] = [];
const nodes: ReferenceNode[] = [];

async function startNode(): Promise<ReferenceNode> {
  const dir = mkdtempSync(join(tmpdir(), 'chainrpc-metrics-'));
  dirs.push(dir);
  const node = await ReferenceNode.start(testNodeOptions(dir));
  nodes.push(node);
  return node;
}

let node: ReferenceNode;

beforeAll(async () => {
  node = await startNode();
});

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('GET /metrics on a reference node', () => {
  it('answers 200 in the Prometheus text format 0.0.4, with the process metrics and the node metrics typed', async () => {
    const answer = await httpRequest(node.url, { method: 'GET', path: '/metrics' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(prometheusContentType);
    expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
    const samples = readSamples(answer.body);
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(valueOf(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(samples, 'process_open_fds')).toBeGreaterThan(0);
    expect(samples.some((s) => s.name.startsWith('nodejs_'))).toBe(true);
    for (const [name, type] of [
      ['chainrpc_node_head_height', 'gauge'],
      ['chainrpc_node_mempool_transactions', 'gauge'],
      ['chainrpc_node_connected_peers', 'gauge'],
      ['chainrpc_node_rpc_calls_total', 'counter'],
      ['chainrpc_node_rpc_call_duration_seconds', 'histogram'],
    ]) {
      expect(answer.body).toContain(`\n# TYPE ${name} ${type}\n`);
    }
  });

  it('counts calls by method and code: results as "ok", refusals by their code, unknown names as method="unknown"', async () => {
    const before = await scrape(node);
    const times = 3;
    for (let i = 0; i < times; i++) expect((await post(node.url, call('chain_blockNumber', [], i))).status).toBe(200);
    await post(node.url, call('chain_getBlockByHeight', [-1]));
    await post(node.url, call('no_suchMethod'));
    await post(node.url, call(`chain_${'x'.repeat(200)}`));
    await post(node.url, '{"jsonrpc":"2.0",');
    const after = await scrape(node);

    const added = (method: string, code: string): number => calls(after, method, code) - calls(before, method, code);
    expect(added('chain_blockNumber', 'ok')).toBe(times);
    expect(added('chain_getBlockByHeight', '-32602')).toBe(1);
    expect(added('unknown', '-32601')).toBe(2);
    expect(added('unknown', '-32700')).toBe(1);
    // A name the node does not have never becomes a label value.
    expect(after.some((s) => s.labels.method === 'no_suchMethod' || (s.labels.method ?? '').startsWith('chain_x'))).toBe(false);
    // Every call counted has its duration: the histogram's count per method is the counter's sum over codes.
    const counted = (samples: readonly Sample[], method: string): number =>
      samples.filter((s) => s.name === 'chainrpc_node_rpc_calls_total' && s.labels.method === method).reduce((sum, s) => sum + s.value, 0);
    for (const method of ['chain_blockNumber', 'chain_getBlockByHeight', 'unknown']) {
      expect(valueOf(after, 'chainrpc_node_rpc_call_duration_seconds_count', { method })).toBe(counted(after, method));
    }
  });

  it('observes durations in seconds, in buckets from 100 µs to 5 s', async () => {
    await post(node.url, call('chain_blockNumber'));
    const samples = await scrape(node);
    const bucket = (le: string): number | undefined => valueOf(samples, 'chainrpc_node_rpc_call_duration_seconds_bucket', { le, method: 'chain_blockNumber' });
    const count = valueOf(samples, 'chainrpc_node_rpc_call_duration_seconds_count', { method: 'chain_blockNumber' });
    expect(count).toBeGreaterThan(0);
    expect(RPC_DURATION_BUCKETS[0]).toBe(0.0001);
    expect(RPC_DURATION_BUCKETS.at(-1)).toBe(5);
    for (const le of RPC_DURATION_BUCKETS) expect(bucket(String(le))).toBeDefined();
    expect(bucket('+Inf')).toBe(count);
    // A read served from memory takes well under the 5 s bound, and its seconds are not milliseconds.
    expect(bucket('5')).toBe(count);
    const sum = valueOf(samples, 'chainrpc_node_rpc_call_duration_seconds_sum', { method: 'chain_blockNumber' }) ?? Number.NaN;
    expect(sum).toBeGreaterThan(0);
    expect(sum / (count ?? 1)).toBeLessThan(1);
  });

  it('a scrape is not a JSON-RPC call: scraping twice counts nothing', async () => {
    const first = await scrape(node);
    const second = await scrape(node);
    const total = (samples: readonly Sample[]): number => samples.filter((s) => s.name === 'chainrpc_node_rpc_calls_total').reduce((sum, s) => sum + s.value, 0);
    expect(total(second)).toBe(total(first));
  });

  it('the gauges read the node: its head height, its mempool, its live peers (net_peerCount)', async () => {
    // Blocks come every 100 ms: the height is read around the scrape until no block came in between.
    let matched = false;
    for (let i = 0; i < 20 && !matched; i++) {
      const before = node.chain.height();
      const samples = await scrape(node);
      if (node.chain.height() !== before) continue;
      matched = true;
      expect(valueOf(samples, 'chainrpc_node_head_height')).toBe(Number(before));
      expect(valueOf(samples, 'chainrpc_node_mempool_transactions', { state: 'pending' })).toBe(node.chain.pendingCount());
      expect(valueOf(samples, 'chainrpc_node_mempool_transactions', { state: 'held' })).toBe(node.chain.heldCount());
      expect(valueOf(samples, 'chainrpc_node_connected_peers')).toBe(node.peers.live().length);
    }
    expect(matched, 'a scrape between two blocks').toBe(true);
  });

  it('HEAD gets the headers of GET and no body; another method gets 405 with Allow: GET, HEAD', async () => {
    const head = await httpRequest(node.url, { method: 'HEAD', path: '/metrics' });
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(prometheusContentType);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    expect(head.body).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const answer = await httpRequest(node.url, { method, path: '/metrics', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect({ method, status: answer.status, allow: answer.headers.allow }).toEqual({ method, status: 405, allow: 'GET, HEAD' });
    }
  });

  it('leaves the JSON-RPC path as it was: GET /rpc is 405 with Allow: POST, and other paths 404', async () => {
    const get = await httpRequest(node.url, { method: 'GET', path: '/rpc' });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    for (const path of ['/metrics/', '/METRICS', '/metric']) expect((await httpRequest(node.url, { method: 'GET', path })).status).toBe(404);
  });
});

describe('two nodes in one process', () => {
  it('count apart, each in a registry of its own (never the global one)', async () => {
    const other = await startNode();
    const [a0, b0] = await Promise.all([scrape(node), scrape(other)]);
    expect(calls(b0, 'chain_blockNumber', 'ok')).toBe(0);
    for (let i = 0; i < 2; i++) await post(other.url, call('chain_blockNumber'));
    await post(node.url, call('chain_getBlockByHeight', [-1]));
    const [a1, b1] = await Promise.all([scrape(node), scrape(other)]);
    expect(calls(b1, 'chain_blockNumber', 'ok')).toBe(2);
    expect(calls(a1, 'chain_blockNumber', 'ok')).toBe(calls(a0, 'chain_blockNumber', 'ok'));
    expect(calls(a1, 'chain_getBlockByHeight', '-32602') - calls(a0, 'chain_getBlockByHeight', '-32602')).toBe(1);
    expect(calls(b1, 'chain_getBlockByHeight', '-32602')).toBe(0);
    // The process's metrics are the process's: both nodes show them.
    expect(valueOf(b1, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(globalRegistry.getMetricsAsArray().filter((m) => m.name.startsWith('chainrpc_') || m.name.startsWith('process_'))).toEqual([]);
  });
});
