import { parseTokens, parseU128 } from '../core/codec/index.js';

/** A command-line amount: base units ("1000000000000000"), or token units with a suffix ("0.001token"). */
export function parseAmount(text: string, what: string): bigint {
  return text.endsWith('token') ? parseTokens(text.slice(0, -'token'.length)) : parseU128(text, what);
}
