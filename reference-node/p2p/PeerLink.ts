import { createClient } from '../../core/client/index.js';
import type { RpcClient } from '../../core/client/index.js';
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import type { PeerGate } from './PeerGate.js';

/** Most bytes a peer's answer may carry (a sync batch of full blocks). */
export const P2P_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * The outbound side of one peer: a keep-alive connection (the project's undici client) and an
 * ordered queue, one message in flight at a time, so a sender's transactions reach each peer in the
 * order this node admitted them. A failed send is dropped, not retried: peers catch up through
 * block sync, and a node must never block on a dead peer.
 */
export class PeerLink {
  private readonly client: RpcClient;
  private readonly queue: { path: string; body: JsonValue; onAnswer?: ((answer: JsonValue) => void) | undefined }[] = [];
  private pendingTxs: string[] = [];
  private sending = false;
  private closed = false;

  constructor(
    readonly url: string,
    private readonly selfId: string,
    private readonly timeoutMs: number,
    /** The node's peer gate (open unless a run with faults closes it: PeerGate.ts). */
    private readonly gate?: PeerGate,
  ) {
    this.client = createClient({ baseUrl: url, timeoutMs, connections: 2, maxResponseBytes: P2P_MAX_RESPONSE_BYTES });
  }

  /** One request, answered: used for hello, sync and faucet forwarding. Throws when the peer cannot be reached. */
  async request(path: string, body?: JsonValue, timeoutMs = this.timeoutMs): Promise<JsonValue> {
    if (this.gate !== undefined && !this.gate.open && !(await this.gate.pass())) throw new Error(`peer ${this.url}: the link is cut (a partition, or a message lost)`);
    const res = await this.client.raw({
      path,
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined ? {} : { body: stringifyJson(body), headers: { 'content-type': 'application/json' } }),
      timeoutMs,
      maxBodyBytes: P2P_MAX_RESPONSE_BYTES,
    });
    if (res.status !== 200) throw new Error(`peer ${this.url} answered ${path} with HTTP ${res.status}: ${res.text.slice(0, 200)}`);
    return res.json ?? parseJson(res.text);
  }

  /** Queues transactions; consecutive ones travel together in one message. */
  sendTransactions(wires: readonly string[]): void {
    if (this.closed) return;
    this.pendingTxs.push(...wires);
    this.pump();
  }

  /** Queues a message after everything queued before it; `onAnswer` hears the peer's answer, if one comes. */
  send(path: string, body: JsonValue, onAnswer?: (answer: JsonValue) => void): void {
    if (this.closed) return;
    this.flushTxs();
    this.queue.push({ path, body, onAnswer });
    this.pump();
  }

  private flushTxs(): void {
    if (this.pendingTxs.length > 0) {
      this.queue.push({ path: '/p2p/txs', body: { from: this.selfId, txs: this.pendingTxs } });
      this.pendingTxs = [];
    }
  }

  private pump(): void {
    if (this.sending) return;
    this.flushTxs();
    const next = this.queue.shift();
    if (!next) return;
    this.sending = true;
    this.request(next.path, next.body)
      .then((answer) => {
        if (!this.closed) next.onAnswer?.(answer);
      })
      .catch(() => undefined)
      .finally(() => {
        this.sending = false;
        this.pump();
      });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    this.pendingTxs = [];
    await this.client.close();
  }
}
