/**
 * A node's process read from anywhere through its metrics (`--metrics-url`): the Prometheus text format that node
 * software conventionally exposes, parsed by parse-prometheus-text-format (its only home). The conventional process
 * metrics of the Prometheus client libraries are read: `process_cpu_seconds_total` (user + system, seconds),
 * `process_resident_memory_bytes` and `process_open_fds`; the reference node serves them (docs/reference-node.md#metrics).
 * A scrape that fails, or holds no CPU or no resident memory, is no sample (counted as missed).
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { ExactHttpPool } from '../../core/client/ExactHttpPool.js';
import { HttpExchangeFailure } from '../../core/client/HttpExchangeFailure.js';
import type { ProcessReading, ProcessSource } from './ResourceSampler.js';

/** The metric names read, as the Prometheus client libraries name a process's own figures. */
export const PROCESS_METRICS = { cpu: 'process_cpu_seconds_total', rss: 'process_resident_memory_bytes', fds: 'process_open_fds' } as const;

const DECODER = new TextDecoder();

/** The first unlabelled value of a family in a parsed scrape, as a number. */
function valueOf(families: ReturnType<typeof parsePrometheusTextFormat>, name: string): number | undefined {
  const family = families.find((f) => f.name === name);
  const text = family?.metrics.find((m) => m.labels === undefined || Object.keys(m.labels).length === 0)?.value ?? family?.metrics[0]?.value;
  const value = text === undefined ? Number.NaN : Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** A family's value summed over its series (every label set), as a number; undefined when the scrape has none. */
function totalOf(families: ReturnType<typeof parsePrometheusTextFormat>, name: string): number | undefined {
  const family = families.find((f) => f.name === name);
  if (family === undefined) return undefined;
  // Histograms and summaries: their count (the calls, say), what a total of them means.
  const values = family.metrics.map((m) => Number(m.value ?? m.count ?? Number.NaN)).filter((v) => Number.isFinite(v));
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0);
}

/**
 * A reading of the process from a scrape's text; undefined without CPU or resident memory. `extra`: other
 * metrics asked for by name (--metric), each summed over its label sets, in `metrics` when the scrape holds them.
 */
export function readingOf(text: string, extra: readonly string[] = []): ProcessReading | undefined {
  let families: ReturnType<typeof parsePrometheusTextFormat>;
  try {
    // The parser drops a last line that has no newline after it (the format ends every line with one).
    families = parsePrometheusTextFormat(text.endsWith('\n') ? text : `${text}\n`);
  } catch {
    return undefined;
  }
  const cpuSeconds = valueOf(families, PROCESS_METRICS.cpu);
  const rssBytes = valueOf(families, PROCESS_METRICS.rss);
  if (cpuSeconds === undefined || rssBytes === undefined) return undefined;
  const openFds = valueOf(families, PROCESS_METRICS.fds);
  const metrics: Record<string, number> = {};
  for (const name of extra) {
    const v = totalOf(families, name);
    if (v !== undefined) metrics[name] = v;
  }
  return { cpuSeconds, rssBytes: Math.round(rssBytes), ...(openFds === undefined ? {} : { openFds: Math.round(openFds) }), ...(extra.length === 0 ? {} : { metrics }) };
}

/** The process behind a metrics URL (`http://host:port/metrics`), scraped on a kept connection. */
export function metricsSource(url: string, extra: readonly string[] = []): ProcessSource & { close(): void } {
  const u = new URL(url);
  const pool = new ExactHttpPool(u.origin, { maxIdle: 1 });
  return {
    label: url,
    async read(): Promise<ProcessReading | undefined> {
      try {
        const answer = await pool.send({ method: 'GET', path: `${u.pathname}${u.search}`, headers: { accept: 'text/plain' }, timeoutMs: 2_000, maxBodyBytes: 4 * 1024 * 1024 });
        return answer.status === 200 && !answer.truncated ? readingOf(DECODER.decode(answer.body), extra) : undefined;
      } catch (err) {
        if (err instanceof HttpExchangeFailure) return undefined;
        throw err;
      }
    },
    close: () => pool.close(),
  };
}
