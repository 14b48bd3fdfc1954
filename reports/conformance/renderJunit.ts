import type { CheckResult, RunResult } from '../../suites/model.js';
import { isExpectedFailure, isGating, verdictHeadline } from '../../suites/runner/verdict.js';
import { renderJunitXml } from '../shared/junitXml.js';
import type { JunitCase } from '../shared/junitXml.js';
import { evidenceText } from './evidenceText.js';
import { shortMessage } from './shortText.js';

/** The area of a check id (`chain_getAccount/balance-is-u128-string` -> `chain_getAccount`). */
const area = (id: string): string => id.split('/', 1)[0] ?? id;

/** What a baseline says about this result, when that is worth a line in the evidence. */
function baselineNote(result: CheckResult): string | undefined {
  const mark = result.baseline;
  if (!mark) return undefined;
  const until = mark.expires === undefined ? '' : ` (expires ${mark.expires})`;
  if (mark.state === 'now-passing') return `baseline: listed as an expected failure${until} but passes now: remove the entry. Reason given: ${mark.reason}`;
  if (mark.state === 'expired') return `baseline: the entry expired${until}, so this result gates again. Reason given: ${mark.reason}`;
  return `baseline: expected failure${until}: ${mark.reason}`;
}

function testcase(result: CheckResult, run: RunResult): JunitCase {
  const c: JunitCase = { classname: result.category || area(result.id), name: `${result.id} [${result.level}]`, timeMs: result.durationMs };
  const note = baselineNote(result);
  const text = [evidenceText(result), note].filter((s) => s !== undefined).join('\n\n');
  // The attribute is a headline (CI lists show it in one line): cut when long; the text below keeps the whole.
  const message = shortMessage(result.evidence.message);
  if (isExpectedFailure(result)) {
    // A known failure the baseline excuses: CI must stay green, yet the evidence stays one click away.
    return { ...c, skipped: { message: shortMessage(`expected failure: ${result.baseline?.reason ?? ''}`) }, systemOut: text };
  }
  if (result.status === 'fail' || result.status === 'error') {
    const gateNote = isGating(result, run.gate) ? '' : `\n\nThis ${result.level} ${result.status} does not fail the run (gate: ${run.gate}).`;
    return { ...c, failure: { element: result.status === 'fail' ? 'failure' : 'error', message, type: result.level, text: text + gateNote } };
  }
  // A skip's reason may quote a node's answer too (a key that could not be funded): as cut as a failure's; its whole in <system-out>.
  if (result.status === 'skip') return message === result.evidence.message ? { ...c, skipped: { message } } : { ...c, skipped: { message }, systemOut: result.evidence.message };
  return note === undefined ? c : { ...c, systemOut: note };
}

/** Suites in a stable order: the targets as given, any other node the results name, then "network". */
function groupByNode(run: RunResult): Map<string, CheckResult[]> {
  const groups = new Map<string, CheckResult[]>(run.targets.map((t) => [t, []]));
  const network: CheckResult[] = [];
  for (const r of run.results) {
    if (r.scope === 'network' || r.node === 'network') network.push(r);
    else {
      const group = groups.get(r.node);
      if (group) group.push(r);
      else groups.set(r.node, [r]);
    }
  }
  if (network.length > 0) groups.set('network', network);
  return groups;
}

/** What a <testsuite time> is, as the file itself says (a property of every suite). */
export const SUITE_TIME_NOTE =
  "each testsuite's time is the run's wall time: the checks of every node run concurrently, so the testcase times overlap and do not add up";

/**
 * JUnit XML (junit.xml) as CI servers read it: one <testsuite> per node and one for network-scope checks,
 * one <testcase> per check and node (classname = category, name = "id [LEVEL]"). fail -> <failure>, error ->
 * <error>, both typed with the level and carrying the evidence as text; skip -> <skipped>; a failure a
 * baseline expects -> <skipped message="expected failure: reason">, so it does not turn the build red.
 * Times: a testcase's is the check's own; a testsuite's, like the whole's, is the run's wall time
 * (durationMs), never the sum of its cases (they ran concurrently: the sum overstates it many times).
 */
export function renderJunit(run: RunResult): string {
  const properties = [
    ['verdict', verdictHeadline(run).line],
    ['gate', run.gate],
    ['profile', run.profile.name],
    ['profile.source', run.profile.source],
    ['tool', `${run.tool.name} ${run.tool.version}`],
    ['time', SUITE_TIME_NOTE],
  ] as const;
  const suites = [...groupByNode(run)].map(([node, results]) => ({
    name: node,
    timeMs: run.durationMs,
    timestamp: run.startedAt,
    properties,
    cases: results.map((r) => testcase(r, run)),
  }));
  return renderJunitXml({ name: `chainrpc ${run.profile.name}`, timeMs: run.durationMs, timestamp: run.startedAt, suites });
}
