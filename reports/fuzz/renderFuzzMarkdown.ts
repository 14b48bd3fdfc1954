/**
 * The Markdown summary of a fuzz run (summary.md), made for CI step summaries such as $GITHUB_STEP_SUMMARY:
 * the headline, then the standing findings first (each with its oracle, method, message, the minimal case's
 * body in a fenced block, cut when long, the answer's excerpt, the replay command and the curl), the flaky
 * sightings in a section of their own after them, with the same details (seen once, not again when re-sent:
 * said, never counted, as fuzz/fuzzVerdict.ts decides), then the nodes, the cases by family, and the tool errors apart (never counted against a node). Everything a
 * node or a case holds is escaped or fenced, so it cannot become markup.
 */
import { CASE_FAMILIES } from '../../fuzz/model.js';
import type { Finding, FuzzRun } from '../../fuzz/model.js';
import { excerpt } from '../../core/excerpt.js';
import { formatDuration } from '../shared/formatDuration.js';
import { markdownCode, markdownFence, markdownText } from '../shared/markdownText.js';
import { formatCount } from '../load/formatLoad.js';
import { answerExcerpt, answerLine, caseBody, caseOrigin, findingFacts, findingHeadline, findingsInOrder, flakyAside, formatTime, minimalCaseTitle, minimalOrigin, nodeFindings, findingReplayCommand, reportOptions, requestLine, wasShrunk } from './findingText.js';
import type { FuzzReportOptions } from './findingText.js';
import { fuzzHeadline, stopPhrase, unreachableNote, unsentByAllNote, unsentNote } from './fuzzHeadline.js';

const ICON = { FOUND: '❌', CLEAN: '✅', NOTHING: '⚠️' } as const;
/** A step summary is for scanning: findings (and flaky sightings) beyond these, and long bodies, are left to report.html. */
const MAX_FINDINGS = 20;
const MAX_BODY_CHARS = 1_500;
const MAX_ORIGINAL_CHARS = 500;
const MAX_HEX_BYTES = 256;
const MAX_ANSWER_CHARS = 600;
const MAX_CURL_CHARS = 2_000;
const MAX_TOOL_ERRORS = 20;
/** The heading of the flaky sightings, after the findings (the headline says how many). */
const FLAKY_HEADING = 'Flaky sightings (seen once, not when sent again; not counted)';

const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;

/**
 * The minimal case's request: its line, and its body fenced (text, or a hex dump when not UTF-8); when it shrank,
 * the original case after it (its title is what the original was made as, which the minimal case may no longer be).
 */
function caseLines(f: Finding): string[] {
  const c = f.minimal;
  const out = [`**Minimal case**: ${markdownText(minimalCaseTitle(f))} · ${markdownText(minimalOrigin(f))} · ${markdownText(requestLine(c))}`, ''];
  const body = caseBody(c, { maxChars: MAX_BODY_CHARS, maxBytes: MAX_HEX_BYTES });
  if (body.form !== 'none') out.push(markdownFence(body.text), '');
  if (wasShrunk(f)) {
    const o = f.original;
    out.push(`**Original case**, before shrinking: ${markdownText(o.title)} · ${markdownText(caseOrigin(o))} · ${markdownText(requestLine(o))}`, '');
    const first = caseBody(o, { maxChars: MAX_ORIGINAL_CHARS, maxBytes: MAX_HEX_BYTES });
    if (first.form !== 'none') out.push(markdownFence(first.text), '');
  }
  return out;
}

/** The answer, and the other nodes' answers to the same case (a disagreement). */
function answerLines(f: Finding): string[] {
  const answers = [{ url: f.url, answer: f.minimal.answer }, ...(f.others ?? [])];
  const several = answers.length > 1;
  return answers.flatMap(({ url, answer }) => {
    const text = answerExcerpt(answer, MAX_ANSWER_CHARS);
    const head = `**Answer**${several ? ` of ${markdownCode(url)}` : ''}: ${markdownText(answerLine(answer))}`;
    return text === '' ? [head, ''] : [head, '', markdownFence(text), ''];
  });
}

/** The replay command and the curl, in one shell block (the curl left to report.html when very long). */
function commandLines(f: Finding, options: FuzzReportOptions): string[] {
  const curl = f.minimal.curl.length <= MAX_CURL_CHARS ? f.minimal.curl : `# the curl command is ${formatCount(f.minimal.curl.length)} characters long: copy it from report.html or report.json`;
  return ['**Replay**:', '', markdownFence(`${findingReplayCommand(f, options)}\n${curl}`, 'sh'), ''];
}

/** The oracle's words, then the part of the answer that shows it, fenced (its lines as lines: never `\\n`). */
function headlineLines(f: Finding): string[] {
  const h = findingHeadline(f);
  return h.excerpt === undefined ? [markdownText(h.lead), ''] : [`${markdownText(h.lead)}:`, '', markdownFence(excerpt(h.excerpt, MAX_ANSWER_CHARS)), ''];
}

function findingBlock(f: Finding, options: FuzzReportOptions): string[] {
  const flaky = f.recheck === 'flaky' ? ' · flaky' : '';
  return [
    `#### ${f.recheck === 'flaky' ? '⚠️' : '❌'} ${markdownText(f.id)} · ${markdownCode(f.oracle)} · ${f.method === undefined ? 'no method' : markdownCode(f.method)}${flaky}`,
    '',
    ...headlineLines(f),
    `${markdownText(findingFacts(f))}. Source: ${markdownText(f.source)}.`,
    '',
    ...caseLines(f),
    ...answerLines(f),
    ...commandLines(f, options),
  ];
}

/** The standing findings, then the flaky sightings apart, the first MAX_FINDINGS of both in full, the rest named. */
function findingsLines(run: FuzzRun, options: FuzzReportOptions): string[] {
  const { standing, flaky } = findingsInOrder(run);
  const shownStanding = standing.slice(0, MAX_FINDINGS);
  const shownFlaky = flaky.slice(0, Math.max(0, MAX_FINDINGS - shownStanding.length));
  const more = (rest: readonly Finding[], one: string, many: string): string[] =>
    rest.length === 0 ? [] : [`…and ${rest.length} more ${rest.length === 1 ? one : many}: ${markdownText(rest.map((f) => f.id).join(', '))} (report.html and report.json have them all).`, ''];
  const out: string[] = [];
  if (standing.length > 0) {
    out.push(`### Findings (${standing.length})`, '');
    for (const f of shownStanding) out.push(...findingBlock(f, options));
    out.push(...more(standing.slice(shownStanding.length), 'finding', 'findings'));
  }
  if (flaky.length > 0) {
    out.push(`### ${FLAKY_HEADING}`, '');
    for (const f of shownFlaky) out.push(...findingBlock(f, options));
    out.push(...more(flaky.slice(shownFlaky.length), 'flaky sighting', 'flaky sightings'));
  }
  return out;
}

function targetLines(run: FuzzRun): string[] {
  if (run.targets.length === 0) return [];
  return [
    '### Nodes',
    '',
    row(['Node', 'State', 'Cases', 'Findings', 'Median call', 'Slow bound', 'Liveness checks']),
    row(['---', '---', '--:', '--:', '--:', '--:', '--:']),
    ...run.targets.map((t) => {
      const found = nodeFindings(run, t.url);
      const findings = `${found.standing > 0 ? `**${formatCount(found.standing)}**` : '0'}${flakyAside(found.flaky)}`;
      const cases = unsentNote(run, t) === undefined ? formatCount(t.cases) : `${formatCount(t.cases)} of ${formatCount(run.cases)}`;
      return row([markdownCode(t.url), t.state === 'answering' ? t.state : `**${t.state}**`, cases, findings, formatTime(t.medianMs), formatTime(t.slowBoundMs), formatCount(t.livenessChecks)]);
    }),
    '',
    // A node's count is of the cases sent to it, the run's of the cases made: where they differ, said why.
    ...run.targets.flatMap((t) => {
      const note = unsentNote(run, t);
      return note === undefined ? [] : [`${run.targets.length === 1 ? '' : `${markdownCode(t.url)}: `}${markdownText(`Cases: ${note}.`)}`, ''];
    }),
  ];
}

function familyLines(run: FuzzRun): string[] {
  const byAll = unsentByAllNote(run);
  return [
    '### Cases by family',
    '',
    row([...CASE_FAMILIES.map((f) => markdownCode(f)), 'All']),
    row([...CASE_FAMILIES.map(() => '--:'), '--:']),
    row([...CASE_FAMILIES.map((f) => formatCount(run.byFamily[f])), formatCount(run.cases)]),
    '',
    ...(byAll === undefined ? [] : [markdownText(`All: ${byAll}.`), '']),
  ];
}

function toolErrorLines(run: FuzzRun): string[] {
  if (run.toolErrors.length === 0) return [];
  const lines = run.toolErrors.slice(0, MAX_TOOL_ERRORS).map((e) => `- ${e.url === undefined ? '' : `${markdownCode(e.url)}: `}${markdownText(e.message)} (at ${formatDuration(e.atMs)})`);
  if (run.toolErrors.length > MAX_TOOL_ERRORS) lines.push(`- …and ${run.toolErrors.length - MAX_TOOL_ERRORS} more (report.json)`);
  return [`### Tool errors (${run.toolErrors.length}): what chainrpc could not do, not counted against a node`, '', ...lines, ''];
}

/** The run's parameters in a line. */
function aboutLine(run: FuzzRun): string {
  const o = run.options;
  const asked = [o.cases === null ? undefined : `${formatCount(o.cases)} cases`, o.durationMs === null ? undefined : formatDuration(o.durationMs)].filter((x) => x !== undefined).join(' or ');
  const parts = [
    `Seed ${markdownCode(String(run.seed))}`,
    `${formatCount(run.cases)} cases in ${formatDuration(run.durationMs)}${asked === '' ? '' : ` (asked: ${asked})`}`,
    `profile ${markdownCode(o.profile)}${o.profileFile === undefined ? '' : ` (${markdownCode(o.profileFile)})`}`,
    ...(o.unobserved === undefined || o.unobserved.length === 0 ? [] : [markdownText(`not observed by detect, so not compared: ${o.unobserved.join(', ')}`)]),
    `at most ${formatCount(o.maxRate)} cases/s`,
    ...(o.only.length === 0 ? [] : [`only ${o.only.map(markdownCode).join(', ')}`]),
    ...(stopPhrase(run) === undefined ? [] : [markdownText(`stopped: ${stopPhrase(run) ?? ''}`)]),
    markdownText(`${run.tool.name} ${run.tool.version}`),
    markdownText(run.startedAt),
  ];
  return parts.join(' · ');
}

/** The Markdown summary of a run; `options.reportPath` is the report.json the replay commands name. */
export function renderFuzzMarkdown(run: FuzzRun, given: FuzzReportOptions = {}): string {
  const options = reportOptions(run, given);
  const headline = fuzzHeadline(run);
  const out: string[] = [`## ${ICON[headline.word]} ${markdownText(headline.line)}`, '', aboutLine(run), ''];
  const unreachable = unreachableNote(run);
  if (unreachable !== undefined) out.push(`${ICON.NOTHING} ${markdownText(unreachable)}`, '');
  out.push(...findingsLines(run, options));
  out.push(...targetLines(run), ...familyLines(run));
  if (run.costly !== undefined && run.costly.length > 0) {
    const top = run.costly[0];
    out.push(`The ${formatCount(run.costly.length)} most costly cases are in report.html${top === undefined ? '' : ` (the costliest: ${markdownText(excerpt(top.case.title, 120))}, ${top.costRatio.toFixed(1)}x the median call's ms per byte)`}.`, '');
  }
  out.push(...toolErrorLines(run));
  if (options.command !== undefined) out.push(`Command: ${markdownCode(excerpt(options.command, MAX_CURL_CHARS))}`, '');
  return `${out.join('\n').trimEnd()}\n`;
}
