/**
 * A finding in report.html: its oracle, method and node, the message and where the rule comes from, the
 * minimal case (its request, and its body as text or, when it is not UTF-8, as a hex dump), the original case
 * folded when shrinking changed it, the answer (and the other nodes' answers for a disagreement), the replay
 * command and the curl. Also a costly case, drawn the same way. Every value is escaped here: bodies and
 * answers are hostile input.
 */
import type { Finding, FoundCase, FuzzAnswer } from '../../fuzz/model.js';
import { escapeHtml as h } from '../shared/escapeHtml.js';
import { answerExcerpt, answerLine, caseBody, caseOrigin, findingFacts, findingHeadline, findingReplayCommand, minimalCaseTitle, minimalOrigin, requestLine, wasShrunk } from './findingText.js';
import type { FuzzReportOptions } from './findingText.js';

const MAX_BODY_CHARS = 20_000;
const MAX_HEX_BYTES = 4_096;
const MAX_ANSWER_CHARS = 8_000;

/** A safe id for an element from a finding's id (F1 stays F1). */
export const anchorOf = (id: string): string => `finding-${id.replace(/[^\w-]/g, '_')}`;

/** A case's request line and body: text in a <pre>, or a hex dump marked as such. `said`: its title and origin, when not its own (a shrunk minimal case's). */
export function caseHtml(c: FoundCase, testid: string, said?: { title: string; origin: string }): string {
  const body = caseBody(c, { maxChars: MAX_BODY_CHARS, maxBytes: MAX_HEX_BYTES });
  const head = `<p class="case-head">${h(said?.title ?? c.title)} <span class="note">${h(said?.origin ?? caseOrigin(c))} · ${h(requestLine(c))}</span></p>`;
  if (body.form === 'none') return head;
  const note = body.form === 'hex' ? '<div class="note">The body is not UTF-8 text: its bytes in hex.</div>' : '';
  return `${head}${note}<pre class="${body.form === 'hex' ? 'body hex' : 'body'}" data-testid="${h(testid)}">${h(body.text)}</pre>`;
}

function answerHtml(answer: FuzzAnswer, who: string | undefined): string {
  const text = answerExcerpt(answer, MAX_ANSWER_CHARS);
  const head = `<p class="case-head">${who === undefined ? '' : `<code>${h(who)}</code>: `}${h(answerLine(answer))}</p>`;
  return text === '' ? head : `${head}<pre class="answer">${h(text)}</pre>`;
}

function answersHtml(f: Finding): string {
  const others = f.others ?? [];
  if (others.length === 0) return `<div class="label">Answer</div>${answerHtml(f.minimal.answer, undefined)}`;
  return `<div class="label">Answers</div>${answerHtml(f.minimal.answer, f.url)}${others.map((o) => answerHtml(o.answer, o.url)).join('')}`;
}

function commandsHtml(f: Finding, options: FuzzReportOptions): string {
  const anchor = anchorOf(f.id);
  return [
    `<div class="label">Replay with chainrpc</div><pre class="command" data-testid="replay-${h(anchor)}">${h(findingReplayCommand(f, options))}</pre>`,
    `<div class="label">Or with curl</div><pre class="command" data-testid="curl-${h(anchor)}">${h(f.minimal.curl)}</pre>`,
  ].join('');
}

/** The oracle's words, then the part of the answer that shows it, its lines as lines. */
function messageHtml(f: Finding): string {
  const headline = findingHeadline(f);
  if (headline.excerpt === undefined) return `<p class="message">${h(headline.lead)}</p>`;
  return `<p class="message">${h(headline.lead)}:</p><pre class="answer excerpt" data-testid="excerpt-${h(anchorOf(f.id))}">${h(headline.excerpt)}</pre>`;
}

/** One finding, as an <article> marked data-testid="finding-<id>"; a flaky one marked so. */
export function findingHtml(f: Finding, options: FuzzReportOptions): string {
  const anchor = anchorOf(f.id);
  const flaky = f.recheck === 'flaky';
  const badges = [`<span class="badge">${h(f.oracle)}</span>`, ...(flaky ? ['<span class="badge warn">flaky</span>'] : []), ...(f.recheck === 'not-rechecked' ? ['<span class="badge muted">not rechecked</span>'] : [])];
  const original = wasShrunk(f)
    ? `<details class="original"><summary>The original case, before shrinking</summary>${caseHtml(f.original, `original-${anchor}`)}${answerHtml(f.original.answer, undefined)}</details>`
    : '';
  return [
    `<article class="finding${flaky ? ' flaky' : ''}" id="${h(anchor)}" data-testid="${h(anchor)}" data-oracle="${h(f.oracle)}">`,
    `<h3><span class="fid">${h(f.id)}</span>${badges.join('')}${f.method === undefined ? '' : `<code>${h(f.method)}</code>`}<span class="url">${h(f.url)}</span></h3>`,
    messageHtml(f),
    `<p class="note">${h(findingFacts(f))}. Source: ${h(f.source)}.</p>`,
    `<div class="label">Minimal case</div>${caseHtml(f.minimal, `body-${anchor}`, { title: minimalCaseTitle(f), origin: minimalOrigin(f) })}`,
    original,
    answersHtml(f),
    commandsHtml(f, options),
    '</article>',
  ].join('\n');
}
