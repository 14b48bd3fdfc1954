/**
 * A node's process read from anywhere through its metrics (`--metrics-url`): the Prometheus text format that node
 * software conventionally exposes, parsed by parse-prometheus-text-format (its only home). The conventional process
 * metrics of the Prometheus client libraries are read: `process_cpu_seconds_total` (user + system, seconds),
 * `process_resident_memory_bytes` and `process_open_fds`; the reference node serves them (docs/reference-node.md#metrics).
 * A page that lacks some of them gives the others (CPU per call without memory, memory without CPU, the --metric
 * series either way); a scrape that fails, or holds none of the series read, is no sample (counted as missed).
 * `checkMetricsPage` reads the page once before a run: one that gives nothing readable is refused (exit 2).
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { ExactHttpPool } from '../../core/client/ExactHttpPool.js';
import { HttpExchangeFailure } from '../../core/client/HttpExchangeFailure.js';
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
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

/** The standard series a page lacks, in PROCESS_METRICS' order. */
export type StandardSeries = (typeof PROCESS_METRICS)[keyof typeof PROCESS_METRICS];

/** A scrape's text parsed; undefined when it is not the text format. */
function parsed(text: string): ReturnType<typeof parsePrometheusTextFormat> | undefined {
  try {
    // The parser drops a last line that has no newline after it (the format ends every line with one).
    return parsePrometheusTextFormat(text.endsWith('\n') ? text : `${text}\n`);
  } catch {
    return undefined;
  }
}

/**
 * A reading of the process from a scrape's text: each of CPU, resident memory and open files the page holds
 * (a page without some still gives the others), and `extra`, other metrics asked for by name (--metric), each
 * summed over its label sets, in `metrics` when the scrape holds them. undefined when the text does not parse, or
 * holds none of these.
 */
export function readingOf(text: string, extra: readonly string[] = []): ProcessReading | undefined {
  const families = parsed(text);
  if (families === undefined) return undefined;
  const cpuSeconds = valueOf(families, PROCESS_METRICS.cpu);
  const rssBytes = valueOf(families, PROCESS_METRICS.rss);
  const openFds = valueOf(families, PROCESS_METRICS.fds);
  const metrics: Record<string, number> = {};
  for (const name of extra) {
    const v = totalOf(families, name);
    if (v !== undefined) metrics[name] = v;
  }
  if (cpuSeconds === undefined && rssBytes === undefined && openFds === undefined && Object.keys(metrics).length === 0) return undefined;
  return {
    ...(cpuSeconds === undefined ? {} : { cpuSeconds }),
    ...(rssBytes === undefined ? {} : { rssBytes: Math.round(rssBytes) }),
    ...(openFds === undefined ? {} : { openFds: Math.round(openFds) }),
    ...(extra.length === 0 ? {} : { metrics }),
  };
}

/** The standard series (PROCESS_METRICS) a reading lacks. */
export const lackedBy = (r: ProcessReading): StandardSeries[] => [
  ...(r.cpuSeconds === undefined ? [PROCESS_METRICS.cpu] : []),
  ...(r.rssBytes === undefined ? [PROCESS_METRICS.rss] : []),
  ...(r.openFds === undefined ? [PROCESS_METRICS.fds] : []),
];

/** How long a scrape may take: a page slower than this gives nothing (the next scrape is a second later). */
const SCRAPE_TIMEOUT_MS = 2_000;
/** The largest page read. */
const MAX_PAGE_BYTES = 4 * 1024 * 1024;

/** A scrape's outcome: the page's text, or why there was none. */
async function scrape(pool: ExactHttpPool, u: URL): Promise<{ text: string } | { problem: string }> {
  try {
    const answer = await pool.send({ method: 'GET', path: `${u.pathname}${u.search}`, headers: { accept: 'text/plain' }, timeoutMs: SCRAPE_TIMEOUT_MS, maxBodyBytes: MAX_PAGE_BYTES });
    if (answer.status !== 200) return { problem: `answered HTTP ${answer.status}` };
    if (answer.truncated) return { problem: `its page is over ${MAX_PAGE_BYTES / 1_048_576} MiB` };
    return { text: DECODER.decode(answer.body) };
  } catch (err) {
    if (err instanceof HttpExchangeFailure) return { problem: err.error.code === 'TIMEOUT' ? `gave no page within ${SCRAPE_TIMEOUT_MS / 1_000} s (each scrape has that long)` : `gave no page: ${err.message}` };
    throw err;
  }
}

/** The process behind a metrics URL (`http://host:port/metrics`), scraped on a kept connection. */
export function metricsSource(url: string, extra: readonly string[] = []): ProcessSource & { close(): void } {
  const u = new URL(url);
  const pool = new ExactHttpPool(u.origin, { maxIdle: 1 });
  return {
    label: url,
    async read(): Promise<ProcessReading | undefined> {
      const page = await scrape(pool, u);
      return 'text' in page ? readingOf(page.text, extra) : undefined;
    },
    close: () => pool.close(),
  };
}

/** A --metrics-url that gives no page chainrpc can read (exit 2, before the run: as a --pid with no process). */
export class MetricsPageError extends ChainrpcError {
  override readonly name = 'MetricsPageError';
  readonly kind = 'configuration';
}

/**
 * Reads a metrics URL once, before a run: what its page lacks of the standard series (said once, on the console
 * and in the report), or a MetricsPageError when it gives nothing readable (no answer in time, an HTTP status
 * other than 200, not the text format, none of the series read). `node`: the --url it is read for.
 */
export async function checkMetricsPage(url: string, node: string, extra: readonly string[] = []): Promise<{ lacks: StandardSeries[]; missing: string[] }> {
  const u = new URL(url);
  const pool = new ExactHttpPool(u.origin, { maxIdle: 1 });
  let page: Awaited<ReturnType<typeof scrape>>;
  try {
    page = await scrape(pool, u);
  } finally {
    pool.close();
  }
  const refuse = (why: string): never => {
    throw new MetricsPageError(`--metrics-url ${url} (for ${node}) ${why}: no metrics to read from it`, { details: 'give the node\'s Prometheus metrics page (the text format, e.g. http://host:port/metrics), or - in its position to read none for that node' });
  };
  if ('problem' in page) return refuse(page.problem);
  if (parsed(page.text) === undefined) return refuse('answered with a page that is not the Prometheus text format');
  const reading = readingOf(page.text, extra);
  if (reading === undefined) return refuse(`answered with a page that has none of ${[...Object.values(PROCESS_METRICS), ...extra].join(', ')}`);
  // A --metric the page does not have is read as nothing: said now, not found missing in the report (an outside tester's typo).
  return { lacks: lackedBy(reading), missing: extra.filter((name) => reading.metrics?.[name] === undefined) };
}

/** What the console says of --metric names a page does not have. */
export function missingNote(url: string, missing: readonly string[]): string | undefined {
  if (missing.length === 0) return undefined;
  return `${url} has no series named ${missing.join(', ')} (--metric): nothing is read for ${missing.length === 1 ? 'it' : 'them'} (give its name as the page writes it)`;
}

/** What the console says of a page that lacks standard series: what is read from it, and what is not. */
export function lacksNote(url: string, lacks: readonly StandardSeries[]): string | undefined {
  if (lacks.length === 0) return undefined;
  const what: Record<StandardSeries, string> = { [PROCESS_METRICS.cpu]: 'CPU per call', [PROCESS_METRICS.rss]: 'memory (RSS, its trend, rss-growth)', [PROCESS_METRICS.fds]: 'open files' };
  return `${url} has no ${lacks.join(', no ')}: the node's ${lacks.map((l) => what[l]).join(', ')} ${lacks.length === 1 ? 'is' : 'are'} not measured (the series it has are read)`;
}
