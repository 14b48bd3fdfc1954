export type { JsonValue } from './JsonValue.js';
export { JsonParseError } from './JsonParseError.js';
export { nestsDeeperThan, parseJson } from './parseJson.js';
export { parseJsonLossless, DEFAULT_MAX_DEPTH, type ParseJsonOptions } from './parseJsonLossless.js';
export { stringifyJson } from './stringifyJson.js';
export { jsonInteger } from './jsonInteger.js';
export { closingQuote } from './closingQuote.js';
