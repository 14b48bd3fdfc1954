/**
 * Bundles every schema file into one set of named definitions, with each cross-file $ref rewritten
 * to `<prefix><Title>`: `#/definitions/Title` for json-schema-to-typescript (whose ref resolver
 * mis-resolves local refs inside external files) and `#/components/schemas/Title` for OpenRPC.
 * Every schema a $ref points at carries a unique title, so the title is the bundle name.
 */
import type { JsonValue } from '../core/json/index.js';
import { schemaCatalog } from '../core/schema/schemaCatalog.js';
import type { SchemaDocument } from '../core/schema/schemaCatalog.js';

type Json = { [k: string]: JsonValue };
const isObject = (v: JsonValue | undefined): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function resolvePointer(doc: JsonValue, pointer: string): JsonValue | undefined {
  let node: JsonValue | undefined = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : undefined;
  }
  return node;
}

export interface Bundle {
  /** Title -> schema, refs rewritten. */
  definitions: Record<string, JsonValue>;
  /** Rewrites the refs of any node taken from the file whose $id is given. */
  rewrite: (node: JsonValue, baseId: string) => JsonValue;
}

export interface BundleOptions {
  /** Keys to leave out everywhere (e.g. tsType for OpenRPC). */
  drop?: string[];
  /** Keep only the $ref of a node that has one: draft-07 ignores its siblings, and json-schema-to-typescript
   * would otherwise emit a fresh alias (Address1, U642...) for every described reference. */
  bareRefs?: boolean;
}

export function bundleSchemas(prefix: string, options: BundleOptions = {}): Bundle {
  const drop = options.drop ?? [];
  const docs = new Map<string, SchemaDocument>(schemaCatalog().all.map((d) => [d.$id, d]));
  const titleOf = (ref: string, baseId: string): string => {
    const url = new URL(ref, baseId);
    const hash = decodeURIComponent(url.hash.slice(1));
    url.hash = '';
    const doc = docs.get(url.href);
    if (!doc) throw new Error(`$ref ${ref} in ${baseId}: no schema file has $id ${url.href}`);
    const target = hash ? resolvePointer(doc as JsonValue, hash) : (doc as JsonValue);
    const title = isObject(target) ? target.title : undefined;
    if (typeof title !== 'string') throw new Error(`$ref ${ref} in ${baseId} points at a schema without a title`);
    return title;
  };
  const rewrite = (node: JsonValue, baseId: string, isRoot = false): JsonValue => {
    if (Array.isArray(node)) return node.map((n) => rewrite(n, baseId));
    if (!isObject(node)) return node;
    if (options.bareRefs && !isRoot && typeof node.$ref === 'string') return { $ref: prefix + titleOf(node.$ref, baseId) };
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) {
      if (drop.includes(k) || k === '$id' || k === '$schema' || k === 'definitions' || k === 'x-examples') continue;
      out[k] = k === '$ref' && typeof v === 'string' ? prefix + titleOf(v, baseId) : k === 'const' || k === 'enum' ? v : rewrite(v, baseId);
    }
    return out;
  };
  const definitions: Record<string, JsonValue> = {};
  const add = (node: JsonValue | undefined, baseId: string): void => {
    if (!isObject(node) || typeof node.title !== 'string') return;
    if (definitions[node.title] !== undefined) throw new Error(`two schemas are titled ${node.title}; titles name the bundle's definitions and must be unique`);
    definitions[node.title] = rewrite(node, baseId, true);
  };
  for (const doc of docs.values()) {
    const hasBody = doc.type !== undefined || doc.oneOf !== undefined || doc.properties !== undefined;
    if (hasBody) add(doc as JsonValue, doc.$id);
    const defs = doc.definitions;
    if (isObject(defs)) for (const def of Object.values(defs)) add(def, doc.$id);
  }
  return { definitions, rewrite };
}
