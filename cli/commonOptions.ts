/** Options several commands take, declared once (cli/CommandLine.ts reads them). */
import type { TextOption } from './CommandLine.js';

/** What is wrong with a node's base URL, if anything: it must be an http or https URL. */
export function httpUrlProblem(text: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(text.replace(/\/+$/, ''));
  } catch {
    return `${text} is not a URL (e.g. http://127.0.0.1:8545)`;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? undefined : `${text} must be http or https`;
}

/**
 * A node's base URL: http or https, and nothing after the path. A query, a fragment or credentials are refused as a
 * usage error here, once for every command (they crashed five commands as an internal error, and made `test` grade a
 * node it never reached: an outside tester): the client sends none of them.
 */
export function nodeUrlProblem(text: string): string | undefined {
  const problem = httpUrlProblem(text);
  if (problem !== undefined) return problem;
  const parsed = new URL(text.replace(/\/+$/, ''));
  if (parsed.username !== '' || parsed.password !== '') return `${text} must have no credentials: chainrpc sends none (reach a node behind authentication through a local proxy that adds them)`;
  // A bare ? or # leaves search and hash empty, and watch posted to the wrong path (an outside tester's).
  return parsed.search !== '' || parsed.hash !== '' || /[?#]/.test(text) ? `${text} must have no query or fragment: a node's base URL is its scheme, host, port and path` : undefined;
}

/**
 * What is wrong with a number that must be greater than 0 and, where `max` is given, at most `max`, said in
 * `unit` ("requests/s", "percent"): the limit itself, not "not a positive number". Decimal digits with an
 * optional fraction and exponent (2.5, 1e6) are numbers.
 */
export function positiveNumberProblem(text: string, unit: string, max?: number): string | undefined {
  const n = /^\d+(\.\d+)?(e[+-]?\d+)?$/i.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(n)) return `must be a number of ${unit} (e.g. 10 or 2.5); got "${text}"`;
  if (n <= 0) return `must be greater than 0 ${unit}; got "${text}"`;
  if (max !== undefined && n > max) return `must be at most ${max.toLocaleString('en-US')} ${unit}; got "${text}"`;
  return undefined;
}

/** The endpoint's path under a base URL (/rpc, /, /v1/jsonrpc): a profile's rpcPath. */
export const RPC_PATH = {
  kind: 'text',
  value: '<path>',
  check: (text: string) => (/^\/[^\s?#]*$/.test(text) ? undefined : `must be a path such as /rpc, / or /v1/jsonrpc; got "${text}"`),
} as const satisfies TextOption;

/** The prefix a node's methods carry in place of the spec's chain_: a profile's methodPrefix. */
export const METHOD_PREFIX = {
  kind: 'text',
  value: '<p>',
  check: (text: string) => (/^[A-Za-z0-9_.]*$/.test(text) ? undefined : `must be letters, digits, _ or . (e.g. acme_); got "${text}"`),
} as const satisfies TextOption;

/** How much worse than a baseline counts as a regression (`load --regression`, `load merge --regression`). */
export const REGRESSION = {
  kind: 'text',
  value: '<pct>',
  check: (text: string) => positiveNumberProblem(text, 'percent'),
} as const satisfies TextOption;
