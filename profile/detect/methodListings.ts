import type { JsonValue } from '../../core/json/index.js';
import { isObject } from './Prober.js';
import type { CallOutcome } from './Prober.js';

/**
 * Methods through which nodes list their own methods, in the order a detection asks them (each only
 * when the ones before it listed nothing): OpenRPC service discovery; jsonrpsee's and Substrate's
 * rpc_methods ({methods: [...]}); the XML-RPC introspection convention many JSON-RPC servers carry over.
 */
export const LISTING_METHODS = ['rpc.discover', 'rpc_methods', 'system.listMethods'] as const;
export type ListingMethod = (typeof LISTING_METHODS)[number];

/** go-ethereum's rpc package (and nodes built on it) lists its namespaces, not its methods: {"acme": "1.0", "net": "1.0"}. */
export const NAMESPACES_METHOD = 'rpc_modules';

/** Bounded: a node lists tens of methods, never thousands. */
const MAX_LISTED = 2000;
const MAX_NAMESPACES = 32;

const names = (list: readonly JsonValue[]): string[] => list.slice(0, MAX_LISTED).flatMap((m) => (typeof m === 'string' ? [m] : []));

/**
 * The method names a listing method answered, or undefined when it answered no listing (an error, or a
 * result of another shape). rpc.discover: an OpenRPC document's methods[].name; rpc_methods: its
 * methods array (or a bare array); system.listMethods: an array of names.
 */
export function listedNames(method: ListingMethod, outcome: CallOutcome): string[] | undefined {
  if (outcome.kind !== 'result') return undefined;
  const result = outcome.result;
  if (method === 'rpc.discover') {
    if (!isObject(result) || !Array.isArray(result.methods)) return undefined;
    return result.methods.slice(0, MAX_LISTED).flatMap((m) => (isObject(m) && typeof m.name === 'string' ? [m.name] : []));
  }
  if (Array.isArray(result)) return names(result);
  if (method === 'rpc_methods' && isObject(result) && Array.isArray(result.methods)) return names(result.methods);
  return undefined;
}

/**
 * The namespaces rpc_modules answered (an object of namespace -> version), the spec's own `net` left out
 * (net_peerCount keeps its name under any prefix); undefined when it answered no such object.
 */
export function listedNamespaces(outcome: CallOutcome): string[] | undefined {
  if (outcome.kind !== 'result' || !isObject(outcome.result)) return undefined;
  return Object.keys(outcome.result)
    .filter((ns) => ns !== 'net' && /^[A-Za-z0-9]+$/.test(ns))
    .slice(0, MAX_NAMESPACES);
}
