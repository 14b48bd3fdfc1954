import { schemaCatalog } from '../core/schema/schemaCatalog.js';
import type { JsonValue } from '../core/json/index.js';

let names: string[] | undefined;

/** Every property name under a schema node (objects' `properties`, recursively). */
function collect(node: JsonValue | undefined, out: Set<string>): void {
  if (Array.isArray(node)) {
    for (const n of node) collect(n, out);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'x-examples') continue;
    if (key === 'properties' && typeof value === 'object' && value !== null && !Array.isArray(value)) for (const name of Object.keys(value)) out.add(name);
    collect(value, out);
  }
}

/**
 * Fields of result forms a profile may choose and the reference profile's schemas do not have: `count`, the
 * member of net_peerCount's result that holds the count where the result is an object (peerCountResult).
 */
export const PROFILE_FORM_FIELDS: readonly string[] = ['count'];

/**
 * The field names of the interface's results, as the spec and the reference profile spell them
 * (snake_case): every property of the shared definitions and of each method's result, from schemas/,
 * and the fields of the result forms a profile may choose (PROFILE_FORM_FIELDS). A profile's `fields`
 * map is keyed by these.
 */
export function resultFieldNames(): string[] {
  if (names) return names;
  const catalog = schemaCatalog();
  const out = new Set<string>(PROFILE_FORM_FIELDS);
  const defs = catalog.defs.definitions as Record<string, JsonValue> | undefined;
  for (const [name, def] of Object.entries(defs ?? {})) if (!name.endsWith('Params')) collect(def, out);
  for (const m of catalog.methods) {
    if (m.title === 'rpc.discover') continue;
    collect(m.definitions.result as unknown as JsonValue, out);
    collect(m.definitions.specResult as unknown as JsonValue, out);
  }
  names = [...out].sort();
  return names;
}
