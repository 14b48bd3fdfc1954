import { stringifyJson } from '../../core/json/index.js';
import type { Exchange } from '../../suites/model.js';

/**
 * The exchanges of a run as NDJSON: one Exchange per line (JSON escapes every newline inside strings),
 * in the order they started; ties keep their given order. An exchange whose startedAt does not parse
 * stays right after the exchange given before it.
 */
export function renderTranscript(exchanges: readonly Exchange[]): string {
  let previous = -Infinity;
  const keyed = exchanges.map((exchange, index) => {
    const at = Date.parse(exchange.startedAt);
    if (!Number.isNaN(at)) previous = at;
    return { exchange, index, at: previous };
  });
  keyed.sort((a, b) => a.at - b.at || a.index - b.index);
  return keyed.map(({ exchange }) => `${stringifyJson(exchange)}\n`).join('');
}
