/**
 * The node's metrics in the Prometheus text format (docs/reference-node.md#metrics), served by the RPC
 * server at GET /metrics: the process's default metrics and this node's own, `chainrpc_node_*`.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { MetricsSource, OnSettled } from '../rpc/types.js';

/** What the gauges read, at each scrape (never on the request path). */
export interface NodeReadings {
  height(): bigint;
  /** Mempool transactions ready for a block. */
  pending(): number;
  /** Relayed transactions held until their sender's nonce gap fills. */
  held(): number;
  /** Live peers, this node excluded (net_peerCount). */
  peers(): number;
}

/** The method label of a call to no method of the node: a client may send any name, so none is kept. */
const UNKNOWN_METHOD = 'unknown';

/** From 100 µs (a read served from memory) to 5 s (a transaction admitted under load), about 2.5 apart. */
export const RPC_DURATION_BUCKETS: readonly number[] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

const PENDING = { state: 'pending' } as const;
const HELD = { state: 'held' } as const;

/**
 * The process's metrics (CPU, memory, file descriptors, event loop, GC), one set for the whole process.
 * collectDefaultMetrics does take any registry, but each call starts an event-loop delay monitor and a GC
 * observer that nothing ever stops: a process that starts many nodes (the tests do) would gather one of each
 * per node. They describe the process, not a node, so every node in it shows this one set; made at the first
 * scrape, so that a node nobody scrapes pays nothing for them.
 */
let processRegistry: Registry | undefined;

function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * One node's metrics, in a registry of its own (never prom-client's global one: several nodes may run in one
 * process). The gauges are read when scraped. A call that settles (`settled`, the RPC server's OnSettled) adds
 * one to a plain number and its duration to plain bucket counts, handed to prom-client when scraped: nothing of
 * prom-client runs on the request path (its histogram's observe hashed the labels of every call: 4,700 more CPU
 * instructions per chain_blockNumber call, bench:node:instructions).
 */
export class NodeMetrics implements MetricsSource {
  private readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private readonly series = new Map<string, MethodSeries>();
  /** The process's metrics and this node's, together; made at the first scrape. */
  private exposed: Registry | undefined;

  constructor(readings: NodeReadings) {
    // Each metric joins the node's registry by `registers`; the registry alone holds it after.
    const registers = [this.registry];
    new Gauge({
      name: 'chainrpc_node_head_height',
      help: 'Height of the latest committed block (genesis is 0).',
      registers,
      collect() {
        this.set(Number(readings.height()));
      },
    });
    new Gauge({
      name: 'chainrpc_node_mempool_transactions',
      help: 'Transactions in the mempool: pending (ready for a block) or held (a relayed transaction waiting for its nonce gap to fill).',
      labelNames: ['state'],
      registers,
      collect() {
        this.set(PENDING, readings.pending());
        this.set(HELD, readings.held());
      },
    });
    new Gauge({
      name: 'chainrpc_node_connected_peers',
      help: 'Live peers, this node excluded (what net_peerCount answers).',
      registers,
      collect() {
        this.set(readings.peers());
      },
    });
    const series = this.series;
    new Counter({
      name: 'chainrpc_node_rpc_calls_total',
      help: `JSON-RPC calls settled, by method (${UNKNOWN_METHOD}: no method of this node, or none could be read) and code ("ok" for a result, else the JSON-RPC error code).`,
      labelNames: ['method', 'code'],
      registers,
      // Set anew from the plain counts at each scrape (synchronous, so no call is counted in between).
      collect() {
        this.reset();
        for (const s of series.values()) s.report(this);
      },
    });
  }

  /** The RPC server's OnSettled: counts the call and its duration. An arrow, so that it is passed without a bind. */
  readonly settled: OnSettled = (method, code, seconds) => {
    const series = this.seriesOf(method ?? UNKNOWN_METHOD);
    series.count(code);
    series.observe(seconds);
  };

  /** The exposition text: the process's metrics, then this node's, the call durations last. */
  async text(): Promise<string> {
    this.exposed ??= Registry.merge([processMetrics(), this.registry]);
    return `${await this.exposed.metrics()}\n${durationsText(this.series.values())}`;
  }

  private seriesOf(method: string): MethodSeries {
    let series = this.series.get(method);
    if (series === undefined) {
      series = new MethodSeries(method);
      this.series.set(method, series);
    }
    return series;
  }
}

/**
 * One method's calls: plain counts by outcome (numbers in a Map by code: counting allocates nothing), and the
 * durations as plain bucket counts (the histogram's, not cumulative), their sum and their count. The codes are
 * the node's own (the dispatcher's and the handlers' errors, docs/error-codes.md), never a client's, so they
 * stay few.
 */
class MethodSeries {
  private ok = 0;
  private readonly errors = new Map<number, number>();
  /** Per bucket of RPC_DURATION_BUCKETS, then one past the last (+Inf). */
  readonly buckets = new Float64Array(RPC_DURATION_BUCKETS.length + 1);
  sum = 0;
  calls = 0;

  constructor(readonly method: string) {}

  count(code: number | null): void {
    if (code === null) this.ok++;
    else this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
  }

  observe(seconds: number): void {
    let i = 0;
    while (i < RPC_DURATION_BUCKETS.length && seconds > (RPC_DURATION_BUCKETS[i] as number)) i++;
    this.buckets[i] = (this.buckets[i] ?? 0) + 1;
    this.sum += seconds;
    this.calls++;
  }

  /** Adds the counts to the calls counter (reset just before). */
  report(calls: Counter<'method' | 'code'>): void {
    if (this.ok > 0) calls.inc({ method: this.method, code: 'ok' }, this.ok);
    for (const [code, n] of this.errors) calls.inc({ method: this.method, code: String(code) }, n);
  }
}

const DURATIONS = 'chainrpc_node_rpc_call_duration_seconds';

/**
 * The call duration histogram in the text format (Prometheus exposition format 0.0.4: HELP, TYPE, cumulative
 * `_bucket` lines by `le` up to `+Inf`, `_sum`, `_count`), written from the methods' plain bucket counts. Written
 * here rather than kept in a prom-client Histogram, whose observe hashed each call's labels on the request path.
 */
function durationsText(series: Iterable<MethodSeries>): string {
  const lines = [
    `# HELP ${DURATIONS} Time from a JSON-RPC call's turn in the dispatcher to its outcome, in seconds, by method (${UNKNOWN_METHOD} as for chainrpc_node_rpc_calls_total).`,
    `# TYPE ${DURATIONS} histogram`,
  ];
  for (const s of series) {
    const method = `method="${labelValue(s.method)}"`;
    let cumulative = 0;
    RPC_DURATION_BUCKETS.forEach((le, i) => {
      cumulative += s.buckets[i] ?? 0;
      lines.push(`${DURATIONS}_bucket{le="${le}",${method}} ${cumulative}`);
    });
    lines.push(`${DURATIONS}_bucket{le="+Inf",${method}} ${s.calls}`, `${DURATIONS}_sum{${method}} ${s.sum}`, `${DURATIONS}_count{${method}} ${s.calls}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A label value escaped as the text format asks: backslash, double quote and line feed (the node's method names hold none). */
const labelValue = (v: string): string => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
