/**
 * OpenRPC service discovery: rpc.discover, where a node has it, returns an OpenRPC document
 * (https://spec.open-rpc.org/#service-discovery-method) that lists the interface's methods.
 */
import { createRequire } from 'node:module';
import AjvModule from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { JsonValue } from '../../core/json/index.js';
import { METHOD_NAMES } from '../../core/schema/types.generated.js';
import { defineCheck } from '../Check.js';
import type { Check } from '../Check.js';
import type { CheckContext } from '../CheckContext.js';
import { show } from './support.js';

// ajv ships CommonJS with `exports.default`; under NodeNext the default import is the module object.
const Ajv = AjvModule.default;
const require = createRequire(import.meta.url);

const DISCOVER = 'rpc.discover';
const SPEC = 'profile: docs/reference-profile.md#transport ("rpc.discover returns the OpenRPC document"); OpenRPC 1.x "Service Discovery Method"';

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

/** rpc.discover's result; skips when the node has no such method (-32601). */
async function discover(ctx: CheckContext): Promise<JsonValue> {
  const r = await ctx.call(DISCOVER);
  if (!r.ok) {
    if (r.error.code === -32601) ctx.skip(`the node has no ${ctx.method(DISCOVER)} (-32601 Method not found)`);
    ctx.fail(`${DISCOVER} answered with error ${r.error.code} (${r.error.message})`, 'an OpenRPC document', show(r.error));
  }
  return r.result;
}

/** Checks of rpc.discover (OpenRPC service discovery). */
export const discoveryChecks: Check[] = [
  defineCheck({
    id: 'discovery/openrpc-document',
    level: 'PROFILE',
    category: 'discovery',
    scope: 'node',
    title: 'rpc.discover, where the node has it, returns a document valid against the OpenRPC meta-schema',
    spec: `${SPEC}; @open-rpc/meta-schema`,
    async run(ctx: CheckContext) {
      const doc = await discover(ctx);
      const validate = openrpcValidator();
      if (!validate(plain(doc))) {
        const errors = validate.errors ?? [];
        const list = errors.slice(0, 5).map((e) => `${e.instancePath || '(document)'} ${e.message ?? e.keyword}`);
        ctx.fail(
          `the ${DISCOVER} result is not a valid OpenRPC document: ${list.join('; ')}${errors.length > 5 ? ` (and ${errors.length - 5} more)` : ''}`,
          'an OpenRPC document (openrpc, info, methods) that validates against the OpenRPC meta-schema',
          show(doc),
        );
      }
      const version = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? doc.openrpc : undefined;
      return `a valid OpenRPC ${show(version)} document`;
    },
  }),
  defineCheck({
    id: 'discovery/lists-spec-methods',
    level: 'PROFILE',
    category: 'discovery',
    scope: 'node',
    title: 'the rpc.discover document lists every method of the interface (by the profile\'s names)',
    spec: `${SPEC}; spec: docs/interface.md#methods`,
    async run(ctx: CheckContext) {
      const doc = await discover(ctx);
      const methods = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? doc.methods : undefined;
      const names = new Set(Array.isArray(methods) ? methods.flatMap((m) => (typeof m === 'object' && m !== null && !Array.isArray(m) && typeof m.name === 'string' ? [m.name] : [])) : []);
      const wanted = METHOD_NAMES.filter((m) => m !== DISCOVER).map((m) => ctx.method(m));
      const missing = wanted.filter((m) => !names.has(m));
      if (missing.length > 0) {
        ctx.fail(`the ${DISCOVER} document does not list ${missing.join(', ')}`, `methods named ${wanted.join(', ')}`, names.size === 0 ? `no methods (${show(methods)})` : [...names].join(', '));
      }
      return `lists ${names.size} methods`;
    },
  }),
];
