import { stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import type { Answer, CallOutcome } from './Prober.js';

/** Text cut to `max` characters with an ellipsis. */
export const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Long hex runs (addresses, hashes, signed transactions) shortened, so one line of evidence stays one line. */
export const shortHex = (text: string): string => text.replace(/(?<![0-9a-fA-F])([0-9a-fA-F]{8})[0-9a-fA-F]{32,}/g, '$1…');

/** A JSON value as evidence: compact, long hex shortened, at most `max` characters. */
export const showJson = (value: JsonValue | undefined, max = 90): string => (value === undefined ? '(nothing)' : clip(shortHex(stringifyJson(value)), max));

/** "method params" as sent. */
export const describeCall = (method: string, params: JsonValue): string => `${method} ${showJson(params, 70)}`;

/** What came back for a call, in a few words: `result 12`, `error -32601 "Method not found"`, `HTTP 413 (not JSON-RPC)`. */
export function describeOutcome(outcome: CallOutcome): string {
  switch (outcome.kind) {
    case 'result':
      return `result ${showJson(outcome.result)}${outcome.status === 200 ? '' : ` (HTTP ${outcome.status})`}`;
    case 'error':
      return `error ${outcome.code}${outcome.message === '' ? '' : ` "${clip(outcome.message, 40)}"`}${outcome.status === 200 ? '' : ` (HTTP ${outcome.status})`}`;
    case 'other':
      return `HTTP ${outcome.status}, not a JSON-RPC response${outcome.text === '' ? ' (empty body)' : `: ${clip(shortHex(outcome.text.replace(/\s+/g, ' ')), 60)}`}`;
    case 'failed':
      return `no answer (${clip(outcome.reason, 80)})`;
  }
}

/** What came back for a raw exchange: status and the start of the body. */
export function describeAnswer(answer: Answer): string {
  if (answer.kind === 'failed') return `no answer (${clip(answer.reason, 80)})`;
  const body = answer.text === '' ? 'empty body' : clip(shortHex(answer.text.replace(/\s+/g, ' ')), 60);
  return `HTTP ${answer.status} (${body})`;
}

/** A byte count for people: 1048576 -> "1 MiB", 65536 -> "64 KiB", else the number. */
export function bytesText(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
