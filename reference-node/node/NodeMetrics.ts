/**
 * The node's metrics in the Prometheus text format (docs/reference-node.md#metrics), served by the RPC
 * server at GET /metrics: the process's default metrics and this node's own, `chainrpc_node_*`.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
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
 * one to a plain number, handed to the counter when scraped, and its duration to the histogram through a child
 * made once per method: on the request path only the histogram's own work is prom-client's.
 */
export class NodeMetrics implements MetricsSource {
  private readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private readonly durations: Histogram<'method'>;
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
    this.durations = new Histogram({
      name: 'chainrpc_node_rpc_call_duration_seconds',
      help: `Time from a JSON-RPC call's turn in the dispatcher to its outcome, in seconds, by method (${UNKNOWN_METHOD} as for chainrpc_node_rpc_calls_total).`,
      labelNames: ['method'],
      buckets: [...RPC_DURATION_BUCKETS],
      registers,
    });
  }

  /** The RPC server's OnSettled: counts the call and its duration. An arrow, so that it is passed without a bind. */
  readonly settled: OnSettled = (method, code, seconds) => {
    const series = this.seriesOf(method ?? UNKNOWN_METHOD);
    series.count(code);
    series.duration.observe(seconds);
  };

  /** The exposition text: the process's metrics, then this node's. */
  text(): Promise<string> {
    this.exposed ??= Registry.merge([processMetrics(), this.registry]);
    return this.exposed.metrics();
  }

  private seriesOf(method: string): MethodSeries {
    let series = this.series.get(method);
    if (series === undefined) {
      series = new MethodSeries(method, this.durations.labels(method));
      this.series.set(method, series);
    }
    return series;
  }
}

/**
 * One method's calls: plain counts by outcome (numbers in a Map by code: counting allocates nothing), and its
 * child of the duration histogram. The codes are the node's own (the dispatcher's and the handlers' errors,
 * docs/error-codes.md), never a client's, so they stay few.
 */
class MethodSeries {
  private ok = 0;
  private readonly errors = new Map<number, number>();

  constructor(
    private readonly method: string,
    readonly duration: Histogram.Internal<'method'>,
  ) {}

  count(code: number | null): void {
    if (code === null) this.ok++;
    else this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
  }

  /** Adds the counts to the calls counter (reset just before). */
  report(calls: Counter<'method' | 'code'>): void {
    if (this.ok > 0) calls.inc({ method: this.method, code: 'ok' }, this.ok);
    for (const [code, n] of this.errors) calls.inc({ method: this.method, code: String(code) }, n);
  }
}
