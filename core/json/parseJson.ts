import { JsonParseError } from './JsonParseError.js';
import type { JsonValue } from './JsonValue.js';
import { DEFAULT_MAX_DEPTH, parseJsonLossless, type ParseJsonOptions } from './parseJsonLossless.js';

// A literal needs 16 digits to exceed 2^53−1 (9007199254740991 has 16); without such a run
// anywhere in the text, no literal can be unsafe and JSON.parse's numbers are already exact.
const LONG_DIGIT_RUN = /\d{16}/;

/**
 * Parses JSON text without losing integer precision: integer literals beyond ±(2^53−1) become
 * bigint; every other value is what JSON.parse gives. Accepts exactly what JSON.parse accepts,
 * up to `maxDepth` (default 512) levels of nesting on either path, so the outcome never depends
 * on which path ran. Throws JsonParseError (with the offset) otherwise.
 */
export function parseJson(text: string, options: ParseJsonOptions = {}): JsonValue {
  if (LONG_DIGIT_RUN.test(text)) return parseJsonLossless(text, options);
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
  // Depth d takes at least 2·d characters, so short texts need no scan.
  if (text.length > 2 * maxDepth && exceedsDepth(text, maxDepth)) parseJsonLossless(text, options);
  return value;
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
