/**
 * The gate every peer message of a node passes, both ways (p2p/PeerLink.ts out, p2p/PeerServer.ts in): open by
 * default, at no cost. A run with faults (`chainrpc load --chaos partition|delay`, docs/chaos.md) closes it (a
 * partition: nothing in or out, as a cut cable) or slows it (a delay before each message, and a share of them
 * lost) from outside the process: it writes the gate's state to the file given with `--p2p-control` and sends
 * SIGUSR2. The gate sits in the node because a proxy on loopback could not tell its peers apart (every peer
 * connects from 127.0.0.1), and a partition is one node's links, both ways.
 */
import { readFileSync } from 'node:fs';

export interface PeerGateState {
  /** Nothing passes, either way. */
  partitioned: boolean;
  /** Each message waits this long before it goes (out) or is handled (in). */
  delayMs: number;
  /** The share of messages lost (0 to 1), each way. */
  loss: number;
}

export const OPEN_GATE: Readonly<PeerGateState> = Object.freeze({ partitioned: false, delayMs: 0, loss: 0 });

export class PeerGate {
  #state: PeerGateState = { ...OPEN_GATE };

  get state(): PeerGateState {
    return { ...this.#state };
  }

  set state(next: PeerGateState) {
    this.#state = { ...next };
  }

  /** Open, with no delay and no loss: a message passes without waiting (the honest path pays nothing). */
  get open(): boolean {
    const s = this.#state;
    return !s.partitioned && s.delayMs === 0 && s.loss === 0;
  }

  /** Whether one message passes: false when cut or lost; after the delay, when there is one. */
  async pass(): Promise<boolean> {
    const s = this.#state;
    if (s.partitioned || (s.loss > 0 && Math.random() < s.loss)) return false;
    if (s.delayMs > 0) await new Promise((r) => setTimeout(r, s.delayMs));
    return !this.#state.partitioned;
  }
}

/** A gate's state as written to its control file (`{"partitioned":true}`, `{"delayMs":200,"loss":0.1}`); throws what is wrong. */
export function readPeerGateFile(path: string): PeerGateState {
  const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${path}: a peer gate's state is a JSON object`);
  const { partitioned = false, delayMs = 0, loss = 0 } = value as Record<string, unknown>;
  if (typeof partitioned !== 'boolean') throw new Error(`${path}: partitioned must be true or false`);
  if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0 || delayMs > 60_000) throw new Error(`${path}: delayMs must be 0 to 60000`);
  if (typeof loss !== 'number' || !(loss >= 0 && loss <= 1)) throw new Error(`${path}: loss must be 0 to 1`);
  return { partitioned, delayMs, loss };
}
