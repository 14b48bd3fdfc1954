import { JsonRpcError, RpcClient } from '../../core/client/index.js';
import type { JsonValue } from '../../core/json/index.js';
import type { Profile } from '../../profile/Profile.js';
import { wireMethod } from '../../profile/Profile.js';
import { asInteger } from '../../profile/readWire.js';
import { forEachLimit } from '../corpus/forEachLimit.js';
import { parseAccount } from './parseAccount.js';
import type { AccountState } from './parseAccount.js';

/**
 * The reads that follow a chain, through the profile's method and field names: the tip, blocks and
 * accounts, several at once as one JSON-RPC batch (the spec's batches; `perRequest` bounds them).
 * Given several nodes of one chain, it reads from the first, and from the next when a read fails for want of
 * an answer (a node killed in a run with faults): the chain is followed as long as one of them answers.
 */
export class ChainReader {
  private readonly clients: RpcClient[];
  private current = 0;

  constructor(
    urls: string | readonly string[],
    readonly profile: Profile,
    timeoutMs: number,
    private readonly perRequest: number,
    /** Requests at once when a read takes several. */
    private readonly concurrency = 4,
  ) {
    const list = typeof urls === 'string' ? [urls] : urls;
    if (list.length === 0) throw new Error('ChainReader needs a node to read');
    this.clients = list.map((url) => new RpcClient({ baseUrl: url, rpcPath: profile.rpcPath, timeoutMs, connections: 4 }));
  }

  private get client(): RpcClient {
    return this.clients[this.current] as RpcClient;
  }

  /** `read` from the current node, else from each other in turn when it gets no JSON-RPC answer; the last failure is thrown. */
  private async failingOver<T>(read: () => Promise<T>): Promise<T> {
    for (let tried = 1; ; tried++) {
      try {
        return await read();
      } catch (err) {
        if (err instanceof JsonRpcError || tried >= this.clients.length) throw err;
        this.current = (this.current + 1) % this.clients.length;
      }
    }
  }

  /** The latest height. */
  async tip(): Promise<number> {
    const result = await this.failingOver(() => this.client.call<JsonValue>(wireMethod(this.profile, 'chain_blockNumber')));
    const height = asInteger(result);
    if (height === undefined) throw new Error(`${wireMethod(this.profile, 'chain_blockNumber')} answered ${JSON.stringify(result, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}, not a height`);
    return Number(height);
  }

  /** Blocks by height, in the order asked; a block the node could not give is undefined. */
  async blocks(heights: readonly number[]): Promise<(JsonValue | undefined)[]> {
    const method = wireMethod(this.profile, 'chain_getBlockByHeight');
    return this.many(heights, (h) => ({ method, params: [h] }));
  }

  /** Accounts by address, in the order asked; undefined where the answer was no account. */
  async accounts(addresses: readonly string[]): Promise<(AccountState | undefined)[]> {
    const method = wireMethod(this.profile, 'chain_getAccount');
    const results = await this.many(addresses, (a) => ({ method, params: [a] }));
    return results.map((r) => (r === undefined ? undefined : parseAccount(this.profile, r)));
  }

  private async many<T>(items: readonly T[], call: (item: T) => { method: string; params: unknown[] }): Promise<(JsonValue | undefined)[]> {
    const chunks: T[][] = [];
    for (let i = 0; i < items.length; i += this.perRequest) chunks.push(items.slice(i, i + this.perRequest));
    const answers: (JsonValue | undefined)[][] = new Array<(JsonValue | undefined)[]>(chunks.length);
    await forEachLimit(chunks, this.concurrency, async (chunk, c) => {
      if (chunk.length === 1) {
        const only = call(chunk[0] as T);
        // A JSON-RPC error is "not this one"; a transport failure (the node is gone) is thrown.
        const result = await this.failingOver(() => this.client.call<JsonValue>(only.method, only.params)).catch((err: unknown) => {
          if (err instanceof JsonRpcError) return undefined;
          throw err;
        });
        answers[c] = [result];
        return;
      }
      const outcomes = await this.failingOver(() => this.client.batch(chunk.map(call)));
      answers[c] = outcomes.map((o) => (o.ok ? (o.result as JsonValue) : undefined));
    });
    return answers.flat();
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.close()));
  }
}
