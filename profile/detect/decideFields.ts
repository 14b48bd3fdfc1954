import type { JsonValue } from '../../core/json/index.js';
import { camelCase } from '../Profile.js';
import { shortHex } from './describe.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { findKeys, RESULT_FIELDS } from './findKeys.js';
import type { KeyMatch } from './findKeys.js';
import { isObject } from './Prober.js';

/** One result object the node answered, and the fields the reference result of that call has. */
export interface FieldObservation {
  /** The call that produced it, for evidence ("chain_getBlockByHeight [12]"). */
  readonly source: string;
  readonly result: JsonValue;
  readonly names: readonly string[];
  /** Keys already decided by value (the key of a transaction result that holds the hash). */
  readonly known?: Readonly<Record<string, string>>;
}

export interface FieldsDecision {
  keyCase: 'snake_case' | 'camelCase';
  /** The profile's `fields`: only the exceptions to keyCase, null for fields the node does not have. */
  fields: Record<string, string | null>;
  /** The node's key per spec field (null: has none); fields never seen are left out. */
  keys: Record<string, string | null>;
  findings: Finding[];
}

const ALL_FIELDS = [...new Set(Object.values(RESULT_FIELDS).flat())].sort();

/**
 * Result keys (spec rule 3: "The exact key names and casing on the wire: not shown"): for each field the
 * reference result has, the node's key in the first result that has it. keyCase is camelCase when the
 * multi-word fields found by name (not by synonym) are mostly camelCase; `fields` then holds only the
 * keys keyCase does not produce, and null for a field a result was seen without.
 */
export function decideFields(observations: readonly FieldObservation[]): FieldsDecision {
  const found = new Map<string, { match: KeyMatch; source: string }>();
  const absentFrom = new Map<string, string>();
  for (const o of observations) {
    if (!isObject(o.result)) continue;
    const matches = findKeys(o.result, o.names);
    for (const name of o.names) {
      const known = o.known?.[name];
      const match: KeyMatch = known !== undefined ? { key: known, how: 'exact' } : (matches[name] ?? { key: null, how: 'absent' });
      if (match.key === null) {
        if (!absentFrom.has(name)) absentFrom.set(name, o.source);
      } else if (!found.has(name)) {
        found.set(name, { match, source: o.source });
      }
    }
  }
  // keyCase from the multi-word fields found by their own name.
  let snake = 0;
  let camel = 0;
  for (const [name, { match }] of found) {
    if (!name.includes('_') || match.how === 'synonym') continue;
    if (match.key === name) snake++;
    else if (match.key === camelCase(name)) camel++;
  }
  const keyCase = camel > snake ? 'camelCase' : 'snake_case';
  const expected = (name: string): string => (keyCase === 'camelCase' ? camelCase(name) : name);
  const findings: Finding[] = [];
  const multi = snake + camel;
  findings.push(
    multi === 0
      ? fallback('keyCase', keyCase, 'no multi-word field was found by name; the spec spells fields in snake_case')
      : probed('keyCase', keyCase, camel === 0 || snake === 0 ? 'high' : 'medium', `of ${multi} multi-word field(s) found by name, ${snake} snake_case and ${camel} camelCase`),
  );
  const fields: Record<string, string | null> = {};
  const keys: Record<string, string | null> = {};
  for (const name of ALL_FIELDS) {
    const hit = found.get(name);
    const missing = absentFrom.get(name);
    if (hit !== undefined) {
      const key = hit.match.key as string;
      keys[name] = key;
      if (key !== expected(name)) fields[name] = key;
      const how = hit.match.how === 'synonym' ? `a known synonym of ${name}` : hit.match.how === 'spelling' ? `${name} in another spelling` : hit.match.how === 'camelCase' ? 'camelCase' : 'as the spec names it';
      findings.push(probed(`fields.${name}`, key, hit.match.how === 'synonym' ? 'medium' : 'high', `${shortHex(hit.source)}: key "${key}" (${how})`, false));
    } else if (missing !== undefined) {
      keys[name] = null;
      fields[name] = null;
      findings.push(probed(`fields.${name}`, null, 'medium', `${shortHex(missing)}: no key for ${name} (nor ${expected(name) === name ? 'its camelCase' : name} or a known synonym): the node has no such field`, false));
    } else {
      findings.push(fallback(`fields.${name}`, expected(name), 'no result that carries it was read', false));
    }
  }
  const exceptions = Object.entries(fields).map(([k, v]) => `${k} -> ${v === null ? 'none' : v}`);
  const guessed = [...found.values()].some((f) => f.match.how === 'synonym') || absentFrom.size > 0;
  findings.push(probed('fields', fields, found.size === 0 ? 'low' : guessed ? 'medium' : 'high', exceptions.length === 0 ? `every field found is spelled as keyCase (${keyCase}) says` : `exceptions to ${keyCase}: ${exceptions.join(', ')}`));
  return { keyCase, fields, keys, findings };
}
