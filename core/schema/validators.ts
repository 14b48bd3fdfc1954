/**
 * The project's only door to ajv: every schema under schemas/ compiled once, shared by the
 * conformance suite (is the node's answer right?) and the reference node (are these params right?).
 *
 * Values come from this project's lossless JSON parser, where integer literals beyond 2^53-1 are
 * bigints. Plain ajv would call a bigint "not a number", and would compare against bounds that
 * JSON.parse already rounded (u64 max 18446744073709551615 reads back as 2^64). So, before
 * compiling, every `type` naming integer or number is moved into the `x-jtype` keyword below,
 * which accepts bigints and checks minimum/maximum exactly. The schema files stay standard draft-07.
 */
import AjvModule from 'ajv';
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv';
import type { DataValidateFunction } from 'ajv/dist/types/index.js';
import type { JsonValue } from '../json/index.js';
import { SCHEMA_BASE, methodSchemaId, schemaCatalog } from './schemaCatalog.js';
import type { MethodSchema, SchemaDocument } from './schemaCatalog.js';

// ajv ships CommonJS with `exports.default`; under NodeNext the default import is the module object.
const Ajv = AjvModule.default;

/** One validation failure, in the words a report or an InvalidParams error shows. */
export interface Problem {
  /** JSON pointer to the offending value ("" is the value itself). */
  pointer: string;
  /** The schema rule that failed: type, pattern, format, required, minimum, maxItems, ... */
  rule: string;
  /** What was expected, in plain words. */
  message: string;
}

export type Validation = { ok: true } | { ok: false; problems: Problem[] };

/** Which reading of a result to check: the spec's own words (MUST) or the reference profile's exact choice. */
export type ResultLevel = 'spec' | 'profile';

const U128_MAX = (1n << 128n) - 1n;
const ANNOTATIONS = ['tsType', 'x-expect', 'x-summary', 'x-spec', 'x-load', 'x-params', 'x-result', 'x-examples', 'x-code', 'x-message', 'x-origin'];

type JType = 'integer' | 'number' | 'string' | 'boolean' | 'null' | 'array' | 'object';
interface JTypeSpec {
  types: JType[];
  minimum?: string;
  maximum?: string;
  /** Exclusive integer bounds (the load report's "more than 0" and "under 1"). */
  exclusiveMinimum?: string;
  exclusiveMaximum?: string;
}

const TYPE_WORDS: Record<JType, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  null: 'null',
  array: 'an array',
  object: 'an object',
};

function isType(value: unknown, type: JType): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
    case 'number':
      return typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value));
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

/** An RFC 3339 date-time ("2026-11-29T10:13:45.190Z") that names a real instant. */
const isDateTime = (s: string): boolean => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s));

/** Exact comparison of a JSON number (number or bigint) with a decimal bound. */
function compareToBound(value: number | bigint, bound: bigint): number {
  if (typeof value === 'bigint') return value < bound ? -1 : value > bound ? 1 : 0;
  if (Number.isInteger(value)) {
    const v = BigInt(value); // exact: an integral double converts without loss
    return v < bound ? -1 : v > bound ? 1 : 0;
  }
  const floor = BigInt(Math.floor(value));
  return floor < bound ? -1 : 1; // a fraction lies strictly between floor and floor + 1
}

const compileJType = (spec: JTypeSpec): DataValidateFunction => {
  const min = spec.minimum === undefined ? undefined : BigInt(spec.minimum);
  const max = spec.maximum === undefined ? undefined : BigInt(spec.maximum);
  const above = spec.exclusiveMinimum === undefined ? undefined : BigInt(spec.exclusiveMinimum);
  const below = spec.exclusiveMaximum === undefined ? undefined : BigInt(spec.exclusiveMaximum);
  const expected = spec.types.map((t) => TYPE_WORDS[t]).join(' or ');
  const validate: DataValidateFunction = (data: unknown) => {
    if (!spec.types.some((t) => isType(data, t))) {
      validate.errors = [{ keyword: 'type', message: `must be ${expected}`, params: { type: spec.types } }];
      return false;
    }
    if (typeof data === 'number' || typeof data === 'bigint') {
      if (min !== undefined && compareToBound(data, min) < 0) {
        validate.errors = [{ keyword: 'minimum', message: `must be at least ${min}`, params: { limit: String(min) } }];
        return false;
      }
      if (max !== undefined && compareToBound(data, max) > 0) {
        validate.errors = [{ keyword: 'maximum', message: `must be at most ${max}`, params: { limit: String(max) } }];
        return false;
      }
      if (above !== undefined && compareToBound(data, above) <= 0) {
        validate.errors = [{ keyword: 'exclusiveMinimum', message: `must be more than ${above}`, params: { limit: String(above) } }];
        return false;
      }
      if (below !== undefined && compareToBound(data, below) >= 0) {
        validate.errors = [{ keyword: 'exclusiveMaximum', message: `must be less than ${below}`, params: { limit: String(below) } }];
        return false;
      }
    }
    return true;
  };
  return validate;
};

/** Rewrites a loaded schema for the bigint-aware keyword; returns a fresh tree, the input is untouched. */
function toAjvSchema(node: JsonValue | undefined): JsonValue | undefined {
  if (Array.isArray(node)) return node.map((n) => toAjvSchema(n) ?? null);
  if (typeof node !== 'object' || node === null) return node;
  const out: { [k: string]: JsonValue } = {};
  for (const [key, value] of Object.entries(node)) {
    // x-examples hold instances, not schemas: never rewrite them.
    out[key] = key === 'x-examples' || key === 'const' || key === 'enum' ? value : (toAjvSchema(value) ?? null);
  }
  const type = node.type;
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined;
  if (types && types.some((t) => t === 'integer' || t === 'number')) {
    const spec: { [k: string]: JsonValue } = { types: types };
    delete out.type;
    for (const bound of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const) {
      const b = node[bound];
      if ((typeof b === 'number' && Number.isInteger(b)) || typeof b === 'bigint') {
        spec[bound] = BigInt(b).toString();
        delete out[bound];
      }
    }
    out['x-jtype'] = spec;
  }
  return out;
}

function isU128Digits(s: string): boolean {
  if (!/^[0-9]+$/.test(s)) return false;
  const trimmed = s.replace(/^0+(?=.)/, '');
  return trimmed.length <= 39 && BigInt(trimmed) <= U128_MAX;
}

const describeValue = (v: unknown): string => {
  if (typeof v === 'string') return v.length > 40 ? `"${v.slice(0, 40)}..." (${v.length} chars)` : JSON.stringify(v);
  if (typeof v === 'bigint') return describeBigint(v);
  return String(v);
};

/** Integers up to this size are written out in a message (u128 has 39 digits). */
const WRITTEN_OUT = 10n ** 40n;

/**
 * A bigint for a message: written out up to 40 digits, else its size only. Writing a 48,000-digit integer in
 * decimal costs about 100 µs (a conversion that is not linear), for every message about it, in the node that
 * answers it and in the client that checks it; its hexadecimal form is linear and gives the size.
 */
function describeBigint(v: bigint): string {
  const magnitude = v < 0n ? -v : v;
  if (magnitude < WRITTEN_OUT) return v.toString();
  const hex = magnitude.toString(16);
  const lead = hex.slice(0, 12);
  // log10 of the magnitude, from its 12 leading hex digits and the number of the others.
  const log10 = Math.log10(Number.parseInt(lead, 16)) + (hex.length - lead.length) * Math.log10(16);
  // (A hair added: the estimate of 10^k itself falls a rounding error short of k.)
  return `${v < 0n ? 'a negative integer' : 'an integer'} of about ${Math.floor(log10 + 1 + 1e-9).toLocaleString('en-US')} digits`;
}

function plainMessage(e: ErrorObject): Problem {
  const parent: AnySchemaObject | undefined = e.parentSchema;
  const expect = typeof parent?.['x-expect'] === 'string' ? (parent['x-expect']) : undefined;
  const p = e.params as Record<string, unknown>;
  let pointer = e.instancePath;
  let message: string;
  switch (e.keyword) {
    case 'required':
      pointer = `${pointer}/${String(p.missingProperty)}`;
      message = `is missing (required field "${String(p.missingProperty)}")`;
      break;
    case 'additionalProperties':
      pointer = `${pointer}/${String(p.additionalProperty)}`;
      message = `is not allowed here (unexpected field "${String(p.additionalProperty)}")`;
      break;
    case 'pattern':
    case 'format':
      message = `must be ${expect ?? `a string matching ${String(p.pattern ?? p.format)}`}`;
      break;
    case 'type': {
      const types = Array.isArray(p.type) ? (p.type as JType[]) : String(p.type).split(',');
      message = `must be ${types.map((t) => TYPE_WORDS[t as JType] ?? t).join(' or ')}`;
      break;
    }
    case 'const':
      message = `must be ${JSON.stringify(p.allowedValue)}`;
      break;
    case 'enum':
      message = `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
      break;
    case 'minItems':
    case 'maxItems':
      message = `must have ${e.keyword === 'minItems' ? 'at least' : 'at most'} ${String(p.limit)} item(s)`;
      break;
    default:
      message = e.message ?? `fails the ${e.keyword} rule`;
  }
  if (e.keyword !== 'required' && e.keyword !== 'additionalProperties' && e.data !== undefined && typeof e.data !== 'object') {
    message += `; got ${describeValue(e.data)}`;
  }
  return { pointer, rule: e.keyword, message };
}

/**
 * The compiled documents as a graph of schema objects, to tell which alternative of a failed oneOf/anyOf an
 * error came from: ajv's schemaPath restarts inside every $ref, but with `verbose` each error carries the
 * schema object it failed at (parentSchema), and each oneOf its alternatives (schema).
 */
class SchemaGraph {
  private readonly rootOf = new WeakMap<object, AnySchemaObject>();
  private readonly byId = new Map<string, AnySchemaObject>();
  private readonly reached = new WeakMap<object, Set<object>>();

  add(root: AnySchemaObject): void {
    if (typeof root.$id === 'string') this.byId.set(root.$id, root);
    const walk = (node: unknown): void => {
      if (typeof node !== 'object' || node === null || this.rootOf.has(node)) return;
      this.rootOf.set(node, root);
      for (const child of Object.values(node)) walk(child);
    };
    walk(root);
  }

  /** Every schema object `schema` leads to: itself, its subschemas, and what its $refs name, transitively. */
  reach(schema: object): Set<object> {
    const cached = this.reached.get(schema);
    if (cached !== undefined) return cached;
    const seen = new Set<object>();
    const visit = (node: unknown): void => {
      if (typeof node !== 'object' || node === null || seen.has(node)) return;
      seen.add(node);
      for (const [key, child] of Object.entries(node)) {
        if (key === '$ref' && typeof child === 'string') visit(this.resolve(node, child));
        else visit(child);
      }
    };
    visit(schema);
    this.reached.set(schema, seen);
    return seen;
  }

  /** The schema a $ref names, from the document holding `from`; undefined when it cannot be found. */
  private resolve(from: object, ref: string): unknown {
    const root = this.rootOf.get(from);
    const [address = '', fragment = ''] = ref.split('#');
    let doc: unknown = root;
    if (address !== '') {
      try {
        doc = this.byId.get(new URL(address, typeof root?.$id === 'string' ? root.$id : undefined).href);
      } catch {
        return undefined;
      }
    }
    let node = doc;
    for (const part of fragment.split('/').filter((p) => p !== '')) {
      if (typeof node !== 'object' || node === null) return undefined;
      node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return node;
  }
}

const isAlternatives = (e: ErrorObject): boolean => e.keyword === 'oneOf' || e.keyword === 'anyOf';
/** Whether `path` is `at` or a pointer below it. */
const within = (path: string, at: string): boolean => path === at || path.startsWith(`${at}/`);

/**
 * How far a failed alternative is from what the value meant, smallest first: a value not of its type at all,
 * then a key that names another alternative (a direct member's const, or an enum of one value: "model":
 * "closed"), then members it lacks, then the count of its problems. A member that fails an enum of several
 * values (a misspelt method name) is a wrong value in the alternative meant, not a sign of another one.
 */
function distance(branch: readonly ErrorObject[], at: string): number[] {
  const typeAtValue = branch.some((e) => e.keyword === 'type' && e.instancePath === at) ? 1 : 0;
  const isMember = (path: string): boolean => path.startsWith(`${at}/`) && !path.slice(at.length + 1).includes('/');
  const names = (e: ErrorObject): boolean => e.keyword === 'const' || (e.keyword === 'enum' && Array.isArray(e.params.allowedValues) && e.params.allowedValues.length === 1);
  const discriminators = branch.filter((e) => names(e) && isMember(e.instancePath)).length;
  const missing = branch.filter((e) => e.keyword === 'required' && e.instancePath === at).length;
  return [typeAtValue, discriminators, missing, branch.length];
}

const closer = (a: readonly number[], b: readonly number[]): boolean => {
  for (let i = 0; i < a.length; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
};

/**
 * At a value that fails every alternative of a oneOf/anyOf, only the problems of the alternative it was
 * meant for are worth saying: the one it comes closest to (see distance), e.g. for a misspelt key of a
 * call in a load scenario's mix, "…/wieght is not allowed here" and not, besides, "…/batch is missing"
 * from the batch alternative. Outermost alternatives first; an alternative dropped takes its nested ones
 * with it. Alternatives that all fail on the value's type alone are left for toProblems to merge.
 */
function keepClosestAlternatives(errors: ErrorObject[], graph: SchemaGraph): ErrorObject[] {
  const dropped = new Set<ErrorObject>();
  const depth = (p: string): number => p.split('/').length;
  const alternatives = errors.filter((e) => isAlternatives(e) && Array.isArray(e.schema)).sort((a, b) => depth(a.instancePath) - depth(b.instancePath));
  for (const failed of alternatives) {
    if (dropped.has(failed)) continue;
    const under = errors.filter((e) => e !== failed && !dropped.has(e) && within(e.instancePath, failed.instancePath));
    const branches = (failed.schema as unknown[]).map((alternative) => {
      if (typeof alternative !== 'object' || alternative === null) return [];
      const reach = graph.reach(alternative);
      return under.filter((e) => {
        // A keyword of this project's (x-jtype) reports no parentSchema; its own schema object is reached all the same.
        const at: unknown = e.parentSchema ?? e.schema;
        return typeof at === 'object' && at !== null && reach.has(at);
      });
    });
    // An alternative that failed with nothing traced to it: the graph cannot tell them apart here, so all are kept.
    if (branches.some((b) => b.length === 0)) continue;
    if (branches.every((b) => b.every((e) => e.keyword === 'type' && e.instancePath === failed.instancePath))) continue;
    let best = 0;
    branches.forEach((b, i) => {
      if (closer(distance(b, failed.instancePath), distance(branches[best] ?? [], failed.instancePath))) best = i;
    });
    const kept = new Set(branches[best]);
    for (const b of branches) for (const e of b) if (!kept.has(e)) dropped.add(e);
  }
  const kept = dropped.size === 0 ? errors : errors.filter((e) => !dropped.has(e));
  // Where a member is both unexpected and missing, the unexpected one is most likely the missing one misspelt: said first.
  const first = new Map<string, number>();
  kept.forEach((e, i) => first.set(e.instancePath, first.get(e.instancePath) ?? i));
  const rank = (e: ErrorObject): number => (e.keyword === 'required' ? 1 : 0);
  return kept
    .map((e, i) => ({ e, key: [first.get(e.instancePath) ?? i, rank(e), i] }))
    .sort((a, b) => (closer(a.key, b.key) ? -1 : closer(b.key, a.key) ? 1 : 0))
    .map(({ e }) => e);
}

/**
 * Drops the noise allErrors produces around a failed oneOf/anyOf. With the schema graph, only the closest
 * alternative's problems are kept (keepClosestAlternatives). At a value that fails every alternative on
 * its type but one, the alternative it was meant for is one whose type it has: its problem (a pattern, a
 * bound) is kept and the other alternatives' "must be <type>" dropped (never "must be null" for a
 * malformed hash). A value of none of the types gets one line naming them all: "must be a string or null".
 */
function toProblems(all: ErrorObject[] | null | undefined, graph?: SchemaGraph): Problem[] {
  if (!all || all.length === 0) return [{ pointer: '', rule: 'unknown', message: 'failed validation' }];
  const errors = graph === undefined ? all : keepClosestAlternatives(all, graph);
  const alternativesAt = new Set(errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf').map((e) => e.instancePath));
  const specific = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if');
  const chosen: ErrorObject[] = [];
  const merged = new Map<string, ErrorObject[]>();
  for (const e of specific.length > 0 ? specific : errors) {
    if (!alternativesAt.has(e.instancePath)) {
      chosen.push(e);
      continue;
    }
    const atValue = specific.filter((x) => x.instancePath === e.instancePath);
    if (atValue.some((x) => x.keyword !== 'type')) {
      if (e.keyword !== 'type') chosen.push(e);
    } else {
      const group = merged.get(e.instancePath) ?? [];
      if (group.length === 0) chosen.push(e);
      group.push(e);
      merged.set(e.instancePath, group);
    }
  }
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const e of chosen) {
    const group = merged.get(e.instancePath);
    const problem = group !== undefined && group[0] === e ? mergedTypes(group) : plainMessage(e);
    const key = `${problem.pointer}|${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}

/** One problem for a value that has none of its alternatives' types: "must be a string or null; got 12345". */
function mergedTypes(group: ErrorObject[]): Problem {
  const types = [...new Set(group.flatMap((e) => {
    const t = (e.params as { type?: unknown }).type;
    return Array.isArray(t) ? (t as JType[]) : String(t).split(',');
  }))];
  const first = group[0];
  const got = first !== undefined && first.data !== undefined && typeof first.data !== 'object' ? `; got ${describeValue(first.data)}` : '';
  return { pointer: first?.instancePath ?? '', rule: 'type', message: `must be ${types.map((t) => TYPE_WORDS[t as JType] ?? t).join(' or ')}${got}` };
}

/** Formats problems as one line: `/0 must be 64 hexadecimal characters without a 0x prefix; got "xyz"`. */
export function formatProblems(problems: Problem[]): string {
  return problems.map((p) => `${p.pointer === '' ? '(value)' : p.pointer} ${p.message}`).join('; ');
}

const VALID: Validation = Object.freeze({ ok: true });

function run(fn: ValidateFunction, value: unknown, graph?: SchemaGraph): Validation {
  return fn(value) ? VALID : { ok: false, problems: toProblems(fn.errors, graph) };
}

export class Validators {
  private readonly ajv: InstanceType<typeof Ajv>;
  private readonly cache = new Map<string, ValidateFunction>();
  // Per part, by method name: the hot path (a node validating every call's params) builds no reference string.
  private readonly parts = { params: new Map<string, ValidateFunction>(), result: new Map<string, ValidateFunction>(), specResult: new Map<string, ValidateFunction>(), error: new Map<string, ValidateFunction>() };
  readonly methods: ReadonlyMap<string, MethodSchema>;
  /** The compiled schemas as objects, to tell a failed oneOf's alternatives apart (keepClosestAlternatives). */
  private readonly graph = new SchemaGraph();

  /** From the schema documents of schemas/ (default), or from documents derived from them (a profile's exact choices). */
  constructor(documents: readonly SchemaDocument[] = schemaCatalog().all) {
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictTuples: false, allowUnionTypes: true, validateFormats: true });
    ajv.addVocabulary(ANNOTATIONS);
    ajv.addKeyword({
      keyword: 'x-jtype',
      schemaType: 'object',
      errors: true,
      compile: (schema: JTypeSpec) => compileJType(schema),
      metaSchema: {
        type: 'object',
        required: ['types'],
        properties: { types: { type: 'array', items: { type: 'string' } }, minimum: { type: 'string' }, maximum: { type: 'string' }, exclusiveMinimum: { type: 'string' }, exclusiveMaximum: { type: 'string' } },
        additionalProperties: false,
      },
    });
    ajv.addFormat('u128', { type: 'string', validate: (s: string) => /^(0|[1-9][0-9]{0,38})$/.test(s) && BigInt(s) <= U128_MAX });
    ajv.addFormat('u128-digits', { type: 'string', validate: isU128Digits });
    // The load report's instants (reports/load/load-report.schema.json, read back as a --baseline): RFC 3339, as Date#toISOString writes them.
    ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
    for (const doc of documents) {
      const schema = toAjvSchema(doc as JsonValue) as AnySchemaObject;
      ajv.addSchema(schema);
      this.graph.add(schema);
    }
    this.ajv = ajv;
    const methodDocs = documents.filter((d) => d.$id.startsWith(`${SCHEMA_BASE}methods/`)) as MethodSchema[];
    this.methods = new Map(methodDocs.map((m) => [m.title, m]));
  }

  /** The compiled validator for a schema reference such as `defs.schema.json#/definitions/U64`. */
  private compiled(ref: string): ValidateFunction {
    let fn = this.cache.get(ref);
    if (!fn) {
      const id = ref.startsWith('https://') ? ref : SCHEMA_BASE + ref;
      fn = this.ajv.getSchema(id);
      if (!fn) throw new Error(`no schema ${id}`);
      this.cache.set(ref, fn);
    }
    return fn;
  }

  /** Validates a value against any schema of the catalogue, by reference relative to schemas/. */
  validate(ref: string, value: unknown): Validation {
    return run(this.compiled(ref), value, this.graph);
  }

  private methodPart(method: string, part: 'params' | 'result' | 'specResult' | 'error', value: unknown): Validation {
    const byMethod = this.parts[part];
    let fn = byMethod.get(method);
    if (fn === undefined) {
      if (!this.methods.has(method)) throw new Error(`unknown method ${method}: no schemas/methods/${method}.schema.json`);
      fn = this.compiled(`${methodSchemaId(method)}#/definitions/${part}`);
      byMethod.set(method, fn);
    }
    return run(fn, value, this.graph);
  }

  /** Checks positional params; a node answers a failure with InvalidParams (-32602). */
  params(method: string, params: unknown): Validation {
    return this.methodPart(method, 'params', params);
  }

  /** Checks a result against the spec's own statements ('spec') or the reference profile ('profile'). */
  result(method: string, result: unknown, level: ResultLevel = 'profile'): Validation {
    return this.methodPart(method, level === 'spec' ? 'specResult' : 'result', result);
  }

  /** Checks an error object against the method's error contract (its codes and their data). */
  error(method: string, error: unknown): Validation {
    return this.methodPart(method, 'error', error);
  }

  /** A JSON-RPC 2.0 request object (JSON-RPC 2.0, section 4). */
  request(value: unknown): Validation {
    return this.validate('jsonrpc/request.schema.json', value);
  }

  /** A JSON-RPC 2.0 response object (JSON-RPC 2.0, section 5). */
  response(value: unknown): Validation {
    return this.validate('jsonrpc/response.schema.json', value);
  }

  /** The method schema documents, keyed by wire name. */
  method(method: string): MethodSchema | undefined {
    return this.methods.get(method);
  }
}

let shared: Validators | undefined;

/**
 * Validators over schema documents derived from schemas/ (same $ids, changed definitions): how the
 * suite checks a result against a profile whose choices differ from the reference profile's.
 */
export function validatorsFor(documents: readonly SchemaDocument[]): Validators {
  return new Validators(documents);
}

/** The process-wide validators, compiled on first use. */
export function validators(): Validators {
  shared ??= new Validators();
  return shared;
}

export type { SchemaDocument };
