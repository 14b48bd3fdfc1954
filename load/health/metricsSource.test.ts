import { afterAll, describe, expect, it } from 'vitest';
import { cpuSeconds } from '../../core/process/procStat.js';
import { startTestNode, type TestNode } from '../../test/support/suites.js';
import { metricsSource, readingOf } from './metricsSource.js';
import { pidSource, ResourceSampler } from './ResourceSampler.js';

const nodes: TestNode[] = [];
afterAll(() => Promise.all(nodes.map((n) => n.stop())));

describe('metricsSource: a node\'s process read through its Prometheus metrics', () => {
  it('reads the conventional process metrics from a scrape, and nothing from one without them', () => {
    const text = [
      '# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.',
      '# TYPE process_cpu_seconds_total counter',
      'process_cpu_seconds_total 12.5',
      '# TYPE process_resident_memory_bytes gauge',
      'process_resident_memory_bytes 1.2345e+08',
      '# TYPE process_open_fds gauge',
      'process_open_fds 42',
      '# TYPE http_requests_total counter',
      'http_requests_total{code="200"} 7',
    ].join('\n');
    expect(readingOf(text)).toEqual({ cpuSeconds: 12.5, rssBytes: 123_450_000, openFds: 42 });
    expect(readingOf('# TYPE up gauge\nup 1\n')).toBeUndefined();
    // --metric: any other family by name, summed over its label sets (a histogram by its count); absent names left out.
    const more = [
      text,
      'http_requests_total{code="500"} 3',
      '# TYPE rpc_seconds histogram',
      'rpc_seconds_bucket{le="0.1"} 4',
      'rpc_seconds_bucket{le="+Inf"} 5',
      'rpc_seconds_sum 0.7',
      'rpc_seconds_count 5',
      '# TYPE peers gauge',
      'peers 2.5',
    ].join('\n');
    expect(readingOf(more, ['http_requests_total', 'rpc_seconds', 'peers', 'absent_total'])?.metrics).toEqual({ http_requests_total: 10, rpc_seconds: 5, peers: 2.5 });
    expect(readingOf('not the text format {{{')).toBeUndefined();
  });

  it('agrees with /proc on the same process: the reference node\'s GET /metrics, read while this process works', async () => {
    // An in-process node: its /metrics describe this very process, which /proc reads too.
    const node = await startTestNode();
    nodes.push(node);
    const byMetrics = new ResourceSampler(metricsSource(`${node.url}/metrics`), 100);
    const byProc = new ResourceSampler(pidSource(process.pid), 100);
    const origin = Date.now();
    byMetrics.start();
    byProc.start();
    await new Promise((r) => setTimeout(r, 200));
    const fromMs = Date.now();
    // Half a second of this process's CPU (by /proc), however busy the machine, in slices that leave the samplers
    // their turns; 15 s of wall time at most.
    const cpu0 = cpuSeconds('self') ?? 0;
    while ((cpuSeconds('self') ?? 0) - cpu0 < 0.5 && Date.now() - fromMs < 15_000) {
      const until = performance.now() + 20;
      while (performance.now() < until);
      await new Promise((r) => setImmediate(r));
    }
    const toMs = Date.now();
    await new Promise((r) => setTimeout(r, 200));
    await Promise.all([byMetrics.stop(), byProc.stop()]);
    const m = byMetrics.resources([{ fromMs, toMs }], 100, origin);
    const p = byProc.resources([{ fromMs, toMs }], 100, origin);
    expect(m.missed).toBe(0);
    expect(m.source).toBe(`${node.url}/metrics`);
    expect(p.source).toBe(`pid ${process.pid}`);
    expect(p.cpuSeconds).toBeGreaterThanOrEqual(0.4);
    // /proc counts in ticks of 10 ms; prom-client reads process.cpuUsage when it answers the scrape, a moment after the
    // sample's time on a busy machine: the same CPU within 15% and 50 ms.
    expect(Math.abs((m.cpuSeconds ?? 0) - (p.cpuSeconds ?? 0))).toBeLessThanOrEqual(0.15 * (p.cpuSeconds ?? 0) + 0.05);
    expect(Math.abs(m.peakRssBytes - p.peakRssBytes)).toBeLessThanOrEqual(0.15 * p.peakRssBytes);
  }, 40_000);

  it('reads a named metric over a run (--metric): a counter\'s rate and its series, from the reference node\'s /metrics', async () => {
    const node = await startTestNode();
    nodes.push(node);
    const sampler = new ResourceSampler(metricsSource(`${node.url}/metrics`, ['chainrpc_node_rpc_calls_total', 'chainrpc_node_head_height']), 100);
    const origin = Date.now();
    sampler.start();
    // 60 calls over about 1.2 s: the counter rises by 60 (the scrapes themselves are not JSON-RPC calls).
    for (let i = 0; i < 60; i++) {
      await fetch(`${node.url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","method":"chain_blockNumber","params":[],"id":1}' }).then((r) => r.text());
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 150));
    await sampler.stop();
    const metrics = sampler.resources([], 0, origin).metrics ?? [];
    const calls = metrics.find((m) => m.name === 'chainrpc_node_rpc_calls_total');
    expect(calls?.last).toBeGreaterThanOrEqual(60);
    expect((calls?.last ?? 0) - (calls?.first ?? 0)).toBeGreaterThanOrEqual(50);
    expect(calls?.perSecond).toBeGreaterThan(10);
    expect(calls?.series.length).toBeGreaterThan(5);
    // A gauge has no rate.
    expect(metrics.find((m) => m.name === 'chainrpc_node_head_height')?.perSecond).toBeNull();
  }, 30_000);
});
