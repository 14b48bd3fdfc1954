import { readFileSync } from 'node:fs';
import type { BaselineMark, CheckResult } from '../model.js';
import { matchesPattern } from './selectChecks.js';
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';

/** One expected failure: a check id (or glob), optionally for one node, with a reason and an expiry date. */
export interface BaselineEntry {
  id: string;
  node?: string;
  reason: string;
  /** YYYY-MM-DD: from that day on the entry no longer excuses the failure. */
  expires?: string;
}

/** An expected-failures file (--baseline of chainrpc test) that cannot be read (usage: exit 2). */
export class BaselineError extends ChainrpcError {
  override readonly name = 'BaselineError';
  readonly kind = 'usage';
}

/**
 * An expected-failures file: known failures that should not fail the run while they are being fixed.
 * A listed check that passes is reported as now-passing, so the file shrinks; an expired entry gates again.
 *
 *   { "expectedFailures": [ { "id": "transport/notification-empty-body", "reason": "fix in 2.1", "expires": "2027-03-01" } ] }
 */
export class Baseline {
  constructor(
    readonly path: string,
    readonly entries: BaselineEntry[],
  ) {}

  static load(path: string): Baseline {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new BaselineError(`cannot read baseline ${path}: ${(err as Error).message}`);
    }
    const list = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as { expectedFailures?: unknown }).expectedFailures : undefined;
    if (!Array.isArray(list)) throw new BaselineError(`baseline ${path} must be {"expectedFailures": [{"id", "reason", "expires"?, "node"?}, ...]}`);
    const entries = list.map((e, i): BaselineEntry => {
      if (typeof e !== 'object' || e === null) throw new BaselineError(`baseline ${path}: entry ${i} is not an object`);
      const { id, reason, expires, node } = e as Record<string, unknown>;
      if (typeof id !== 'string' || id === '') throw new BaselineError(`baseline ${path}: entry ${i} needs an "id" (a check id or glob)`);
      if (typeof reason !== 'string' || reason.trim() === '') throw new BaselineError(`baseline ${path}: entry ${i} (${id}) needs a "reason"`);
      if (expires !== undefined && (typeof expires !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(expires) || Number.isNaN(Date.parse(expires)))) {
        throw new BaselineError(`baseline ${path}: entry ${i} (${id}): "expires" must be a date YYYY-MM-DD`);
      }
      if (node !== undefined && typeof node !== 'string') throw new BaselineError(`baseline ${path}: entry ${i} (${id}): "node" must be a base URL`);
      return { id, reason, ...(typeof expires === 'string' ? { expires } : {}), ...(typeof node === 'string' ? { node: node.replace(/\/+$/, '') } : {}) };
    });
    return new Baseline(path, entries);
  }

  /** The entry that names a result, if any. */
  #entryOf(result: CheckResult): BaselineEntry | undefined {
    return this.entries.find((e) => matchesPattern(result.id, e.id) && (e.node === undefined || e.node === result.node));
  }

  /**
   * Once every result is in: a pass is "now passing" (remove the entry) only when its entry excuses no failure left
   * in the run. An entry without a node names the check on every node, and one node's pass while another still fails
   * must not advise removing it (an outside tester followed that advice and turned a certified run red).
   */
  settle(results: readonly CheckResult[]): void {
    const stillNeeded = new Set(results.filter((r) => r.baseline !== undefined && r.baseline.state !== 'now-passing').map((r) => this.#entryOf(r)));
    for (const r of results) {
      if (r.baseline?.state === 'now-passing' && stillNeeded.has(this.#entryOf(r))) delete r.baseline;
    }
  }

  /** How the baseline sees a result, or undefined when no entry names it (settle() then judges the run's passes together). */
  mark(result: CheckResult, today: Date = new Date()): BaselineMark | undefined {
    const entry = this.#entryOf(result);
    if (!entry) return undefined;
    const expired = entry.expires !== undefined && today.getTime() >= Date.parse(`${entry.expires}T00:00:00Z`);
    const base = { reason: entry.reason, ...(entry.expires === undefined ? {} : { expires: entry.expires }) };
    if (result.status === 'pass') return { ...base, state: 'now-passing' };
    if (result.status === 'skip') return undefined;
    return { ...base, state: expired ? 'expired' : 'expected-fail' };
  }
}
