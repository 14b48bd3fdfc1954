import { escapeXml } from './escapeXml.js';

/** What a test case says besides passing: the elements CI servers read, each escaped here. */
export interface JunitCase {
  classname: string;
  name: string;
  timeMs: number;
  /** A failure (the thing tested is wrong) or an error (no verdict): `type` is a category, `text` the evidence. */
  failure?: { element: 'failure' | 'error'; message: string; type: string; text: string };
  /** Skipped, with the reason. */
  skipped?: { message: string };
  /** Text CI servers show beside the case. */
  systemOut?: string;
}

export interface JunitSuite {
  name: string;
  timeMs: number;
  timestamp: string;
  properties: readonly (readonly [string, string])[];
  cases: readonly JunitCase[];
}

export interface JunitDocument {
  name: string;
  timeMs: number;
  timestamp: string;
  suites: readonly JunitSuite[];
}

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);
const attr = (name: string, value: string | number): string => ` ${name}="${escapeXml(String(value), true)}"`;

/** tests, failures, errors and skipped, counted from the elements themselves, so they always agree. */
function tallyAttrs(cases: readonly JunitCase[]): string {
  const count = (element: 'failure' | 'error'): number => cases.filter((c) => c.failure?.element === element).length;
  return `${attr('tests', cases.length)}${attr('failures', count('failure'))}${attr('errors', count('error'))}${attr('skipped', cases.filter((c) => c.skipped).length)}`;
}

function caseXml(c: JunitCase): string {
  const open = `    <testcase${attr('classname', c.classname)}${attr('name', c.name)}${attr('time', seconds(c.timeMs))}`;
  const inner: string[] = [];
  if (c.failure) inner.push(`<${c.failure.element}${attr('message', c.failure.message)}${attr('type', c.failure.type)}>${escapeXml(c.failure.text)}</${c.failure.element}>`);
  if (c.skipped) inner.push(`<skipped${attr('message', c.skipped.message)}/>`);
  if (c.systemOut !== undefined) inner.push(`<system-out>${escapeXml(c.systemOut)}</system-out>`);
  return inner.length === 0 ? `${open}/>` : `${open}>\n      ${inner.join('\n      ')}\n    </testcase>`;
}

function suiteXml(suite: JunitSuite): string {
  const properties = suite.properties.map(([name, value]) => `      <property${attr('name', name)}${attr('value', value)}/>`).join('\n');
  return [
    `  <testsuite${attr('name', suite.name)}${tallyAttrs(suite.cases)}${attr('time', seconds(suite.timeMs))}${attr('timestamp', suite.timestamp)}>`,
    `    <properties>\n${properties}\n    </properties>`,
    ...suite.cases.map(caseXml),
    '  </testsuite>',
  ].join('\n');
}

/**
 * JUnit XML as CI servers (GitLab, Jenkins, GitHub test reporters) read it: <testsuites> with the totals,
 * a <testsuite> with its properties per suite, a <testcase> per case with <failure> or <error>, <skipped>
 * and <system-out>. Every name, message and text is escaped for XML 1.0 (escapeXml), so the file is
 * always well-formed whatever a node sent.
 */
export function renderJunitXml(doc: JunitDocument): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attr('name', doc.name)}${tallyAttrs(doc.suites.flatMap((s) => s.cases))}${attr('time', seconds(doc.timeMs))}${attr('timestamp', doc.timestamp)}>`,
    ...doc.suites.map(suiteXml),
    '</testsuites>',
    '',
  ].join('\n');
}
