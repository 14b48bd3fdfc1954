import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJson } from '../json/index.js';
import type { JsonValue } from '../json/index.js';
import { schemasDir } from '../paths.js';

/** A JSON Schema document as loaded from schemas/ (bigints where the file holds integers beyond 2^53). */
export type SchemaDocument = { $id: string; title?: string; [key: string]: JsonValue | undefined };

/** One example pairing of a method schema's x-examples. */
export interface MethodExample {
  name: string;
  params: JsonValue[];
  result?: JsonValue;
  error?: { code: number; message: string; data?: JsonValue };
}

/** A method schema file (schemas/methods/<method>.schema.json). */
export type MethodSchema = SchemaDocument & MethodSchemaFields;

interface MethodSchemaFields {
  title: string;
  description: string;
  'x-summary': string;
  'x-spec': string;
  /**
   * Whether a load scenario may call it: `read` (alone or in a batch; params drawn by load/requests/drawParams.ts
   * when it takes any), `transactions` (sent from a corpus of signed transactions), `none` (never under load).
   * `npm run gen` writes the scenario schema's Method and ReadMethod enums from it.
   */
  'x-load': 'read' | 'transactions' | 'none';
  'x-params': { name: string; description: string }[];
  'x-result': { name: string; description: string };
  'x-examples': MethodExample[];
  definitions: { params: SchemaDocument; result: SchemaDocument; specResult: SchemaDocument; error: SchemaDocument };
}

function load(path: string): SchemaDocument {
  // The lossless parser keeps 18446744073709551615 (u64 max) exact: JSON.parse would round it to 2^64.
  const doc = parseJson(readFileSync(path, 'utf8'));
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc) || typeof doc.$id !== 'string') {
    throw new Error(`schema file ${path} is not a JSON Schema object with an $id`);
  }
  return doc as SchemaDocument;
}

const listJson = (dir: string): string[] =>
  readdirSync(dir).filter((f) => f.endsWith('.schema.json')).sort().map((f) => join(dir, f));

/** Every schema file of the project, read once. */
export interface SchemaCatalog {
  defs: SchemaDocument;
  errors: SchemaDocument;
  envelope: SchemaDocument[];
  methods: MethodSchema[];
  all: SchemaDocument[];
}

let catalog: SchemaCatalog | undefined;

export function schemaCatalog(): SchemaCatalog {
  if (catalog) return catalog;
  const defs = load(join(schemasDir, 'defs.schema.json'));
  const errors = load(join(schemasDir, 'errors.schema.json'));
  const envelope = listJson(join(schemasDir, 'jsonrpc')).map(load);
  const methods = listJson(join(schemasDir, 'methods')).map(load) as MethodSchema[];
  catalog = { defs, errors, envelope, methods, all: [defs, errors, ...envelope, ...methods] };
  return catalog;
}

export const SCHEMA_BASE = 'https://chainrpc.dev/schemas/';
export const methodSchemaId = (method: string): string => `${SCHEMA_BASE}methods/${method}.schema.json`;
