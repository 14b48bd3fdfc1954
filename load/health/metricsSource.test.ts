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
});
