import type { JsonValue } from '../json/index.js';
import type { BatchIdProblems } from './TransportError.js';
import type { BatchOutcome } from './types.js';
import { short, validateResponse } from './validateResponse.js';

export type BatchMatch =
  | { readonly ok: true; readonly outcomes: BatchOutcome[] }
  | { readonly ok: false; readonly problems: readonly string[]; readonly ids: BatchIdProblems };

/**
 * Matches a batch response to the ids sent (JSON-RPC 2.0 §6: responses may come in any order,
 * matched by id) and returns outcomes in request order. Every response must be valid, carry an id
 * that was sent, and no id may be answered twice or not at all; otherwise the whole batch is a
 * protocol failure, with every problem listed.
 */
export function matchBatch(value: JsonValue, ids: readonly number[]): BatchMatch {
  if (!Array.isArray(value)) {
    const got = value === null ? 'null' : typeof value === 'object' ? 'an object' : typeof value;
    return {
      ok: false,
      problems: [`expected a JSON array of responses for the batch, got ${got}`],
      ids: { missing: [...ids], duplicated: [], unexpected: [] },
    };
  }
  const position = new Map<number, number>(ids.map((id, i) => [id, i]));
  const slots: (BatchOutcome | undefined)[] = ids.map(() => undefined);
  const seen = new Set<number>();
  const duplicated = new Set<number>();
  const unexpected: JsonValue[] = [];
  const problems: string[] = [];

  value.forEach((element, i) => {
    const checked = validateResponse(element);
    const id = checked.kind === 'invalid' ? rawId(element) : checked.id;
    const at = typeof id === 'number' ? position.get(id) : undefined;
    if (checked.kind === 'invalid') problems.push(`element ${i}: ${checked.problem}`);
    if (at === undefined || typeof id !== 'number') {
      // An invalid element without a usable id is already reported above.
      if (checked.kind !== 'invalid' || id !== undefined) unexpected.push(id ?? null);
      return;
    }
    if (seen.has(id)) {
      duplicated.add(id);
      return;
    }
    seen.add(id);
    if (checked.kind === 'result') slots[at] = { ok: true, result: checked.result };
    else if (checked.kind === 'error') slots[at] = { ok: false, error: checked.error };
  });

  const missing = ids.filter((id) => !seen.has(id));
  if (missing.length > 0) problems.push(`no response for id ${missing.join(', ')}`);
  if (duplicated.size > 0) problems.push(`more than one response for id ${[...duplicated].join(', ')}`);
  if (unexpected.length > 0) problems.push(`response for id ${unexpected.map(short).join(', ')}, which was not sent`);
  if (problems.length > 0) return { ok: false, problems, ids: { missing, duplicated: [...duplicated], unexpected } };
  return { ok: true, outcomes: slots.filter((slot): slot is BatchOutcome => slot !== undefined) };
}

/** The id member of an element that failed validation, if it has one. */
function rawId(element: JsonValue): JsonValue | undefined {
  if (typeof element !== 'object' || element === null || Array.isArray(element) || !Object.hasOwn(element, 'id')) return undefined;
  return element['id'];
}
