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

/** A reading of the process from a scrape's text; undefined without CPU or resident memory. */
export function readingOf(text: string): ProcessReading | undefined {
  let families: ReturnType<typeof parsePrometheusTextFormat>;
  try {
    families = parsePrometheusTextFormat(text);
  } catch {
    return undefined;
  }
  const cpuSeconds = valueOf(families, PROCESS_METRICS.cpu);
  const rssBytes = valueOf(families, PROCESS_METRICS.rss);
  if (cpuSeconds === undefined || rssBytes === undefined) return undefined;
  const openFds = valueOf(families, PROCESS_METRICS.fds);
  return { cpuSeconds, rssBytes: Math.round(rssBytes), ...(openFds === undefined ? {} : { openFds: Math.round(openFds) }) };
}

/** The process behind a metrics URL (`http://host:port/metrics`), scraped on a kept connection. */
export function metricsSource(url: string): ProcessSource & { close(): void } {
  const u = new URL(url);
  const pool = new ExactHttpPool(u.origin, { maxIdle: 1 });
  return {
    label: url,
    async read(): Promise<ProcessReading | undefined> {
      try {
        const answer = await pool.send({ method: 'GET', path: `${u.pathname}${u.search}`, headers: { accept: 'text/plain' }, timeoutMs: 2_000, maxBodyBytes: 4 * 1024 * 1024 });
        return answer.status === 200 && !answer.truncated ? readingOf(DECODER.decode(answer.body)) : undefined;
      } catch (err) {
        if (err instanceof HttpExchangeFailure) return undefined;
        throw err;
      }
    },
    close: () => pool.close(),
  };
}
