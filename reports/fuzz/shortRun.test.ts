/**
 * A short run whose node died, as an outside tester's run showed it (seed 7: a node leaking stack traces died after
 * 75 cases, 2.2 s into a 15 s run, with one timeline point), in every fuzz report: the minimal case titled by what
 * it is, not by what its original was made as; the node's case count told apart from the run's; the oracles
 * that found nothing in so short a run not passed as clean; the leak's excerpt read as the stack trace it is; the
 * charts ending with the run's final counts, or saying there is nothing to draw.
 */
import { describe, expect, it } from 'vitest';
import type { Finding, FoundCase, FuzzAnswer, FuzzRun } from '../../fuzz/model.js';
import { parseXml, xmlFindAll, xmlText } from '../../test/support/parseXml.js';
import { findingHeadline, headlineLine, minimalCaseTitle, readableExcerpt } from './findingText.js';
import { casesChart, casesPoints, findingsChart, findingsPoints } from './fuzzCharts.js';
import { findingLine } from './fuzzProgress.js';
import { renderFuzzHtml } from './renderFuzzHtml.js';
import { renderFuzzJunit } from './renderFuzzJunit.js';
import { renderFuzzMarkdown } from './renderFuzzMarkdown.js';

const NODE = 'http://127.0.0.1:29003';
const STACK =
  'TypeError: chain_getAccount takes 1 param (address); got 0\\n    at leakyError (file:///work/repo/dist/reference-node/faults/deviations.js:103:56)\\n    at file:///work/repo/dist/reference-node/faults/transport.js:319:41\\n    at one (file:///work/repo/dist/reference-node/faults/bends.js:42:53)';
const ANSWER_TEXT = `{"jsonrpc":"2.0","id":"","error":{"code":-32602,"message":"TypeError: chain_getAccount takes 1 param (address); got 0","data":{"reason":"chain_getAccount takes 1 param (address); got 0","stack":"${STACK}"}}}`;
/** The leak oracle's excerpt: 20 characters before the stack frame, 40 after; cut mid-word, its line breaks JSON's `\n`. */
const RAW_EXCERPT = ANSWER_TEXT.slice(ANSWER_TEXT.indexOf('ddress); got 0\\n    at leakyError'), ANSWER_TEXT.indexOf('deviations.js:103:') + 18);

const answer = (text: string, ms: number): FuzzAnswer => ({ status: 200, headers: { 'content-type': 'application/json' }, text, ms });

function found(index: number, rule: string, title: string, body: string, a: FuzzAnswer): FoundCase {
  return {
    seed: 7,
    index,
    rule,
    title,
    http: { method: 'POST', contentType: 'application/json', bodyBase64: Buffer.from(body).toString('base64'), bodyText: body },
    answer: a,
    curl: `curl -sS -i -X POST -H 'content-type: application/json' --data-binary '${body}' '${NODE}/rpc'`,
  };
}

/** F1 as the run before this fix wrote it: the minimal case kept its original's title, with " (shrunk)" after it. */
function leakFinding(minimalTitle = 'chain_getAccount: one param too many ({}) (shrunk)'): Finding {
  const original = found(4, 'invalid-params/extra', 'chain_getAccount: one param too many ({})', '{"jsonrpc":"2.0","method":"chain_getAccount","params":["3fb6",{}],"id":"c4"}', answer(ANSWER_TEXT, 12));
  const minimal = found(4, 'invalid-params/extra', minimalTitle, '{"jsonrpc":"2.0","method":"chain_getAccount","id":""}', answer(ANSWER_TEXT, 9.65));
  return {
    id: 'F1',
    signature: `${NODE} leak chain_getAccount invalid-params/extra`,
    oracle: 'leak',
    url: NODE,
    method: 'chain_getAccount',
    rule: 'invalid-params/extra',
    message: `answered with HTTP 200 showing a stack trace: ${JSON.stringify(RAW_EXCERPT)}`,
    source: 'CWE-209 (error messages that expose internals); JSON-RPC 2.0 §5.1',
    original,
    minimal,
    count: 2,
    recheck: 'reproduced',
    atMs: 504,
  };
}

function deathFinding(): Finding {
  const c = found(70, 'envelope/batch-mixed', 'batch of 8: 6 call, 1 invalid, 1 odd', '[{"jsonrpc":"2.0","method":"chain_blockNumber","id":1}]', { failure: { code: 'ECONNRESET', message: 'socket hang up' }, ms: 40 });
  return { id: 'F2', signature: `${NODE} liveness - envelope/batch-mixed`, oracle: 'liveness', url: NODE, rule: 'envelope/batch-mixed', message: 'the node stopped answering after this request', source: 'liveness: a node must survive any request a client can send', original: c, minimal: c, count: 1, recheck: 'not-rechecked', atMs: 2_150 };
}

/** The tester's run: 75 cases made, 74 sent (the 75th made as the node died), one timeline point at 1.0 s of 2.2 s. */
function shortRun(over: Partial<FuzzRun> = {}): FuzzRun {
  return {
    tool: { name: 'chainrpc', version: '0.1.0' },
    startedAt: '2026-11-28T12:28:35.440Z',
    durationMs: 2_229,
    seed: 7,
    options: { cases: null, durationMs: 15_000, only: [], maxRate: 5_000, maxBodyBytes: 1_048_576, seek: 'none', profile: 'reference' },
    targets: [{ url: NODE, cases: 74, findings: 2, state: 'stopped', medianMs: 23.53, slowBoundMs: 1_176.38, livenessChecks: 10 }],
    cases: 75,
    byFamily: { valid: 21, 'invalid-params': 24, envelope: 26, http: 4 },
    findings: [leakFinding(), deathFinding()],
    toolErrors: [],
    timeline: [{ atMs: 1_009, cases: 47, findings: 1 }],
    stop: 'all-targets-stopped',
    ...over,
  };
}

describe('a shrunk minimal case is titled by what it is (finding 1)', () => {
  it("says what the minimal request is and what it was shrunk from, never its original's title alone", () => {
    const f = leakFinding();
    expect(minimalCaseTitle(f)).toBe('chain_getAccount, no params, id "" (shrunk from: chain_getAccount: one param too many ({}))');
    // A title made so already (FindingBook) is kept as it is.
    expect(minimalCaseTitle(leakFinding('chain_getAccount, id "" (shrunk from: x)'))).toBe('chain_getAccount, id "" (shrunk from: x)');
    const md = renderFuzzMarkdown(shortRun());
    expect(md).toContain('**Minimal case**: chain\\_getAccount, no params, id "" (shrunk from: chain\\_getAccount: one param too many ({})) · shrunk from invalid-params/extra, seed 7 case #4');
    expect(md).not.toContain('one param too many ({}) (shrunk)');
    // The original stays in view, with its own title and body.
    expect(md).toContain('**Original case**, before shrinking: chain\\_getAccount: one param too many ({}) · invalid-params/extra, seed 7 case #4');
    const html = renderFuzzHtml(shortRun());
    expect(html).toContain('chain_getAccount, no params, id &quot;&quot; (shrunk from: chain_getAccount: one param too many ({}))');
    expect(html).toContain('The original case, before shrinking');
    // JUnit: the rule is the one that found it, not a claim about the minimal case.
    const root = parseXml(renderFuzzJunit(shortRun()));
    const names = xmlFindAll(root, 'testcase').map((c) => c.attributes.name);
    expect(names).toContain('F1 leak: chain_getAccount found by invalid-params/extra, shrunk');
    expect(names).not.toContain('F1 leak: chain_getAccount invalid-params/extra');
    const text = xmlText(xmlFindAll(root, 'failure')[0]!);
    expect(text).toContain('minimal case: chain_getAccount, no params, id "" (shrunk from: chain_getAccount: one param too many ({})) (shrunk from invalid-params/extra, seed 7 case #4)');
    expect(text).toContain('original case, before shrinking: chain_getAccount: one param too many ({}) (invalid-params/extra, seed 7 case #4)');
    expect(findingLine(leakFinding())).toMatch(/\(found by invalid-params\/extra, shrunk\)$/);
  });
});

describe("the node's case count and the run's are told apart (finding 2)", () => {
  it('says, in the node table of each format, why the node was sent fewer cases than the run made', () => {
    const run = shortRun();
    const md = renderFuzzMarkdown(run);
    expect(md).toContain(`| \`${NODE}\` | **stopped** | 74 of 75 |`);
    expect(md).toContain("Cases: 1 of the run's 75 cases was made after it stopped answering, so not sent to it.");
    expect(md).toContain('All: 1 of the 75 cases was made after every node had stopped answering, and sent to none');
    const html = renderFuzzHtml(run);
    expect(html).toContain('74 of 75');
    expect(html).toContain('data-testid="unsent"');
    expect(html).toContain('data-testid="unsent-all"');
    const root = parseXml(renderFuzzJunit(run));
    const properties = new Map(xmlFindAll(root, 'property').map((p): [string | undefined, string | undefined] => [p.attributes.name, p.attributes.value]));
    expect(properties.get('cases')).toBe('74');
    expect(properties.get('casesOfRun')).toBe('75');
    expect(properties.get('casesNotSent')).toBe("1 of the run's 75 cases was made after it stopped answering, so not sent to it");
  });

  it('says nothing when the node was sent every case the run made', () => {
    const run = shortRun({ cases: 74, targets: [{ url: NODE, cases: 74, findings: 2, state: 'stopped', medianMs: 23.53, slowBoundMs: 1_176.38, livenessChecks: 10 }] });
    expect(renderFuzzMarkdown(run)).not.toContain('not sent');
    expect(renderFuzzHtml(run)).not.toContain('data-testid="unsent');
  });
});

describe('oracles that barely ran are no clean pass (finding 3)', () => {
  it('skips the "no finding" cases of a node that stopped early, saying how far it got', () => {
    const root = parseXml(renderFuzzJunit(shortRun()));
    const noFinding = xmlFindAll(root, 'testcase').filter((c) => c.attributes.name?.endsWith(': no finding') === true);
    expect(noFinding.map((c) => c.attributes.name)).toContain('envelope: no finding');
    for (const c of noFinding) {
      const skipped = xmlFindAll(c, 'skipped');
      expect(skipped).toHaveLength(1);
      expect(skipped[0]?.attributes.message).toMatch(/^not a clean pass: the node stopped answering after 74 cases, 2\.15 s into the run of the 15\.0 s asked for; no finding by the [\w-]+ oracle in 74 cases so far$/);
    }
  });

  it('passes them when the node was fuzzed for all the run asked', () => {
    const run = shortRun({ durationMs: 15_000, stop: 'duration', findings: [leakFinding()], targets: [{ url: NODE, cases: 75, findings: 1, state: 'answering', medianMs: 23.53, slowBoundMs: 1_176.38, livenessChecks: 10 }] });
    const root = parseXml(renderFuzzJunit(run));
    const envelope = xmlFindAll(root, 'testcase').find((c) => c.attributes.name === 'envelope: no finding');
    expect(envelope).toBeDefined();
    expect(xmlFindAll(envelope!, 'skipped')).toHaveLength(0);
    expect(xmlText(envelope!).trim()).toBe('no finding by the envelope oracle in 75 cases');
  });
});

describe("a finding's headline leads with the oracle's words, the answer's excerpt after it, read (finding 4)", () => {
  it('widens the excerpt to whole lines and reads its escapes: no mid-word cut, no literal backslash-n', () => {
    const h = findingHeadline(leakFinding());
    expect(h.lead).toBe('answered with HTTP 200 showing a stack trace');
    expect(h.excerpt).toBe(
      [
        'TypeError: chain_getAccount takes 1 param (address); got 0',
        '    at leakyError (file:///work/repo/dist/reference-node/faults/deviations.js:103:56)',
      ].join('\n'),
    );
    expect(headlineLine(h)).toBe('answered with HTTP 200 showing a stack trace: TypeError: chain_getAccount takes 1 param (address); got 0 ⏎ at leakyError (file:///work/repo/dist/reference-node/faults/deviations.js:103:56)');
    // A message that quotes nothing, or quotes what is no part of the answer, is its own headline.
    expect(findingHeadline(deathFinding())).toEqual({ lead: 'the node stopped answering after this request' });
    const quoted = { ...leakFinding(), oracle: 'error-code' as const, message: 'answered with -32603 for the method: "zzq"' };
    expect(findingHeadline(quoted)).toEqual({ lead: 'answered with -32603 for the method: "zzq"' });
  });

  it('marks a cut it could not widen to a line with "…", at a word', () => {
    // Not found in the answer (cut at the fuzzer's cap): its partial words at both ends dropped.
    expect(readableExcerpt('ddress); got 0\\n    at leakyE', 'other')).toBe('…got 0\n    at…');
    // A long line: widened to the nearest words only.
    const long = `${'word '.repeat(40)}xx at f (/srv/a.js:1:2) yy ${'word '.repeat(40)}`;
    const raw = long.slice(long.indexOf('xx') + 1, long.indexOf('yy') + 1);
    expect(readableExcerpt(raw, long)).toBe('…xx at f (/srv/a.js:1:2) yy…');
  });

  it('shows the excerpt as lines in every format, never as \\n nor doubly escaped', () => {
    const md = renderFuzzMarkdown(shortRun());
    expect(md).toContain('answered with HTTP 200 showing a stack trace:\n\n```\nTypeError: chain_getAccount takes 1 param (address); got 0\n    at leakyError (');
    expect(md).not.toContain('\\\\n');
    expect(md).not.toMatch(/^…?ddress/m);
    const html = renderFuzzHtml(shortRun());
    expect(html).toContain('<p class="message">answered with HTTP 200 showing a stack trace:</p><pre class="answer excerpt" data-testid="excerpt-finding-F1">TypeError: chain_getAccount takes 1 param (address); got 0\n    at leakyError (');
    const failure = xmlFindAll(parseXml(renderFuzzJunit(shortRun())), 'failure')[0]!;
    expect(failure.attributes.message).toMatch(/^answered with HTTP 200 showing a stack trace: TypeError: chain_getAccount takes 1 param \(address\); got 0 ⏎ at leakyError/);
    expect(xmlText(failure)).toContain('answered with HTTP 200 showing a stack trace:\nTypeError: chain_getAccount takes 1 param (address); got 0\n    at leakyError (');
    expect(findingLine(leakFinding())).not.toContain('\\n');
  });
});

describe('the charts end with the final counts, or say there is nothing to draw (finding 5)', () => {
  it("adds the run's end to a short run's one timeline point: the cases of its last part, and every finding", () => {
    const run = shortRun();
    // 47 cases/s over the first 1,009 ms (47 cases), then the other 28 over the last 1,220 ms.
    expect(casesPoints(run)).toEqual([[1.009, 47], [2.229, 23]]);
    expect(findingsPoints(run)).toEqual([[1.009, 1], [2.229, 2]]);
    expect(casesChart(run)).toContain('<svg');
    expect(findingsChart(run)).toContain('<svg');
  });

  it('counts findings filed after the last timeline point (as the run settles) on its last point', () => {
    const late = { ...leakFinding(), id: 'F3', atMs: 2_200 };
    const run = shortRun({ durationMs: 2_229, findings: [leakFinding(), late], timeline: [{ atMs: 1_009, cases: 47, findings: 1 }, { atMs: 2_010, cases: 20, findings: 1 }] });
    expect(findingsPoints(run).at(-1)).toEqual([2.229, 2]);
  });

  it('says there is nothing to draw with fewer than two points', () => {
    const run = shortRun({ durationMs: 150, timeline: [], cases: 3 });
    expect(casesPoints(run)).toEqual([]);
    for (const chart of [casesChart(run), findingsChart(run)]) {
      expect(chart).not.toContain('<svg');
      expect(chart).toContain('Nothing to draw: the run lasted 150 ms');
    }
    // One timeline point and a tail too short to be a rate of its own: one point of cases; findings get the run's end.
    const one = shortRun({ durationMs: 1_100 });
    expect(casesPoints(one)).toEqual([[1.009, 47]]);
    expect(casesChart(one)).toContain('Nothing to draw: the run lasted 1.10 s, one point over time');
    expect(findingsPoints(one)).toEqual([[1.009, 1], [1.1, 2]]);
    const html = renderFuzzHtml(run);
    expect(html).toContain('data-testid="timeline"');
    expect(html).toContain('Nothing to draw');
  });
});
