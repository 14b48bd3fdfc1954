/**
 * JUnit XML (junit.xml) of a fuzz run, for CI servers: one <testsuite> per node; in it a <testcase> per
 * standing finding (a <failure> typed with its oracle, with the message, the minimal case, the answer and the
 * replay), a <testcase> per flaky sighting (seen once, not again when re-sent: <skipped message="flaky: …"/>
 * with the same evidence as <system-out>, never a failure, as fuzz/fuzzVerdict.ts counts it), and a passing
 * <testcase> per oracle with no standing finding on that node, so a clean run is a suite of passes, not an
 * empty one (as a load run's kept thresholds are cases). A node that never answered has an <error> case and
 * its oracles skipped. Tool errors are <error> elements (no verdict), never failures: in the suite of the node
 * they concern, or in a suite of their own. The process's exit code gates the pipeline.
 */
import { ORACLES } from '../../fuzz/model.js';
import type { Finding, FuzzRun, OracleName, TargetSummary, ToolError } from '../../fuzz/model.js';
import { formatDuration } from '../shared/formatDuration.js';
import { renderJunitXml } from '../shared/junitXml.js';
import type { JunitCase, JunitSuite } from '../shared/junitXml.js';
import { formatCount } from '../load/formatLoad.js';
import { answerExcerpt, answerLine, caseBody, caseOrigin, findingFacts, findingsInOrder, findingReplayCommand, reportOptions, requestLine, wasShrunk } from './findingText.js';
import type { FuzzReportOptions } from './findingText.js';
import { fuzzHeadline } from './fuzzHeadline.js';

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
  const lines = [
    f.message,
    `oracle: ${f.oracle}; source: ${f.source}`,
    findingFacts(f),
    '',
    `minimal case${wasShrunk(f) ? ' (shrunk)' : ''}: ${c.title} (${caseOrigin(c)})`,
    `request: ${requestLine(c)}`,
    ...(body.form === 'none' ? [] : [body.form === 'hex' ? 'body (hex, not UTF-8):' : 'body:', body.text]),
    '',
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
  name: `${f.id} ${f.oracle}: ${f.method ?? 'no method'} ${f.rule}`,
  timeMs: f.minimal.answer.ms,
});

/** A standing finding: a failure. */
const findingCase = (f: Finding, options: FuzzReportOptions): JunitCase => ({
  ...findingCaseHead(f),
  failure: { element: 'failure', message: f.message, type: f.oracle, text: findingText(f, options) },
});

/** A flaky sighting: skipped, never a failure, with the same evidence beside it. */
const flakyCase = (f: Finding, options: FuzzReportOptions): JunitCase => ({
  ...findingCaseHead(f),
  skipped: { message: `flaky: ${f.message} (seen once, not again when re-sent; not counted)` },
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

/** A passing case per oracle without a standing finding on the node; skipped when the node was sent no case. */
function oracleCases(run: FuzzRun, target: TargetSummary | undefined, findings: readonly Finding[]): JunitCase[] {
  const found = new Set(findings.map((f) => f.oracle));
  return oraclesOf(run)
    .filter((o) => !found.has(o))
    .map((o): JunitCase => {
      const c = { classname: `fuzz.${o}`, name: `${o}: no finding`, timeMs: 0 };
      if (target !== undefined && target.cases === 0) return { ...c, skipped: { message: 'no case was sent to this node' } };
      return { ...c, systemOut: `no finding by the ${o} oracle${target === undefined ? '' : ` in ${formatCount(target.cases)} cases`}` };
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
    properties.push(['state', target.state], ['cases', String(target.cases)], ['medianMs', String(target.medianMs)], ['slowBoundMs', String(target.slowBoundMs)], ['livenessChecks', String(target.livenessChecks)]);
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
      ...oracleCases(run, target, findings),
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
