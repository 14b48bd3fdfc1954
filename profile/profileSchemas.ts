/**
 * A profile's exact choices as JSON Schema: the documents of schemas/ with the reference profile's
 * choices replaced by the profile's (hex case, integer encoding, identifiers, scores, timestamps,
 * health values, key names, result shapes). PROFILE checks validate results against them, so the
 * schemas stay the single source of every shape, and a profile only names what differs.
 */
import type { JsonValue } from '../core/json/index.js';
import { schemaCatalog } from '../core/schema/schemaCatalog.js';
import type { SchemaDocument } from '../core/schema/schemaCatalog.js';
import { validatorsFor } from '../core/schema/validators.js';
import type { Validators } from '../core/schema/validators.js';
import type { IntegerEncoding, Profile } from './Profile.js';
import { integersOf, wireField } from './Profile.js';

type Obj = { [key: string]: JsonValue };
const isObj = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** ISO 8601 date and time with a zone (RFC 3339 §5.6, the profile's 'iso8601' timestamps). */
const ISO_8601 = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$';

/** The profile's choices that shape results: two profiles with the same key share validators. */
function shapeKey(p: Profile): string {
  return JSON.stringify([p.keyCase, p.fields, p.hexCase, p.integers, p.methodIntegers, p.identifiers, p.scores, p.timestamps, p.health, p.txResult, p.faucetCredit, p.genesisBlock, p.hashPrefix, p.faucetResult, p.peerCountResult, p.blockTransactions]);
}

/** How one method schema refers to a shared definition (schemas/methods/*.schema.json). */
const DEFS_REF = '../defs.schema.json#/definitions/';
/** The definitions a profile adds for methods that write integers otherwise than the profile's `integers` (methodIntegers). */
const U64_BY_ENCODING: Readonly<Record<IntegerEncoding, string>> = { number: 'U64Number', hex: 'U64Hex' };
const U64_HEX: Obj = { title: 'U64', type: 'string', pattern: '^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,15})$', 'x-expect': 'an unsigned 64-bit integer as a hex quantity (0x1f, no leading zeros)' };

/**
 * A pattern for the decimal strings of 0 to `max` ("0", or no leading zeros), exact to the last digit: any shorter
 * number, or one of max's length below it at its first smaller digit, or max itself.
 */
function decimalUpTo(max: bigint): string {
  const digits = max.toString();
  const last = digits.length - 1;
  const ways = ['0', ...(last === 0 ? [] : [last === 1 ? '[1-9]' : `[1-9][0-9]{0,${last - 1}}`])];
  for (let i = 0; i <= last; i++) {
    const low = i === 0 ? 1 : 0;
    const digit = Number(digits[i]);
    const rest = last - i === 0 ? '' : last - i === 1 ? '[0-9]' : `[0-9]{${last - i}}`;
    if (digit > low) ways.push(`${digits.slice(0, i)}${digit - 1 === low ? low : `[${low}-${digit - 1}]`}${rest}`);
  }
  ways.push(digits);
  return `^(${ways.join('|')})$`;
}

/** net_peerCount's result under peerCountResult "decimal": the count as a decimal string of a u64 (methodIntegers does not apply). */
const PEER_COUNT_DECIMAL: Obj = {
  type: 'string',
  pattern: decimalUpTo((1n << 64n) - 1n),
  'x-expect': 'the peer count as a decimal string of an unsigned 64-bit integer ("2": "0" or no leading zeros, at most "18446744073709551615")',
};

/** The definition of the genesis block (chain_getBlockByHeight's result at the genesis height, with the profile's genesisBlock forms). */
export const GENESIS_DEFINITION = 'genesisResult';

/** The shared definition a $ref names: from a method document (../defs.schema.json#/definitions/X) or inside defs (#/definitions/X). */
function defName(ref: string, inDefs: boolean): string | undefined {
  const prefix = inDefs ? '#/definitions/' : DEFS_REF;
  return ref.startsWith(prefix) ? ref.slice(prefix.length) : undefined;
}

/** Whether a shared definition holds a U64 anywhere under it (through other definitions too). */
function reachesU64(defs: Obj, name: string, seen: Set<string> = new Set()): boolean {
  if (name === 'U64') return true;
  if (seen.has(name)) return false;
  seen.add(name);
  const walk = (node: JsonValue | undefined): boolean => {
    if (Array.isArray(node)) return node.some(walk);
    if (!isObj(node)) return false;
    if (typeof node.$ref === 'string') {
      const target = defName(node.$ref, true);
      if (target !== undefined && reachesU64(defs, target, seen)) return true;
    }
    return Object.entries(node).some(([k, v]) => k !== 'x-examples' && k !== 'enum' && k !== 'const' && walk(v));
  };
  return walk(defs[name]);
}

/**
 * A schema node of a method document, with the shared definitions it refers to inlined where they hold
 * a U64 (a block, an account, a timestamp, a score), and every U64 written in `encoding`. References
 * to definitions without one stay references (a definition inlined from defs gets its own references
 * made relative to the method document).
 */
function withIntegers(node: JsonValue, defs: Obj, encoding: IntegerEncoding, inDefs: boolean): JsonValue {
  if (Array.isArray(node)) return node.map((n) => withIntegers(n, defs, encoding, inDefs));
  if (!isObj(node)) return node;
  if (typeof node.$ref === 'string') {
    const name = defName(node.$ref, inDefs);
    if (name === 'U64') return { ...node, $ref: DEFS_REF + U64_BY_ENCODING[encoding] };
    if (name !== undefined && reachesU64(defs, name)) return withIntegers(structuredClone(defs[name] ?? {}), defs, encoding, true);
    if (inDefs && node.$ref.startsWith('#/')) return { ...node, $ref: `../defs.schema.json${node.$ref}` };
    return node;
  }
  const out: Obj = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'x-examples' || key === 'enum' || key === 'const' ? value : withIntegers(value, defs, encoding, inDefs);
  return out;
}

/**
 * chain_getBlockByHeight's result at the genesis height: the block as the profile writes every block,
 * with the genesis block's own forms (genesisBlock) for parent_hash, proposer and timestamp. Exact
 * values (64 zeros, timestamp 0) and absent keys are the genesis check's to judge; this says the types.
 */
function genesisSchema(result: Obj, defs: Obj, profile: Profile): Obj {
  // The block inlined (its U64s in the method's own encoding), so that its properties can change.
  const encoding = integersOf(profile, 'chain_getBlockByHeight');
  let block = withIntegers(result, defs, encoding, false);
  const name = isObj(block) && typeof block.$ref === 'string' ? defName(block.$ref, false) : undefined;
  if (name !== undefined) block = withIntegers(structuredClone(defs[name] ?? {}), defs, encoding, true);
  if (!isObj(block) || !isObj(block.properties)) throw new Error('chain_getBlockByHeight\'s result is not an object schema with properties');
  const props = block.properties;
  const forms: Array<[string, string]> = [
    ['parent_hash', profile.genesisBlock.parent_hash],
    ['proposer', profile.genesisBlock.proposer],
    ['timestamp', profile.genesisBlock.timestamp],
  ];
  const dropped = new Set<string>();
  for (const [name, form] of forms) {
    const wire = wireField(profile, name);
    if (wire === null) continue;
    if (form === 'empty') props[wire] = { type: 'string', const: '', 'x-expect': 'an empty string' };
    else if (form === 'null') props[wire] = { type: 'null' };
    else if (form === 'absent') {
      delete props[wire];
      dropped.add(wire);
    }
  }
  if (Array.isArray(block.required)) block.required = block.required.filter((k) => typeof k !== 'string' || !dropped.has(k));
  return { ...block, title: 'ChainGetBlockByHeightGenesisResult' };
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

/** The hex digits of the profile's hexCase, as a character class. */
const HEX_CLASS: Readonly<Record<Profile['hexCase'], string>> = { lower: '[0-9a-f]', upper: '[0-9A-F]', any: '[0-9a-fA-F]' };
const CASE_WORDS: Readonly<Record<Profile['hexCase'], string>> = { lower: ' lower-case', upper: ' upper-case', any: '' };

/** A hash as the profile writes it: 64 hex digits of its case, with the 0x its hashPrefix says (a must with '0x', either way with 'any'). */
function hashDefinition(profile: Profile): Obj {
  const digits = `${HEX_CLASS[profile.hexCase]}{64}`;
  const prefixed = profile.hashPrefix === '0x';
  return {
    title: 'Hash',
    type: 'string',
    pattern: prefixed ? `^0x${digits}$` : `^(0x)?${digits}$`,
    'x-expect': prefixed ? `0x followed by 64${CASE_WORDS[profile.hexCase]} hexadecimal characters` : `64${CASE_WORDS[profile.hexCase]} hexadecimal characters, with or without 0x`,
  };
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

  // Both encodings of a U64, for methods whose integers differ from the profile's (methodIntegers).
  defs[U64_BY_ENCODING.number] = { ...def('U64') };
  defs[U64_BY_ENCODING.hex] = { ...U64_HEX };
  const hex = def('Hex64Lower');
  if (profile.hexCase === 'upper') Object.assign(hex, { pattern: '^[0-9A-F]{64}$', 'x-expect': '64 upper-case hexadecimal characters' });
  if (profile.hexCase === 'any') Object.assign(hex, { pattern: '^[0-9a-fA-F]{64}$', 'x-expect': '64 hexadecimal characters' });
  if (profile.hashPrefix !== 'none') defs.Hash = hashDefinition(profile);
  if (profile.identifiers === 'string') defs.PeerIdentifier = { title: 'PeerIdentifier', type: 'string', minLength: 16, 'x-expect': 'a string of at least 16 characters' };
  if (profile.integers === 'hex') defs.U64 = { ...U64_HEX };
  if (profile.timestamps === 'iso8601') defs.Timestamp = { title: 'Timestamp', type: 'string', pattern: ISO_8601, 'x-expect': 'an ISO 8601 date and time with a zone (2026-11-23T10:00:00Z)' };
  if (profile.identifiers === 'any') defs.PeerIdentifier = { title: 'PeerIdentifier', 'x-expect': 'any value (identifiers: any)' };
  if (profile.scores === 'number') defs.Score = { title: 'Score', type: 'number', 'x-expect': 'a number' };
  if (profile.scores === 'any') defs.Score = { title: 'Score', 'x-expect': 'any value (scores: any)' };
  def('NodeKind').enum = profile.health.mode;
  const blockFields = def('Block').properties;
  if (profile.blockTransactions === 'objects' && isObj(blockFields) && isObj(blockFields.transactions)) {
    blockFields.transactions.items = { type: 'object', 'x-expect': 'an object for each transaction (blockTransactions: objects)' };
  }
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
    if (method === 'chain_faucetClaim' && profile.faucetResult === 'hash') {
      definitions.result = { title: result.title ?? null, $ref: `${DEFS_REF}Hash` };
      continue;
    }
    if (method === 'net_peerCount' && profile.peerCountResult === 'decimal') {
      definitions.result = { title: result.title ?? null, ...PEER_COUNT_DECIMAL };
      continue;
    }
    if (method === 'net_peerCount' && profile.peerCountResult === 'object') {
      const key = wireField(profile, 'count') ?? 'count';
      definitions.result = { title: result.title ?? null, type: 'object', required: [key], properties: { [key]: { $ref: `${DEFS_REF}U64` } } };
      continue;
    }
    renameProperties(result, profile);
  }

  // Methods that write their integers otherwise (methodIntegers): their results with that encoding's U64 in place.
  for (const doc of docs) {
    const definitions = doc.definitions;
    if (!isObj(definitions) || !isObj(definitions.result) || !doc.$id.includes('/methods/')) continue;
    const encoding = integersOf(profile, doc.title ?? '');
    const result = encoding === profile.integers ? definitions.result : withIntegers(definitions.result, defs, encoding, false);
    definitions.result = result;
    if (doc.title === 'chain_getBlockByHeight' && isObj(result)) definitions[GENESIS_DEFINITION] = genesisSchema(result, defs, profile);
  }
  return docs;
}

/** The reference (relative to schemas/) of the genesis block's schema in a profile's validators: Validators.validate takes it. */
export const GENESIS_SCHEMA_REF = `methods/chain_getBlockByHeight.schema.json#/definitions/${GENESIS_DEFINITION}`;

const cache = new Map<string, Validators>();

/** Validators for the profile's exact choices (compiled once per set of choices). */
export function profileValidators(profile: Profile): Validators {
  // The same profile object asks again on every answer judged: found without writing its key.
  const known = byProfile.get(profile);
  if (known !== undefined) return known;
  const key = shapeKey(profile);
  let v = cache.get(key);
  if (!v) {
    v = validatorsFor(profileDocuments(profile));
    cache.set(key, v);
  }
  byProfile.set(profile, v);
  return v;
}

const byProfile = new WeakMap<Profile, Validators>();
