import type { CheckResult, Exchange } from '../../suites/model.js';
import { excerpt } from '../../core/excerpt.js';

/** How much of a body plain-text evidence shows; the HTML and JSON reports keep what the run captured. */
export const BODY_EXCERPT_CHARS = 1000;

/** The request line and the response (or the transport failure) of one exchange, as plain text. */
export function exchangeText(exchange: Exchange): string {
  const lines = [`request: ${exchange.request.method} ${exchange.request.url}`];
  if (exchange.request.body !== '') lines.push(excerpt(exchange.request.body, BODY_EXCERPT_CHARS));
  const { response } = exchange;
  if (response) {
    const type = response.headers['content-type'];
    lines.push(`response: HTTP ${response.status}${type === undefined ? '' : ` (${type})`} after ${Math.round(exchange.ms)} ms`);
    const shown = excerpt(response.body, BODY_EXCERPT_CHARS);
    lines.push(response.truncated ? `${shown} [the node sent more; the run kept the first 4 KiB]` : shown);
  } else {
    lines.push(`response: none after ${Math.round(exchange.ms)} ms`);
  }
  if (exchange.failure !== undefined) lines.push(`failure: ${exchange.failure}`);
  return lines.join('\n');
}

/**
 * A check's evidence as plain text, for JUnit failure bodies and CI logs: the message, expected and actual,
 * the last exchange (the one that showed the failure, which `reproduce` repeats), the reproduce command, and
 * where the rule comes from.
 */
export function evidenceText(result: CheckResult): string {
  const { evidence } = result;
  const blocks = [evidence.message];
  if (evidence.expected !== undefined) blocks.push(`expected: ${evidence.expected}`);
  if (evidence.actual !== undefined) blocks.push(`actual: ${evidence.actual}`);
  const last = evidence.exchanges[evidence.exchanges.length - 1];
  if (last) {
    const more = evidence.exchanges.length - 1;
    blocks.push(exchangeText(last) + (more > 0 ? `\n(${more} earlier exchange${more === 1 ? '' : 's'} in report.json and report.html)` : ''));
  }
  if (result.reproduce !== undefined) blocks.push(`reproduce:\n${result.reproduce}`);
  blocks.push(`check: ${result.id} [${result.level}] on ${result.node}; rule: ${result.spec}`);
  return blocks.join('\n\n');
}
