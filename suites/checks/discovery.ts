/**
 * OpenRPC service discovery: rpc.discover, where a node has it, returns an OpenRPC document
 * (https://spec.open-rpc.org/#service-discovery-method) that lists the interface's methods.
 */
import type { JsonValue } from '../../core/json/index.js';
import { checkOpenRpcDocument } from '../../core/schema/openrpcDocument.js';
import { METHOD_NAMES } from '../../core/schema/types.generated.js';
import { defineCheck } from '../Check.js';
import type { Check } from '../Check.js';
import type { CheckContext } from '../CheckContext.js';
import { show } from './support.js';

const DISCOVER = 'rpc.discover';
const SPEC = 'profile: docs/reference-profile.md#transport ("rpc.discover returns the OpenRPC document"); OpenRPC 1.x "Service Discovery Method"';

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
      const checked = checkOpenRpcDocument(doc);
      if (!checked.ok) {
        const { problems } = checked;
        ctx.fail(
          `the ${DISCOVER} result is not a valid OpenRPC document: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`,
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
