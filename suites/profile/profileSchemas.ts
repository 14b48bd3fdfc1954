/**
 * A profile's exact choices as JSON Schema: the documents of schemas/ with the reference profile's
 * choices replaced by the profile's (hex case, integer encoding, identifiers, scores, timestamps,
 * health values, key names, result shapes). PROFILE checks validate results against them, so the
 * schemas stay the single source of every shape, and a profile only names what differs.
 */
import type { JsonValue } from '../../core/json/index.js';
import { schemaCatalog } from '../../core/schema/schemaCatalog.js';
import type { SchemaDocument } from '../../core/schema/schemaCatalog.js';
import { validatorsFor } from '../../core/schema/validators.js';
import type { Validators } from '../../core/schema/validators.js';
import type { Profile } from './Profile.js';
import { wireField } from './Profile.js';

type Obj = { [key: string]: JsonValue };
const isObj = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** ISO 8601 date and time with a zone (RFC 3339 §5.6, the profile's 'iso8601' timestamps). */
const ISO_8601 = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$';

/** The profile's choices that shape results: two profiles with the same key share validators. */
function shapeKey(p: Profile): string {
  return JSON.stringify([p.keyCase, p.fields, p.hexCase, p.integers, p.identifiers, p.scores, p.timestamps, p.health, p.txResult, p.faucetCredit]);
}

/** Renames an object schema's properties (and required) to the profile's wire keys; drops fields the node lacks. */
function renameProperties(schema: Obj, profile: Profile): void {
  const props = schema.properties;
  if (isObj(props)) {
    const renamed: Obj = {};
    for (const [name, sub] of Object.entries(props)) {
      const wire = wireField(profile, name);
      if (wire !== null) renamed[wire] = sub;
    }
    schema.properties = renamed;
  }
  const required = schema.required;
  if (Array.isArray(required)) {
    schema.required = required.flatMap((name) => {
      const wire = typeof name === 'string' ? wireField(profile, name) : null;
      return wire === null ? [] : [wire];
    });
  }
}

/** The schema documents of schemas/ with the profile's choices in place of the reference profile's. */
export function profileDocuments(profile: Profile): SchemaDocument[] {
  const docs = structuredClone(schemaCatalog().all);
  const defs = docs.find((d) => d.$id.endsWith('/defs.schema.json'))?.definitions;
  if (!isObj(defs)) throw new Error('schemas/defs.schema.json has no definitions');
  const def = (name: string): Obj => {
    const d = defs[name];
    if (!isObj(d)) throw new Error(`schemas/defs.schema.json has no definition ${name}`);
    return d;
  };

  const hex = def('Hex64Lower');
  if (profile.hexCase === 'upper') Object.assign(hex, { pattern: '^[0-9A-F]{64}$', 'x-expect': '64 upper-case hexadecimal characters' });
  if (profile.hexCase === 'any') Object.assign(hex, { pattern: '^[0-9a-fA-F]{64}$', 'x-expect': '64 hexadecimal characters' });
  if (profile.identifiers === 'string') defs.PeerIdentifier = { title: 'PeerIdentifier', type: 'string', minLength: 16, 'x-expect': 'a string of at least 16 characters' };
  if (profile.integers === 'hex') {
    defs.U64 = { title: 'U64', type: 'string', pattern: '^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,15})$', 'x-expect': 'an unsigned 64-bit integer as a hex quantity (0x1f, no leading zeros)' };
  }
  if (profile.timestamps === 'iso8601') defs.Timestamp = { title: 'Timestamp', type: 'string', pattern: ISO_8601, 'x-expect': 'an ISO 8601 date and time with a zone (2026-11-23T10:00:00Z)' };
  if (profile.scores === 'number') defs.Score = { title: 'Score', type: 'number', 'x-expect': 'a number' };
  def('NodeKind').enum = profile.health.mode;
  renameProperties(def('Block'), profile);
  renameProperties(def('Account'), profile);

  for (const doc of docs) {
    const method = doc.title;
    const definitions = doc.definitions;
    const result = isObj(definitions) ? definitions.result : undefined;
    if (!isObj(definitions) || !isObj(result) || !doc.$id.includes('/methods/')) continue;
    if (method === 'chain_health' && isObj(result.properties) && isObj(result.properties.status)) result.properties.status.enum = profile.health.status;
    if (method === 'chain_sendRawTransaction' && profile.txResult === 'object') {
      const key = wireField(profile, 'transaction_hash') ?? 'transaction_hash';
      definitions.result = { title: result.title ?? null, type: 'object', required: [key], properties: { [key]: { $ref: '../defs.schema.json#/definitions/Hash' } } };
      continue;
    }
    renameProperties(result, profile);
  }
  return docs;
}

const cache = new Map<string, Validators>();

/** Validators for the profile's exact choices (compiled once per set of choices). */
export function profileValidators(profile: Profile): Validators {
  const key = shapeKey(profile);
  let v = cache.get(key);
  if (!v) {
    v = validatorsFor(profileDocuments(profile));
    cache.set(key, v);
  }
  return v;
}
