import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { epochNow } from '../../core/epochNow.js';
import { resourceRows } from '../../reports/load/healthText.js';
import type { LoadRun } from '../model.js';
import { evaluateThresholds, parseThreshold } from '../scenario/Threshold.js';
import { checkMetricsPage, missingNote, lacksNote, MetricsPageError, readingOf } from './metricsSource.js';
import { counterIncrease, ResourceSampler, type ProcessSource } from './ResourceSampler.js';
import { startSamplers } from './watchers.js';

const MiB = 1_048_576;

/** A metrics page as the outside tester's fake node serves it (fakenode.js): each standard series unless left out. */
function page(o: { cpu?: number; rss?: number; fds?: number; kept?: number }): string {
  return [
    ...(o.cpu === undefined ? [] : ['# TYPE process_cpu_seconds_total counter', `process_cpu_seconds_total ${o.cpu}`]),
    ...(o.rss === undefined ? [] : ['# TYPE process_resident_memory_bytes gauge', `process_resident_memory_bytes ${o.rss}`]),
    ...(o.fds === undefined ? [] : ['# TYPE process_open_fds gauge', `process_open_fds ${o.fds}`]),
    '# TYPE fake_kept_bytes gauge',
    `fake_kept_bytes ${o.kept ?? 0}`,
  ].join('\n');
}

/** A source whose readings a function of the sample's index gives (a page scraped, as readingOf reads it). */
function pageSource(text: (i: number) => string, extra: readonly string[] = []): ProcessSource {
  let i = 0;
  return { label: 'http://127.0.0.1:9/metrics', read: () => readingOf(text(i++), extra) };
}

/** `seconds` of 1 s scrapes on fake timers; the measured window from `warmupS`; the run as thresholds see it. */
async function scraped(source: ProcessSource, seconds: number, warmupS: number, answered: number): Promise<LoadRun> {
  const origin = Date.now();
  const sampler = new ResourceSampler(source, 1_000);
  sampler.start();
  await vi.advanceTimersByTimeAsync(seconds * 1_000);
  await sampler.stop();
  const resources = sampler.resources([{ fromMs: origin + warmupS * 1_000, toMs: origin + seconds * 1_000 }], answered, origin);
  return { methods: [], health: { resources } } as unknown as LoadRun; // only `health` is read by the rows and the rss-growth threshold
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a metrics page without some standard series', () => {
  it('gives what it has: CPU without memory, memory without CPU, the --metric series either way', () => {
    // Before, a page without either was no reading at all: every scrape counted as missed, custom series lost.
    expect(readingOf(page({ cpu: 1.5, fds: 9, kept: 7 }), ['fake_kept_bytes'])).toEqual({ cpuSeconds: 1.5, openFds: 9, metrics: { fake_kept_bytes: 7 } });
    expect(readingOf(page({ rss: 2 * MiB, kept: 7 }), ['fake_kept_bytes'])).toEqual({ rssBytes: 2 * MiB, metrics: { fake_kept_bytes: 7 } });
    expect(readingOf(page({ kept: 7 }), ['fake_kept_bytes'])).toEqual({ metrics: { fake_kept_bytes: 7 } });
    expect(readingOf(page({}))).toBeUndefined();
  });

  it('no process_resident_memory_bytes: the CPU per call and the custom series are measured, the report says what the page lacks, and no scrape is "missed"', async () => {
    vi.useFakeTimers();
    // 2 ms of CPU a call at 50 calls a second: 0.1 s of CPU each second.
    const run = await scraped(pageSource((i) => page({ cpu: 10 + i * 0.1, fds: 30, kept: i * 1024 }), ['fake_kept_bytes']), 12, 2, 500);
    const r = run.health?.resources;
    expect(r?.missed).toBe(0);
    expect(r?.cpuPerCallUs).toBeCloseTo(2_000, -1);
    expect(r?.metrics?.map((m) => m.name)).toEqual(['fake_kept_bytes']);
    expect(r?.rssTrend).toBeNull();
    const rows = resourceRows(run);
    expect(rows.find((row) => row.label === 'Peak RSS')).toEqual({ label: 'Peak RSS', value: '—', note: 'not measured: the metrics page has no process_resident_memory_bytes' });
    const reads = rows.find((row) => row.label === 'Process reads')?.note;
    expect(reads).toContain('the page has no process_resident_memory_bytes: what it has is read');
    expect(reads).not.toContain('gave nothing');
  });

  it('no process_cpu_seconds_total: the memory and its trend are measured, the CPU is not', async () => {
    vi.useFakeTimers();
    const run = await scraped(pageSource((i) => page({ rss: 100 * MiB + i * 64 * 1024, kept: i })), 30, 2, 1_000);
    const r = run.health?.resources;
    expect(r?.missed).toBe(0);
    expect(r?.cpuPerCallUs).toBeNull();
    expect(r?.peakRssBytes).toBeGreaterThan(100 * MiB);
    expect(r?.rssTrend?.mbPerHour).toBeGreaterThan(200);
    expect(resourceRows(run).find((row) => row.label === 'Node CPU per call')?.note).toBe('not measured: the metrics page has no process_cpu_seconds_total');
    expect(lacksNote('http://b/metrics', ['process_cpu_seconds_total'])).toBe('http://b/metrics has no process_cpu_seconds_total: the node\'s CPU per call is not measured (the series it has are read)');
  });
});

describe('rss-growth on a short run scraped once a second', () => {
  it('a step of 40 MiB that then holds is not a leak: its last half is too short to judge, and the report says so', async () => {
    // The outside tester's run (fakenode.js stepMB=40 stepAt=5000, 15 s after a 2 s warm-up, --metrics-url):
    // exit 99, rss-growth broken on the whole line alone, its last half 8 points (fewer than 10, not fitted).
    vi.useFakeTimers();
    const run = await scraped(pageSource((i) => page({ cpu: i * 0.01, rss: (60 + (i >= 5 ? 40 : 0)) * MiB + (i % 3) * 4096 })), 17, 2, 750);
    const trend = run.health?.resources?.rssTrend;
    // The whole line tilts up (its slope far above 50 MiB/h); a step is no steady growth, and the last half decides.
    expect(trend?.mbPerHour).toBeGreaterThan(50);
    expect(trend?.lastHalf).toBeNull();
    expect(evaluateThresholds(run, [parseThreshold('rss-growth < 50MB/h')])[0]).toMatchObject({ actual: null, ok: false });
    expect(resourceRows(run).find((row) => row.label === 'RSS trend')?.note).toContain('its last half had fewer than 10 points: not enough data to judge whether it lasts (rss-growth not measured: a longer run gives it)');
  });
});

describe('the last measured window of a run that ended early', () => {
  // At 20 calls/s the last call is answered up to 50 ms before the window's nominal end, and the run ends then:
  // the sample stop() takes comes before that end. The outside tester's runs at 20/s reported no CPU per call.
  const lastWindow = async (source: ProcessSource): Promise<number | null> => {
    vi.useFakeTimers();
    const origin = epochNow();
    const sampler = new ResourceSampler(source, 1_000);
    sampler.start();
    // Readings at 0, 1, ..., 5 s, then the run ends at 5.4 s and its samplers stop: a last reading there.
    await vi.advanceTimersByTimeAsync(5_400);
    await sampler.stop();
    return sampler.resources([{ fromMs: origin + 1_000, toMs: origin + 5_450 }], 100, origin).cpuSeconds;
  };

  it('is read up to the last sample, taken after every call of it was answered', async () => {
    // CPU 0.1 s a reading: 10.1 at 1 s, 10.6 at the last reading (the seventh).
    expect(await lastWindow(pageSource((i) => page({ cpu: 10 + i * 0.1, rss: 100 * MiB })))).toBeCloseTo(0.5, 3);
  });

  it('but not past a process that was gone by then: no CPU figure, rather than a short one', async () => {
    expect(await lastWindow(pageSource((i) => (i < 4 ? page({ cpu: 10 + i * 0.1, rss: 100 * MiB }) : '')))).toBeNull();
  });
});

describe('a --metrics-url read once before the run', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const answer = (status: number, text: string): void => {
        res.statusCode = status;
        res.end(text);
      };
      if (req.url === '/404') return answer(404, 'not found');
      if (req.url === '/malformed') return answer(200, 'process_cpu_seconds_total{ broken 12 abc\n%%% garbage\nprocess_resident_memory_bytes notanumber\n');
      if (req.url === '/slow') return void setTimeout(() => answer(200, page({ cpu: 1, rss: 1 })), 3_000);
      if (req.url === '/norss') return answer(200, page({ cpu: 1, fds: 3 }));
      return answer(200, '# TYPE up gauge\nup 1\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('refuses a page that gives nothing readable (exit 2), as a --pid with no process; says what a readable one lacks', async () => {
    const refused = async (path: string): Promise<MetricsPageError> => {
      const err: unknown = await checkMetricsPage(`${base}${path}`, 'http://node').then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(MetricsPageError);
      return err as MetricsPageError;
    };
    expect((await refused('/404')).message).toBe(`--metrics-url ${base}/404 (for http://node) answered HTTP 404: no metrics to read from it`);
    expect((await refused('/404')).exitCode).toBe(2);
    expect((await refused('/malformed')).message).toMatch(/not the Prometheus text format|has none of process_cpu_seconds_total/);
    expect((await refused('/slow')).message).toContain('gave no page within 2 s');
    expect((await refused('/other')).message).toContain('has none of process_cpu_seconds_total, process_resident_memory_bytes, process_open_fds');
    expect(await checkMetricsPage(`${base}/other`, 'http://node', ['up'])).toEqual({ lacks: ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_open_fds'], missing: [] });
    expect(await checkMetricsPage(`${base}/norss`, 'http://node')).toEqual({ lacks: ['process_resident_memory_bytes'], missing: [] });
    // A --metric the page does not have (an outside tester's misnamed one, read as nothing without a word): said.
    const misnamed = await checkMetricsPage(`${base}/norss`, 'http://node', ['chainrpc_rpc_calls_total']);
    expect(misnamed.missing).toEqual(['chainrpc_rpc_calls_total']);
    expect(missingNote(`${base}/norss`, misnamed.missing)).toBe(`${base}/norss has no series named chainrpc_rpc_calls_total (--metric): nothing is read for it (give its name as the page writes it)`);
    const closed = await checkMetricsPage('http://127.0.0.1:9/metrics', 'http://node').then(() => undefined, (e: unknown) => e);
    expect(closed).toBeInstanceOf(MetricsPageError);
  }, 20_000);
});

describe('a --pid whose process exits mid-run', () => {
  it('is said on the console, once', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    const said: string[] = [];
    const pid = child.pid ?? 0;
    const samplers = startSamplers(['http://127.0.0.1:9'], [pid], [], [], (line) => said.push(line));
    await new Promise((r) => setTimeout(r, 400));
    child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 1_000));
    await Promise.all([...samplers.values()].map((s) => s.stop()));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(new RegExp(`^the process of http://127\\.0\\.0\\.1:9 \\(--pid ${pid}\\) is gone [0-9.]+ s after it was first read \\(no /proc/${pid}\\): its CPU and memory are not read after that$`));
  });
});

describe('a CPU counter that goes back to 0 (the process restarted)', () => {
  it('counts from 0 again, as Prometheus does: the CPU per call stays true, the series never goes below 0, and the report says so', async () => {
    // 0.05 s of CPU a second (50 calls a second at 1,000 µs each); the process restarts after 25 s, its counter back at 0.
    // Before, the CPU read was the last value minus the first: 50 µs a call where it is 1,000 (an outside tester's).
    vi.useFakeTimers();
    const run = await scraped(pageSource((i) => page({ cpu: (i <= 25 ? i : i - 26) * 0.05, rss: 60 * MiB })), 40, 2, 38 * 50);
    const r = run.health?.resources;
    expect(r?.cpuResets).toBe(1);
    // 38 s measured, one second of CPU before the restart not seen: 37 of 38 seconds' worth.
    expect(r?.cpuPerCallUs).toBeGreaterThan(950);
    expect(r?.cpuPerCallUs).toBeLessThanOrEqual(1_000);
    expect(Math.min(...(r?.series ?? []).map((p) => p.cpuPercent ?? 0))).toBeGreaterThanOrEqual(0);
    expect(resourceRows(run).find((row) => row.label === 'Node CPU per call')?.note).toMatch(/the CPU counter went back to 0 once \(the process restarted\)/);
  });

  it('a --metric counter\'s rate counts a reset as Prometheus\'s increase() does', () => {
    expect(counterIncrease([0, 10, 20, 5, 15])).toBe(35);
    expect(counterIncrease([3, 3, 4])).toBe(1);
  });
});

describe('a process gone before the run ended', () => {
  it('leaves rss-growth not measured, saying so: its trend is of a part of the run (an outside tester\'s, killed at 12 s of 32, was judged kept)', async () => {
    vi.useFakeTimers();
    let i = 0;
    // Read 4 times a second... here once a second for 12 s, then nothing: the process is gone.
    const source: ProcessSource = { label: 'pid 4242', read: () => (i++ < 12 ? readingOf(page({ cpu: i * 0.01, rss: (200 - i * 2) * MiB })) : undefined) };
    const run = await scraped(source, 32, 0, 100);
    expect(run.health?.resources?.rssTrend?.endedMs).toBeGreaterThan(10_000);
    expect(evaluateThresholds(run, [parseThreshold('rss-growth < 50MB/h')])[0]).toMatchObject({ actual: null, ok: false });
    expect(resourceRows(run).find((row) => row.label === 'RSS trend')?.note).toMatch(/the process was gone from .*, before the run ended: the trend covers the run until then \(rss-growth not measured\)/);
  });
});
