/**
 * How a fault bends a seam of the reference node (TEST-ONLY, docs/faults.md): small combinators over
 * the node's seams (rpc/TransportRules.ts, chain/ChainRules.ts, node/NodeVariant.ts, the method table),
 * so that each fault in transport.ts, methods.ts, ... is one short declaration.
 */
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { Category, Level } from '../../core/ruleKinds.js';
import type { JsonValue } from '../../core/json/index.js';
import type { ChainRules } from '../chain/ChainRules.js';
import type { NodeContext } from '../methods/NodeContext.js';
import type { NodeHooks, NodeVariant } from '../node/NodeVariant.js';
import { RpcMethodError } from '../rpc/RpcMethodError.js';
import type { ParamsVerdict, TransportRules } from '../rpc/TransportRules.js';
import type { MethodHandler, MethodTable } from '../rpc/types.js';

/**
 * The part of the interface a fault breaks: a check's category (core/ruleKinds.ts), for the conformance
 * faults; 'robustness' for the faults that prove the fuzzer (robustness.ts), which the conformance
 * catalogue is not meant to catch: each is set off by one input it is not built to look for; 'resilience' for
 * the faults that prove the measures of a run with faults (`chainrpc load --chaos`, resilience.ts): each shows
 * only when a member fails.
 */
export type FaultCategory = Category | 'robustness' | 'resilience';

/** The level of the rule a fault breaks (informative; the checks that catch it carry their own). */
export type FaultLevel = Level;

/** Node settings a fault overrides (a limit it ignores). */
export interface FaultSettings {
  readonly maxBodyBytes?: number;
  readonly maxBatch?: number;
  readonly faucetLimit?: number;
}

/**
 * What a fault may do to the process its node runs in, given by the composition root (withFaults). A node
 * process (`chainrpc node`) gives `crash`; in-process (tests, the fault matrix) nothing is given, and a fault
 * that kills its node only makes it stop serving: a test runner must never exit.
 */
export interface FaultProcess {
  /** Ends the process at once (exit code 1) after writing `line`, the crash's last words, to stderr. */
  readonly crash?: ((line: string) => void) | undefined;
  /** The node's log (withFaults gives the node's own): for a fault that must say what it did, exactly. */
  readonly log?: ((line: string) => void) | undefined;
}

/** What a fault changes: the node's seams (NodeVariant), and settings. */
export interface FaultBend extends NodeVariant {
  readonly settings?: FaultSettings;
  /** More seams, bent with the node's process in hand (a fault that ends it); applied after the ones above. */
  readonly ofProcess?: (proc: FaultProcess) => NodeVariant;
}

/** A catalogue entry without its bend: what the docs, the CLI and the tests read. */
export interface FaultInfo {
  readonly name: string;
  readonly category: FaultCategory;
  /** What the node does wrong, as a client sees it. */
  readonly description: string;
  /** The rule it breaks, and where the rule comes from. */
  readonly rule: string;
  readonly level: FaultLevel;
  /** 'node': visible against one node alone; 'network': only by comparing several nodes of one network. */
  readonly scope: 'node' | 'network';
}

/** One fault: its description, and how it bends the node. */
export interface Fault extends FaultInfo {
  readonly bend: FaultBend;
}

type Obj = Record<string, JsonValue>;

export const isObject = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---- transport ----

/** Some transport rules replaced; `change` sees the rules so far (to build on them). */
export const rules =
  (change: (r: TransportRules) => Partial<TransportRules>) =>
  (r: TransportRules): TransportRules => ({ ...r, ...change(r) });

/** The answer text rewritten; composes with any rewrite before it. */
export function rewriteAnswer(f: (answer: string | null, request: string) => string | null): (r: TransportRules) => TransportRules {
  return rules((r) => {
    const before = r.rewriteAnswer;
    return { rewriteAnswer: (answer, request) => f(before === undefined ? answer : before(answer, request), request) };
  });
}

/** The request body's value; undefined when it is not JSON. */
export function requestValue(request: string): JsonValue | undefined {
  try {
    return parseJson(request);
  } catch {
    return undefined;
  }
}

/**
 * Each response object of an answer rewritten (null drops it: a single answer then sends nothing, a
 * batch loses that element). `requests` are the request objects of the body (one, or a batch's).
 */
export function eachResponse(f: (response: Obj, requests: readonly JsonValue[]) => Obj | null): (r: TransportRules) => TransportRules {
  return rewriteAnswer((answer, request) => mapResponses(answer, request, f));
}

/** The answer with each response object rewritten by `f` (see eachResponse). */
export function mapResponses(answer: string | null, request: string, f: (response: Obj, requests: readonly JsonValue[]) => Obj | null): string | null {
  if (answer === null) return null;
  const value = parseJson(answer);
  const body = requestValue(request);
  const requests = Array.isArray(body) ? body : body === undefined ? [] : [body];
  const one = (response: JsonValue): JsonValue | null => (isObject(response) ? f(response, requests) : response);
  if (!Array.isArray(value)) {
    const out = one(value);
    return out === null ? null : stringifyJson(out);
  }
  const list = value.map(one).filter((r): r is JsonValue => r !== null);
  return list.length === 0 ? null : stringifyJson(list);
}

/** Each error object of an answer rewritten. */
export function eachError(f: (error: Obj, response: Obj, requests: readonly JsonValue[]) => Obj): (r: TransportRules) => TransportRules {
  return eachResponse((response, requests) => (isObject(response.error) ? { ...response, error: f(response.error, response, requests) } : response));
}

const PARAMS_OK: ParamsVerdict = { ok: true };

/** These params skip the params check (the handler then gets them as they are). */
export function lenientParams(skip: (method: string, params: readonly JsonValue[]) => boolean): (r: TransportRules) => TransportRules {
  return rules((r) => ({ checkParams: (method, params) => (skip(method, params) ? PARAMS_OK : r.checkParams(method, params)) }));
}

// ---- methods ----

type Wrap = (next: MethodHandler, node: NodeContext) => MethodHandler;
type MethodsBend = NonNullable<NodeVariant['methods']>;

/** One handler wrapped (before, after, or around a failure); a table without the method is left as it is. */
export function wrapMethod(method: string, wrap: Wrap): MethodsBend {
  return (table: MethodTable, node: NodeContext) => {
    const next = Object.hasOwn(table, method) ? table[method] : undefined;
    return next === undefined ? table : { ...table, [method]: wrap(next, node) };
  };
}

/** Every handler of the table wrapped. */
export function wrapEveryMethod(wrap: (next: MethodHandler) => MethodHandler): MethodsBend {
  return (table: MethodTable) => Object.fromEntries(Object.entries(table).map(([name, handler]) => [name, wrap(handler)]));
}

/** One method's result rewritten, after the honest handler (sync or async) answered. */
export function mapResult<T extends JsonValue = Obj>(method: string, map: (result: T, node: NodeContext, params: JsonValue[]) => JsonValue): MethodsBend {
  return wrapMethod(method, (next, node) => (params, call) => {
    const result = next(params, call);
    // The honest handler's result has this method's shape (schemas/methods/<method>.schema.json).
    return result instanceof Promise ? result.then((r) => map(r as T, node, params)) : map(result as T, node, params);
  });
}

/** One method's refusal with this profile error code turned into a result. */
export function onRefusal(method: string, code: number, answer: (node: NodeContext) => JsonValue): MethodsBend {
  return wrapMethod(method, (next, node) => (params, call) => {
    try {
      return next(params, call);
    } catch (err) {
      if (err instanceof RpcMethodError && err.code === code) return answer(node);
      throw err;
    }
  });
}

/** Several methods bends, applied in order. */
export function allOf(...bends: MethodsBend[]): MethodsBend {
  return (table, node) => bends.reduce((t, bend) => bend(t, node), table);
}

// ---- chain and node ----

/** Some chain rules replaced. */
export const chainRules =
  (change: Partial<ChainRules>) =>
  (r: ChainRules): ChainRules => ({ ...r, ...change });

/** Some node hooks replaced; `change` sees the hooks so far and the node. */
export const nodeHooks =
  (change: (hooks: NodeHooks, node: NodeContext) => Partial<NodeHooks>) =>
  (hooks: NodeHooks, node: NodeContext): NodeHooks => ({ ...hooks, ...change(hooks, node) });


/** A JSON value as text: a string as it is, anything else as its JSON (a number's digits, true, false). */
export const text = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : stringifyJson(v ?? null));
