/**
 * The request side of the varying node's method-name variations that rewriteCalls.ts does not make:
 * prefix-unlisted (every chain_ method under another prefix, and no listing of them: the jayson-like
 * node) and faucet-renamed (the faucet under <prefix>faucet). It runs before rewriteCalls: calls are
 * renamed to the names the next step expects, and a name this node does not have is answered here
 * with -32601, as the reference node answers an unknown method. It also notes the spec method each call
 * runs, for the response side (rewriteResults.ts).
 */
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { CallBook } from './callBook.js';
import { METHOD, methodParamNames } from './interfaceMethods.js';
import { isObject } from './jsonShapes.js';
import type { JsonObject } from './jsonShapes.js';
import type { VariationName } from './variations.js';

/** prefix-unlisted: the node's own prefix. */
export const UNLISTED_PREFIX = 'nova_';
/** method-prefix's prefix (rewriteCalls.ts turns acme_ into chain_). */
const ACME_PREFIX = 'acme_';
const SPEC_PREFIX = 'chain_';
const FAUCET_CLAIM = 'faucetClaim';
/** faucet-renamed: the faucet's name after the prefix. */
export const FAUCET_RENAMED = 'faucet';

export interface RenamedCalls {
  /** The body for the next step (rewriteCalls); undefined when every call was answered here. */
  readonly text: string | undefined;
  /** -32601 answers for names this node does not have. */
  readonly own: readonly JsonObject[];
  /** The client sent a batch. */
  readonly batch: boolean;
  /** The spec method each call with an id runs (chain_ names), in the order sent. */
  readonly book: CallBook;
}

/** The variations made by this file and rewriteResults.ts. */
export const LATER_VARIATIONS: readonly VariationName[] = ['genesis-parent-empty', 'hex-peer-count', 'faucet-renamed', 'prefix-unlisted'];

type Renamed = { forward: JsonValue } | { refused: JsonObject | undefined };

/** The prefix clients of this node put before the spec's method suffixes. */
function clientPrefix(modes: ReadonlySet<VariationName>): string {
  if (modes.has('prefix-unlisted')) return UNLISTED_PREFIX;
  return modes.has('method-prefix') ? ACME_PREFIX : SPEC_PREFIX;
}

export function renameMethods(text: string, modes: ReadonlySet<VariationName>): RenamedCalls {
  const book = new CallBook();
  const unchanged: RenamedCalls = { text, own: [], batch: false, book };
  // The book serves the response side of every later variation; without one, nothing is parsed here.
  if (!LATER_VARIATIONS.some((m) => modes.has(m))) return unchanged;
  let body: JsonValue;
  try {
    body = parseJson(text);
  } catch {
    return unchanged;
  }
  if (!Array.isArray(body)) {
    const one = renameCall(body, modes, book);
    if ('forward' in one) return { ...unchanged, text: one.forward === body ? text : stringifyJson(one.forward) };
    return { text: undefined, own: one.refused === undefined ? [] : [one.refused], batch: false, book };
  }
  if (body.length === 0) return { ...unchanged, batch: true };
  const forwarded: JsonValue[] = [];
  const own: JsonObject[] = [];
  let changed = false;
  for (const element of body) {
    const one = renameCall(element, modes, book);
    if ('forward' in one) {
      forwarded.push(one.forward);
      changed ||= one.forward !== element;
    } else {
      changed = true;
      if (one.refused !== undefined) own.push(one.refused);
    }
  }
  return { text: forwarded.length === 0 ? undefined : changed ? stringifyJson(forwarded) : text, own, batch: true, book };
}

function renameCall(value: JsonValue, modes: ReadonlySet<VariationName>, book: CallBook): Renamed {
  if (!isObject(value) || value.jsonrpc !== '2.0' || typeof value.method !== 'string') return { forward: value };
  const hasId = Object.hasOwn(value, 'id');
  const refuse = (): Renamed => ({ refused: hasId ? methodNotFound(value.id ?? null, value.method as string) : undefined });
  const known = methodParamNames();
  const prefix = clientPrefix(modes);
  let name = value.method;
  if (modes.has('faucet-renamed')) {
    if (name === prefix + FAUCET_CLAIM) return refuse();
    if (name === prefix + FAUCET_RENAMED) name = prefix + FAUCET_CLAIM;
  }
  if (modes.has('prefix-unlisted')) {
    // No listing of the methods, and the spec's names are not this node's.
    if (name === METHOD.discover || (name.startsWith(SPEC_PREFIX) && known.has(name))) return refuse();
    const spec = SPEC_PREFIX + name.slice(UNLISTED_PREFIX.length);
    // nova_foo (no chain_foo either) goes on as it is: upstream's -32601 then names what the client sent.
    if (name.startsWith(UNLISTED_PREFIX) && known.has(spec)) name = spec;
  }
  if (hasId) {
    const spec = modes.has('method-prefix') && name.startsWith(ACME_PREFIX) ? SPEC_PREFIX + name.slice(ACME_PREFIX.length) : name;
    book.add(value.id ?? null, { method: spec, params: undefined });
  }
  return { forward: name === value.method ? value : { ...value, method: name } };
}

/** What the reference node answers for a method it has not (handleRpcBody's wording). */
function methodNotFound(id: JsonValue, method: string): JsonObject {
  const quoted = method.length > 40 ? `${JSON.stringify(method.slice(0, 40))}... (${method.length} chars)` : JSON.stringify(method);
  return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found', data: { reason: `this node has no method named ${quoted}`, method } } };
}
