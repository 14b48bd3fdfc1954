/**
 * The closed model's loops: each connection sends its next request when the last one is answered, from the
 * warm-up's start to the measured window's planned end. Nothing is scheduled, so nothing is late or dropped;
 * a slow node slows the loops down (coordinated omission, the model's nature: docs/load.md).
 */
import type { Exchange } from '../metrics/classifyExchange.js';
import type { HttpConnection } from './HttpConnection.js';
import type { InFlight, Sender, SenderHost } from './Sender.js';

export class ClosedLoops implements Sender {
  readonly #host: SenderHost;
  readonly #connections: number;
  #end: NodeJS.Timeout | undefined;

  constructor(host: SenderHost, connections: number) {
    this.#host = host;
    this.#connections = connections;
  }

  begin(): void {
    const host = this.#host;
    this.#end = setTimeout(() => host.stopSending({ reason: 'completed', atMs: Math.round(performance.now() - host.measureStart) }, Infinity), Math.max(0, host.measureEnd - performance.now()));
    for (let i = 0; i < this.#connections; i++) this.#loop(host.newConnection());
  }

  #loop(connection: HttpConnection<InFlight>): void {
    const host = this.#host;
    if (!host.sending || connection.busy) return;
    const t = performance.now();
    if (t >= host.measureEnd) {
      host.stopSending({ reason: 'completed', atMs: Math.round(t - host.measureStart) }, Infinity);
      return;
    }
    const request = host.next();
    if (host.failed) return;
    if (request === null) {
      // The source is busy: try again shortly (nothing was due, so nothing is dropped).
      setTimeout(() => this.#loop(connection), 1);
      return;
    }
    if (request === undefined) {
      host.sourceRanOut(t);
      return;
    }
    const measured = t >= host.measureStart;
    host.recorder.scheduled(measured);
    host.inFlight++;
    host.write(connection, { request, scheduledMs: t, measured });
  }

  freed(connection: HttpConnection<InFlight>, exchange: Exchange): void {
    // After a transport failure a loop pauses, rather than spinning on a refused port.
    if (exchange.kind === 'transport') setTimeout(() => this.#loop(connection), 5);
    else this.#loop(connection);
  }

  halt(): void {
    if (this.#end !== undefined) clearTimeout(this.#end);
  }

  dropWaiting(): number {
    return 0;
  }
}
