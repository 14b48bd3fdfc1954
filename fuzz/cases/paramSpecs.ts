/**
 * Each method's params, read from its schema (schemas/methods/<method>.schema.json, `definitions.params`) with
 * every `$ref` resolved through the schema catalogue: per position, its name, its JSON type and constraints
 * (bounds, pattern, lengths, enum), and the kind of value it is (a height, an address, a transaction, ...),
 * which decides how valid values are drawn and which constraints there are to break. Read once.
 */
import type { JsonValue } from '../../core/json/index.js';
import { methodSchemaId, schemaCatalog, type SchemaDocument } from '../../core/schema/schemaCatalog.js';
import { METHOD_NAMES, METHOD_PARAM_NAMES, type MethodName } from '../../core/schema/types.generated.js';

/** What a param is, for drawing values: by its definition's name, its type and pattern. */
export type ParamKind =
  /** A block height (an integer named height). */
  | 'height'
  | 'integer'
  /** An account address (64 hex, either case). */
  | 'address'
  /** A fixed number of hex characters. */
  | 'hex'
  /** A signed transaction (even-length hex) for chain_sendRawTransaction. */
  | 'transaction'
  /** Any even-length hex. */
  | 'hex-bytes'
  | 'enum'
  | 'string'
  /** Anything else: drawn from the method's examples. */
  | 'other';

export type JsonType = 'integer' | 'number' | 'string' | 'boolean' | 'null' | 'array' | 'object';

export interface ParamSpec {
  method: MethodName;
  index: number;
  name: string;
  kind: ParamKind;
  /** Names of the definitions its $refs pass through, outermost first (['Address', 'Hex64']). */
  defs: string[];
  type?: JsonType;
  minimum?: bigint;
  maximum?: bigint;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  enum?: JsonValue[];
  /** The number of characters when the pattern is `^[0-9a-fA-F]{N}$`. */
  hexLength?: number;
  /** This position's values in the method's x-examples. */
  examples: JsonValue[];
}

export interface MethodSpec {
  name: MethodName;
  params: ParamSpec[];
  minItems: number;
  /** undefined: no upper bound. */
  maxItems: number | undefined;
}

type SchemaNode = { [key: string]: JsonValue };

const isNode = (v: JsonValue | undefined): v is SchemaNode => typeof v === 'object' && v !== null && !Array.isArray(v);

function documentById(id: string): SchemaDocument | undefined {
  return schemaCatalog().all.find((d) => d.$id === id);
}

/** Follows `$ref`s from `node` (in the document `docId`) to the schema that holds the constraints. */
function resolve(node: SchemaNode, docId: string): { schema: SchemaNode; defs: string[] } {
  const defs: string[] = [];
  let current = node;
  let base = docId;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops++) {
    const target = new URL(current.$ref, base);
    const address = target.href.split('#')[0] ?? '';
    const doc = documentById(address);
    if (doc === undefined) throw new Error(`fuzz/cases: cannot resolve $ref ${current.$ref} from ${base}`);
    let at: JsonValue | undefined = doc as unknown as JsonValue;
    const parts = decodeURIComponent(target.hash.replace(/^#/, '')).split('/').filter((p) => p !== '');
    for (const part of parts) at = isNode(at) ? at[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    if (!isNode(at)) throw new Error(`fuzz/cases: $ref ${current.$ref} names no schema`);
    const last = parts[parts.length - 1];
    if (last !== undefined) defs.push(last);
    current = at;
    base = address;
  }
  return { schema: current, defs };
}

const bigintOf = (v: JsonValue | undefined): bigint | undefined =>
  typeof v === 'bigint' ? v : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : undefined;
const numberOf = (v: JsonValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);

function kindOf(method: MethodName, name: string, s: Omit<ParamSpec, 'kind'>): ParamKind {
  if (s.enum !== undefined) return 'enum';
  if (s.type === 'integer') return name === 'height' ? 'height' : 'integer';
  if (s.type !== 'string') return 'other';
  if (s.hexLength !== undefined) return s.defs.includes('Address') || name === 'address' ? 'address' : 'hex';
  if (s.pattern === '^([0-9a-fA-F]{2})+$') return method === 'chain_sendRawTransaction' ? 'transaction' : 'hex-bytes';
  return s.pattern === undefined ? 'string' : 'other';
}

function paramSpec(method: MethodName, index: number, item: SchemaNode, docId: string, examples: JsonValue[]): ParamSpec {
  const { schema, defs } = resolve(item, docId);
  const name = METHOD_PARAM_NAMES[method][index] ?? `param${index}`;
  const type = typeof schema.type === 'string' ? (schema.type as JsonType) : undefined;
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : undefined;
  const hex = pattern === undefined ? null : /^\^\[0-9a-fA-F\]\{(\d+)\}\$$/.exec(pattern);
  const spec: Omit<ParamSpec, 'kind'> = { method, index, name, defs, examples };
  if (type !== undefined) spec.type = type;
  const minimum = bigintOf(schema.minimum);
  const maximum = bigintOf(schema.maximum);
  if (minimum !== undefined) spec.minimum = minimum;
  if (maximum !== undefined) spec.maximum = maximum;
  if (pattern !== undefined) spec.pattern = pattern;
  const minLength = numberOf(schema.minLength);
  const maxLength = numberOf(schema.maxLength);
  if (minLength !== undefined) spec.minLength = minLength;
  if (maxLength !== undefined) spec.maxLength = maxLength;
  if (Array.isArray(schema.enum)) spec.enum = schema.enum;
  if (hex?.[1] !== undefined) spec.hexLength = Number(hex[1]);
  return { ...spec, kind: kindOf(method, name, spec) };
}

function methodSpec(method: MethodName): MethodSpec {
  const doc = schemaCatalog().methods.find((m) => m.$id === methodSchemaId(method));
  if (doc === undefined) throw new Error(`fuzz/cases: no schema for ${method}`);
  const params = doc.definitions.params as unknown as SchemaNode;
  const items = Array.isArray(params.items) ? params.items.filter(isNode) : [];
  const examples = doc['x-examples'];
  const specs = items.map((item, i) => paramSpec(method, i, item, doc.$id, examples.flatMap((e) => (e.params.length > i ? [e.params[i] as JsonValue] : []))));
  const minItems = numberOf(params.minItems) ?? 0;
  const maxItems = numberOf(params.maxItems);
  return { name: method, params: specs, minItems, maxItems };
}

let specs: ReadonlyMap<MethodName, MethodSpec> | undefined;

/** Every method's params, by name. */
export function methodSpecs(): ReadonlyMap<MethodName, MethodSpec> {
  specs ??= new Map(METHOD_NAMES.map((m) => [m, methodSpec(m)]));
  return specs;
}

export function methodSpecOf(method: MethodName): MethodSpec {
  const spec = methodSpecs().get(method);
  if (spec === undefined) throw new Error(`fuzz/cases: unknown method ${method}`);
  return spec;
}
