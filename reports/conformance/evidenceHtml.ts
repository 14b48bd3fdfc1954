import type { CheckResult, Exchange } from '../../suites/model.js';
import { escapeHtml as h } from '../shared/escapeHtml.js';
import { formatDuration } from '../shared/formatDuration.js';
import { shortMessage } from './shortText.js';

/**
 * A check result's evidence in report.html, the same in both layouts (a row per check and node, or the
 * grid of several nodes): message, expected against actual, every exchange, the reproduce command. Every
 * string is escaped here: a node's response is hostile input.
 */

/** "k: v" lines of a header record. */
const headerLines = (headers: Readonly<Record<string, string>>): string =>
  Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

const pre = (text: string, testid?: string): string =>
  `<pre${testid === undefined ? '' : ` data-testid="${testid}"`}>${text === '' ? '<span class="note">(empty)</span>' : h(text)}</pre>`;

function exchangeHtml(exchange: Exchange, index: number, total: number): string {
  const { request, response } = exchange;
  const outcome = response ? `HTTP ${response.status}` : 'no response';
  const head =
    `<div class="exchange-head"><span class="note">exchange ${index + 1} of ${total}</span> ` +
    `<code>${h(request.method)} ${h(request.url)}</code> → <strong>${h(outcome)}</strong> ` +
    `<span class="note">${h(formatDuration(exchange.ms))} · ${h(exchange.startedAt)}</span></div>`;
  const sent = [`<div class="label">Request headers</div>`, pre(headerLines(request.headers)), `<div class="label">Request body</div>`, pre(request.body, 'request-body')];
  const received: string[] = [];
  if (response) {
    received.push(`<div class="label">Response headers</div>`, pre(headerLines(response.headers)));
    received.push(`<div class="label">Response body${response.truncated ? ' (first 4 KiB: the node sent more)' : ''}</div>`, pre(response.body, 'response-body'));
  }
  if (exchange.failure !== undefined) received.push(`<div class="label">Transport failure</div>`, pre(exchange.failure, 'failure'));
  if (received.length === 0) received.push(`<div class="note">No response arrived.</div>`);
  return `<div class="exchange">${head}<div class="sides"><div>${sent.join('')}</div><div>${received.join('')}</div></div></div>`;
}

/** What a baseline entry says about a result, in words (not escaped), or undefined when none lists it. */
export function baselineText(result: CheckResult): string | undefined {
  const mark = result.baseline;
  if (!mark) return undefined;
  const until = mark.expires === undefined ? '' : ` until ${mark.expires}`;
  return mark.state === 'expected-fail'
    ? `expected failure${until}: ${mark.reason}`
    : mark.state === 'now-passing'
      ? `baseline lists it, but it passes now: remove the entry (${mark.reason})`
      : `baseline entry expired${until === '' ? '' : ` (${mark.expires})`}: gates again (${mark.reason})`;
}

/** The baseline's mark of a result, escaped, with a leading space; empty when no entry lists it. */
export function baselineMark(result: CheckResult): string {
  const text = baselineText(result);
  return text === undefined ? '' : ` <span class="mark" data-testid="baseline">${h(text)}</span>`;
}

/** The evidence of a result: the inside of its `<div class="evidence">`, one element per item. */
export function evidenceParts(result: CheckResult): string[] {
  const { evidence } = result;
  // The message heads the evidence: cut when a node made it long, the whole one click away.
  const short = shortMessage(evidence.message);
  const body = [`<p class="message" data-testid="message">${h(short)}</p>`];
  if (short !== evidence.message) {
    body.push(
      `<details class="whole-message" data-testid="whole-message"><summary>the whole message (${evidence.message.length.toLocaleString('en-US')} characters)</summary>${pre(evidence.message)}</details>`,
    );
  }
  if (evidence.expected !== undefined || evidence.actual !== undefined) {
    body.push(
      `<div class="pair"><div><div class="label">Expected</div>${pre(evidence.expected ?? '')}</div>` +
        `<div><div class="label">Actual</div>${pre(evidence.actual ?? '')}</div></div>`,
    );
  }
  evidence.exchanges.forEach((exchange, i) => body.push(exchangeHtml(exchange, i, evidence.exchanges.length)));
  if (result.reproduce !== undefined) body.push(`<div class="label">Reproduce</div>${pre(result.reproduce, 'reproduce')}`);
  body.push(`<div class="note">${h(result.category)} · ${h(result.scope)} scope · ${h(formatDuration(result.durationMs))}</div>`);
  return body;
}
