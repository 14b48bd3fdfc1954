import { createRequire } from 'node:module';
import AjvModule from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { JsonValue } from '../json/index.js';

// ajv ships CommonJS with `exports.default`; under NodeNext the default import is the module object.
const Ajv = AjvModule.default;
const require = createRequire(import.meta.url);

let metaValidator: ValidateFunction | undefined;

/** The OpenRPC meta-schema (@open-rpc/meta-schema) with the JSON Schema meta-schema it refers to, compiled once. */
function openrpcValidator(): ValidateFunction {
  if (metaValidator === undefined) {
    const { openrpcDocument } = require('@open-rpc/meta-schema') as { openrpcDocument: Record<string, unknown> };
    const jsonSchemaMeta = require('@json-schema-tools/meta-schema/schema.json') as Record<string, unknown>;
    // Both declare the json-schema.tools dialect; ajv checks them as plain schemas (as schemas/openrpc.test.ts does).
    const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, logger: false });
    // The OpenRPC meta-schema refers to it both with and without the trailing slash.
    ajv.addSchema(jsonSchemaMeta);
    ajv.addSchema({ ...jsonSchemaMeta, $id: 'https://meta.json-schema.tools' });
    metaValidator = ajv.compile(openrpcDocument);
  }
  return metaValidator;
}

/** The value with bigints as numbers: ajv's number keywords know no bigint, and a schema bound read approximately is still a number. */
function plain(v: JsonValue): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

/** A document checked against the OpenRPC meta-schema: each problem as "<path> <message>" ("(document)" for the root). */
export function checkOpenRpcDocument(doc: JsonValue): { ok: true } | { ok: false; problems: string[] } {
  const validate = openrpcValidator();
  if (validate(plain(doc))) return { ok: true };
  return { ok: false, problems: (validate.errors ?? []).map((e) => `${e.instancePath || '(document)'} ${e.message ?? e.keyword}`) };
}
