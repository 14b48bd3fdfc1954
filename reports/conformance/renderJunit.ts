import type { CheckResult, RunResult } from '../../suites/model.js';
import { escapeXml } from '../shared/escapeXml.js';
import { evidenceText } from './evidenceText.js';
import { isExpectedFailure, isGating, verdictHeadline } from '../../suites/runner/verdict.js';

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);
const attr = (name: string, value: string | number): string => ` ${name}="${escapeXml(String(value), true)}"`;

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

function testcase(result: CheckResult, run: RunResult): string {
  const open = `    <testcase${attr('classname', result.category || area(result.id))}${attr('name', `${result.id} [${result.level}]`)}${attr('time', seconds(result.durationMs))}`;
  const note = baselineNote(result);
  const text = [evidenceText(result), note].filter((s) => s !== undefined).join('\n\n');
  const message = result.evidence.message;
  let inner: string;
  if (isExpectedFailure(result)) {
    // A known failure the baseline excuses: CI must stay green, yet the evidence stays one click away.
    inner = `<skipped${attr('message', `expected failure: ${result.baseline?.reason ?? ''}`)}/>\n      <system-out>${escapeXml(text)}</system-out>`;
  } else if (result.status === 'fail' || result.status === 'error') {
    const element = result.status === 'fail' ? 'failure' : 'error';
    const gateNote = isGating(result, run.gate) ? '' : `\n\nThis ${result.level} ${result.status} does not fail the run (gate: ${run.gate}).`;
    inner = `<${element}${attr('message', message)}${attr('type', result.level)}>${escapeXml(text + gateNote)}</${element}>`;
  } else if (result.status === 'skip') {
    inner = `<skipped${attr('message', message)}/>`;
  } else if (note !== undefined) {
    inner = `<system-out>${escapeXml(note)}</system-out>`;
  } else {
    return `${open}/>`;
  }
  return `${open}>\n      ${inner}\n    </testcase>`;
}

interface Tally {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function tally(results: readonly CheckResult[]): Tally {
  const t: Tally = { tests: results.length, failures: 0, errors: 0, skipped: 0 };
  for (const r of results) {
    if (isExpectedFailure(r) || r.status === 'skip') t.skipped++;
    else if (r.status === 'fail') t.failures++;
    else if (r.status === 'error') t.errors++;
  }
  return t;
}

const tallyAttrs = (t: Tally): string => `${attr('tests', t.tests)}${attr('failures', t.failures)}${attr('errors', t.errors)}${attr('skipped', t.skipped)}`;

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

/**
 * JUnit XML (junit.xml) as CI servers read it: one <testsuite> per node and one for network-scope checks,
 * one <testcase> per check and node (classname = category, name = "id [LEVEL]"). fail -> <failure>, error ->
 * <error>, both typed with the level and carrying the evidence as text; skip -> <skipped>; a failure a
 * baseline expects -> <skipped message="expected failure: reason">, so it does not turn the build red.
 */
export function renderJunit(run: RunResult): string {
  const headline = verdictHeadline(run);
  const properties = [
    ['verdict', headline.line],
    ['gate', run.gate],
    ['profile', run.profile.name],
    ['profile.source', run.profile.source],
    ['tool', `${run.tool.name} ${run.tool.version}`],
  ]
    .map(([name = '', value = '']) => `      <property${attr('name', name)}${attr('value', value)}/>`)
    .join('\n');
  const suites: string[] = [];
  for (const [node, results] of groupByNode(run)) {
    const time = results.reduce((sum, r) => sum + Math.max(0, r.durationMs), 0);
    suites.push(
      [
        `  <testsuite${attr('name', node)}${tallyAttrs(tally(results))}${attr('time', seconds(time))}${attr('timestamp', run.startedAt)}>`,
        `    <properties>\n${properties}\n    </properties>`,
        ...results.map((r) => testcase(r, run)),
        '  </testsuite>',
      ].join('\n'),
    );
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attr('name', `chainrpc ${run.profile.name}`)}${tallyAttrs(tally(run.results))}${attr('time', seconds(run.durationMs))}${attr('timestamp', run.startedAt)}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
