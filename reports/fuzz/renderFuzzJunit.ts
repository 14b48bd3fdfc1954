/**
 * JUnit XML (junit.xml) of a fuzz run, for CI servers: one <testsuite> per node; in it a <testcase> per
 * standing finding (a <failure> typed with its oracle, with the message, the minimal case, the answer and the
 * replay), a <testcase> per flaky sighting (seen once, not again when re-sent: <skipped message="flaky: …"/>
 * with the same evidence as <system-out>, never a failure, as fuzz/fuzzVerdict.ts counts it), and a passing
 * <testcase> per oracle with no standing finding on that node, so a clean run is a suite of passes, not an
 * empty one (as a load run's kept thresholds are cases); skipped instead, saying how far it got, when the node's
 * fuzzing ended early (it stopped answering, the run was interrupted or reached --max-findings): an oracle that
 * judged 75 cases of a 15 s run is no clean pass. A finding's message is its headline (findingHeadline: the
 * oracle's words, then the answer's excerpt as lines), and a shrunk case's rule is the one that found it. A node that never answered has an <error> case and
 * its oracles skipped. Tool errors are <error> elements (no verdict), never failures: in the suite of the node
 * they concern, or in a suite of their own. The process's exit code gates the pipeline.
 */
import { ORACLES } from '../../fuzz/model.js';
import type { Finding, FuzzRun, OracleName, TargetSummary, ToolError } from '../../fuzz/model.js';
import { formatDuration } from '../shared/formatDuration.js';
import { renderJunitXml } from '../shared/junitXml.js';
import type { JunitCase, JunitSuite } from '../shared/junitXml.js';
import { formatCount } from '../load/formatLoad.js';
import { answerExcerpt, answerLine, caseBody, caseOrigin, findingFacts, findingHeadline, findingsInOrder, findingReplayCommand, headlineLine, minimalCaseTitle, minimalOrigin, reportOptions, requestLine, ruleLabel, wasShrunk } from './findingText.js';
import type { FuzzReportOptions } from './findingText.js';
import { fuzzHeadline, unsentNote } from './fuzzHeadline.js';

const MAX_BODY_CHARS = 4_000;
const MAX_HEX_BYTES = 1_024;
const MAX_ANSWER_CHARS = 2_000;
const MAX_CURL_CHARS = 4_000;
/** The suite of tool errors that concern no node (or a node not among the targets). */
const TOOL_SUITE = 'chainrpc fuzz';

/** The evidence of a finding as plain text: what, where, the minimal case, the answer(s), and how to replay it. */
export function findingText(f: Finding, options: FuzzReportOptions = {}): string {
  const c = f.minimal;
  const body = caseBody(c, { maxChars: MAX_BODY_CHARS, maxBytes: MAX_HEX_BYTES });
  const headline = findingHeadline(f);
  const original = f.original;
  const originalBody = caseBody(original, { maxChars: MAX_BODY_CHARS, maxBytes: MAX_HEX_BYTES });
  const lines = [
    ...(headline.excerpt === undefined ? [headline.lead] : [`${headline.lead}:`, headline.excerpt]),
    `oracle: ${f.oracle}; source: ${f.source}`,
    findingFacts(f),
    '',
    `minimal case: ${minimalCaseTitle(f)} (${minimalOrigin(f)})`,
    `request: ${requestLine(c)}`,
    ...(body.form === 'none' ? [] : [body.form === 'hex' ? 'body (hex, not UTF-8):' : 'body:', body.text]),
    '',
    ...(wasShrunk(f)
      ? [`original case, before shrinking: ${original.title} (${caseOrigin(original)})`, `request: ${requestLine(original)}`, ...(originalBody.form === 'none' ? [] : [originalBody.form === 'hex' ? 'body (hex, not UTF-8):' : 'body:', originalBody.text]), '']
      : []),
  ];
  for (const { url, answer } of [{ url: f.url, answer: c.answer }, ...(f.others ?? [])]) {
    lines.push(`answer of ${url}: ${answerLine(answer)}`);
    const text = answerExcerpt(answer, MAX_ANSWER_CHARS);
    if (text !== '') lines.push(text);
  }
  const curl = c.curl.length <= MAX_CURL_CHARS ? c.curl : `(${formatCount(c.curl.length)} characters: in report.html and report.json)`;
  lines.push('', `replay: ${findingReplayCommand(f, options)}`, `curl: ${curl}`);
  return lines.join('\n');
}

const findingCaseHead = (f: Finding): Pick<JunitCase, 'classname' | 'name' | 'timeMs'> => ({
  classname: `fuzz.${f.oracle}`,
  name: `${f.id} ${f.oracle}: ${f.method ?? 'no method'} ${ruleLabel(f)}`,
  timeMs: f.minimal.answer.ms,
});

/** A standing finding: a failure. */
const findingCase = (f: Finding, options: FuzzReportOptions): JunitCase => ({
  ...findingCaseHead(f),
  failure: { element: 'failure', message: headlineLine(findingHeadline(f)), type: f.oracle, text: findingText(f, options) },
});

/** A flaky sighting: skipped, never a failure, with the same evidence beside it. */
const flakyCase = (f: Finding, options: FuzzReportOptions): JunitCase => ({
  ...findingCaseHead(f),
  skipped: { message: `flaky: ${headlineLine(findingHeadline(f))} (seen once, not again when re-sent; not counted)` },
  systemOut: findingText(f, options),
});

const toolErrorCase = (e: ToolError, n: number): JunitCase => ({
  classname: 'fuzz.tool',
  name: `tool error ${n}`,
  timeMs: 0,
  failure: { element: 'error', message: e.message, type: 'tool', text: `${e.message}\nat ${formatDuration(e.atMs)} into the run${e.url === undefined ? '' : ` (${e.url})`}\nA tool error is something chainrpc could not do; it is not counted against the node.` },
});

/** The oracles that judged a run's cases: all of them, but `disagreement` only where two nodes answered the same case. */
const oraclesOf = (run: FuzzRun): OracleName[] => ORACLES.filter((o) => o !== 'disagreement' || run.targets.length > 1);

/** What the run was asked to do ("15.0 s", "10,000 cases", "10,000 cases or 1 min 00 s"); '' when unbounded. */
function asked(run: FuzzRun): string {
  const o = run.options;
  return [o.cases === null ? undefined : `${formatCount(o.cases)} cases`, o.durationMs === null ? undefined : formatDuration(o.durationMs)].filter((x) => x !== undefined).join(' or ');
}

/**
 * Why the node's fuzzing ended before the run's budget, when it did: it stopped answering (when: its liveness
 * finding's first sighting, else the run's end), the run was interrupted, or it stopped at --max-findings.
 * Undefined: the node was fuzzed for all the run was asked (a "no finding" there is a clean pass).
 */
function stoppedEarly(run: FuzzRun, target: TargetSummary, findings: readonly Finding[]): string | undefined {
  const budget = asked(run);
  const of = budget === '' ? '' : ` of the ${budget} asked for`;
  if (target.state === 'stopped') {
    const death = findings.find((f) => f.oracle === 'liveness');
    return `the node stopped answering after ${formatCount(target.cases)} ${target.cases === 1 ? 'case' : 'cases'}, ${formatDuration(death?.atMs ?? run.durationMs)} into the run${of}`;
  }
  if (run.stop === 'interrupted') return `the run was interrupted after ${formatCount(target.cases)} cases, ${formatDuration(run.durationMs)} into it${of}`;
  if (run.stop === 'findings') return `the run stopped at the findings asked for (--max-findings ${run.options.maxFindings ?? '?'}) after ${formatCount(target.cases)} cases, ${formatDuration(run.durationMs)} into it${of}`;
  return undefined;
}

/**
 * A case per oracle without a standing finding on the node: a pass when the node was fuzzed for all the run asked;
 * skipped, with how far it got, when its fuzzing ended early (a node dead after 75 cases of a 15 s run is no clean
 * pass of its oracles); skipped when the node was sent no case.
 */
function oracleCases(run: FuzzRun, target: TargetSummary | undefined, findings: readonly Finding[], all: readonly Finding[]): JunitCase[] {
  const found = new Set(findings.map((f) => f.oracle));
  const early = target === undefined ? undefined : stoppedEarly(run, target, all);
  return oraclesOf(run)
    .filter((o) => !found.has(o))
    .map((o): JunitCase => {
      const c = { classname: `fuzz.${o}`, name: `${o}: no finding`, timeMs: 0 };
      if (target !== undefined && target.cases === 0) return { ...c, skipped: { message: 'no case was sent to this node' } };
      const covered = `no finding by the ${o} oracle${target === undefined ? '' : ` in ${formatCount(target.cases)} cases`}`;
      if (early !== undefined) return { ...c, skipped: { message: `not a clean pass: ${early}; ${covered} so far` }, systemOut: `${covered}; ${early}` };
      return { ...c, systemOut: covered };
    });
}

function targetSuite(run: FuzzRun, url: string, options: FuzzReportOptions, toolErrors: readonly [ToolError, number][]): JunitSuite {
  const target = run.targets.find((t) => t.url === url);
  const { standing, flaky } = findingsInOrder(run);
  const findings = standing.filter((f) => f.url === url);
  const sightings = flaky.filter((f) => f.url === url);
  const unreachable: JunitCase[] =
    target?.state === 'unreachable'
      ? [{ classname: 'fuzz.target', name: 'node answered', timeMs: 0, failure: { element: 'error', message: `${url} did not answer: no case was judged`, type: 'unreachable', text: `${url} did not answer, so no case was sent to it and nothing was judged. See the tool errors.` } }]
      : [];
  const properties: [string, string][] = [['verdict', fuzzHeadline(run).line], ['url', url], ['seed', String(run.seed)]];
  if (target !== undefined) {
    const unsent = unsentNote(run, target);
    // The node's cases are those sent to it; the verdict's, those the run made: where they differ, said why.
    properties.push(['state', target.state], ['cases', String(target.cases)], ...(unsent === undefined ? [] : [['casesOfRun', String(run.cases)], ['casesNotSent', unsent]] as [string, string][]), ['medianMs', String(target.medianMs)], ['slowBoundMs', String(target.slowBoundMs)], ['livenessChecks', String(target.livenessChecks)]);
  }
  properties.push(['profile', run.options.profile], ['stop', run.stop], ['tool', `${run.tool.name} ${run.tool.version}`]);
  return {
    name: url,
    timeMs: run.durationMs,
    timestamp: run.startedAt,
    properties,
    cases: [
      ...unreachable,
      ...findings.map((f) => findingCase(f, options)),
      ...sightings.map((f) => flakyCase(f, options)),
      ...oracleCases(run, target, findings, run.findings.filter((f) => f.url === url)),
      ...toolErrors.map(([e, n]) => toolErrorCase(e, n)),
    ],
  };
}

/** The JUnit XML of a run; `options.reportPath` is the report.json the replay commands name. */
export function renderFuzzJunit(run: FuzzRun, given: FuzzReportOptions = {}): string {
  const options = reportOptions(run, given);
  // Nodes as given, then any other node a finding names (none, from the runner).
  const urls = [...new Set([...run.targets.map((t) => t.url), ...run.findings.map((f) => f.url)])];
  const numbered = run.toolErrors.map((e, i): [ToolError, number] => [e, i + 1]);
  const suites = urls.map((url) => targetSuite(run, url, options, numbered.filter(([e]) => e.url === url)));
  const stray = numbered.filter(([e]) => e.url === undefined || !urls.includes(e.url));
  if (stray.length > 0) {
    suites.push({ name: TOOL_SUITE, timeMs: 0, timestamp: run.startedAt, properties: [['verdict', fuzzHeadline(run).line]], cases: stray.map(([e, n]) => toolErrorCase(e, n)) });
  }
  return renderJunitXml({ name: `chainrpc fuzz (seed ${run.seed})`, timeMs: run.durationMs, timestamp: run.startedAt, suites });
}
