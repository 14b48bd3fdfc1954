import { JsonParseError } from './JsonParseError.js';
import type { JsonValue } from './JsonValue.js';
import { DEFAULT_MAX_DEPTH, parseJsonLossless, type ParseJsonOptions } from './parseJsonLossless.js';

// The largest integer JSON.parse reads exactly. An integer literal beyond it reads as a double
// beyond it too (rounding never crosses 2^53, which is a double), so a value holding no number
// beyond it came from a text without unsafe literals, and JSON.parse's numbers are already exact.
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Parses JSON text without losing integer precision: integer literals beyond ±(2^53−1) become
 * bigint; every other value is what JSON.parse gives. Accepts exactly what JSON.parse accepts,
 * up to `maxDepth` (default 512) levels of nesting on either path, so the outcome never depends
 * on which path ran. Throws JsonParseError (with the offset) otherwise.
 */
export function parseJson(text: string, options: ParseJsonOptions = {}): JsonValue {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    // Re-run the strict parser for a precise offset and one message format on both paths.
    parseJsonLossless(text, options);
    // Unreachable unless the two parsers disagree; keep JSON.parse's verdict.
    throw new JsonParseError(error instanceof Error ? error.message : String(error), 0, { cause: error });
  }
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  // Depth d takes at least 2·d characters and d opening brackets, so most texts need no scan.
  if (text.length > 2 * maxDepth && opensMoreThan(text, maxDepth) && exceedsDepth(text, maxDepth)) parseJsonLossless(text, options);
  // A number beyond 2^53−1 (an unsafe integer literal, or a fraction or exponent that large): the
  // lossless parser reads the text again, and gives bigints exactly where the literals are integers.
  return holdsLargeNumber(value) ? parseJsonLossless(text, options) : value;
}

/** Whether a value from JSON.parse holds a number beyond ±(2^53−1) anywhere. Walks the value, not the text. */
function holdsLargeNumber(value: JsonValue): boolean {
  if (typeof value !== 'object' || value === null) return isLarge(value);
  // Leaves are checked here, not in a call of their own: this runs on every parsed request.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as JsonValue;
      if (typeof item === 'object' && item !== null ? holdsLargeNumber(item) : isLarge(item)) return true;
    }
    return false;
  }
  for (const key in value) {
    const item = value[key] as JsonValue;
    if (typeof item === 'object' && item !== null ? holdsLargeNumber(item) : isLarge(item)) return true;
  }
  return false;
}

function isLarge(value: JsonValue): boolean {
  return typeof value === 'number' && (value > MAX_SAFE || value < -MAX_SAFE);
}

/** Whether `text` holds more than `limit` opening brackets ('[' and '{', in strings too): found natively by indexOf. */
function opensMoreThan(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['[', '{']) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) if (++count > limit) return true;
  }
  return false;
}

/** Whether valid JSON `text` nests deeper than `maxDepth`. Brackets inside strings do not count. */
function exceedsDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}
