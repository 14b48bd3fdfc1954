/**
 * What the varying node remembers about the calls of one HTTP request, so that each response, matched
 * by id, is rewritten for the method it answers. Ids may repeat inside a batch (clients should not, but
 * may): calls under one id are kept in order and taken in order, the order a node answers in.
 */
import { stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';

export interface CallRecord {
  /** The method upstream runs (after any renaming). */
  readonly method: string;
  /** The positional params as forwarded (after any rewriting); undefined when they were not an array. */
  readonly params: readonly JsonValue[] | undefined;
  /** genesis-at-1: the height the client asked for, before the shift (errors report it back). */
  readonly clientHeight?: JsonValue;
}

export class CallBook {
  private readonly calls = new Map<string, CallRecord[]>();

  /** Notes a call that expects an answer (it has an id). */
  add(id: JsonValue, call: CallRecord): void {
    const key = stringifyJson(id);
    const list = this.calls.get(key);
    if (list === undefined) this.calls.set(key, [call]);
    else list.push(call);
  }

  /** The call an answer with this id answers, taken so that a repeated id gets the next one. */
  take(id: JsonValue | undefined): CallRecord | undefined {
    if (id === undefined) return undefined;
    const key = stringifyJson(id);
    const list = this.calls.get(key);
    const call = list?.shift();
    if (list?.length === 0) this.calls.delete(key);
    return call;
  }
}
