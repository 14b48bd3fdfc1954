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
