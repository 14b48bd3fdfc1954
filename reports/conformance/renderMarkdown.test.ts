import { describe, expect, it } from 'vitest';
import type { CheckResult, RunResult } from '../../suites/model.js';
import { summarize } from '../../suites/runner/verdict.js';
import { NODE_A, NODE_B, fixtureRun } from '../../test/support/fixtureRun.js';
import { renderMarkdown as render } from './renderMarkdown.js';
import type { MarkdownOptions } from './renderMarkdown.js';

// The layout of a run against one node (gridMarkdown.test.ts checks that it is the default there); fixtureRun's
// two nodes ask for it, to check it with results from more than one node.
const renderMarkdown = (run: RunResult, options: MarkdownOptions = {}): string => render(run, { layout: 'rows', ...options });

const section = (md: string, heading: string): string => {
  const start = md.indexOf(heading);
  if (start < 0) throw new Error(`no section ${heading}`);
  const next = md.indexOf('\n### ', start + heading.length);
  return md.slice(start, next < 0 ? undefined : next);
};

describe('renderMarkdown', () => {
  const md = renderMarkdown(fixtureRun());

  it("puts the run's hints before the counts, escaped", () => {
    const hints = md.slice(md.indexOf('**First, fix this:**'), md.indexOf('| Level |'));
    expect(hints.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(2);
    expect(hints).not.toContain('<script>');
    expect(renderMarkdown({ ...fixtureRun(), hints: [] })).not.toContain('First, fix this');
  });

  it('starts with the verdict line', () => {
    expect(md.split('\n')[0]).toBe('## ❌ chainrpc: FAILED at gate MUST: 4 check result(s) at MUST level failed or could not be verified');
    const passing = fixtureRun();
    passing.summary = { ...passing.summary, passed: true, certified: true, gating: 0, exitCode: 0, verdict: 'no failures at MUST' };
    expect(renderMarkdown(passing).split('\n')[0]).toBe('## ✅ chainrpc: CERTIFIED at gate MUST: no failures at MUST');
    passing.summary.certified = false;
    passing.gate = 'SHOULD';
    expect(renderMarkdown(passing).split('\n')[0]).toMatch(/^## ✅ chainrpc: PASSED at gate SHOULD/);
  });

  it('tabulates the counts per level, marking the levels that gate', () => {
    expect(md).toContain('| Level | Pass | Fail | Error | Skip | Total |');
    expect(md).toContain('| **MUST** (gates) | 5 | 3 | 1 | 0 | 9 |');
    expect(md).toContain('| SHOULD | 2 | 2 | 0 | 0 | 4 |');
    expect(md).toContain('| PROFILE | 0 | 2 | 0 | 2 | 4 |');
    expect(md).toContain('| All | 7 | 7 | 1 | 2 | 17 |');
  });

  it('lists the failing checks, gating ones first, each with its reproduce command in a code block', () => {
    const failing = section(md, '### Failing checks (7)');
    const headings = failing.split('\n').filter((l) => l.startsWith('#### '));
    expect(headings).toEqual([
      `#### ❌ \`transport/empty-batch\` · MUST fail · \`${NODE_B}\``,
      `#### ❌ \`chain_getAccount/balance-is-u128-string\` · MUST fail · \`${NODE_A}\``,
      `#### ⚠️ \`chain_getBlockByHeight/head-height-monotonic\` · MUST error · \`${NODE_B}\``,
      `#### ❌ \`chain_getBlockByHeight/genesis-height-zero\` · MUST fail · \`${NODE_B}\``,
      `#### ❌ \`transport/control-characters-answered\` · PROFILE fail (does not gate) · \`${NODE_B}\``,
      `#### ❌ \`chain_getBlockByHeight/unknown-height-error\` · PROFILE fail (does not gate) · \`${NODE_A}\``,
      '#### ❌ `network/tx-propagation` · SHOULD fail (does not gate) · `network`',
    ]);
    expect(failing).toContain('Account balance is a u128 decimal string: result.balance is a JSON number; the spec requires a decimal string (u128)');
    expect(failing).toContain(`\`\`\`sh\ncurl -sS -X POST '${NODE_B}/rpc' -H 'content-type: application/json' -H 'user-agent: chainrpc/0.1.0' --data-binary '[]'\n\`\`\``);
    // The expected failure is not among them.
    expect(failing).not.toContain('rejects-bad-signature');
  });

  it('caps the failing checks and says how many more there are', () => {
    const capped = renderMarkdown(fixtureRun(), { maxFailures: 2 });
    expect(capped.match(/^#### /gm)).toHaveLength(2);
    expect(capped).toContain('…and 5 more failing checks: see report.html or junit.xml.');
  });

  it('ends with the baseline notes: entries to remove, expired entries, expected failures', () => {
    const notes = section(md, '### Baseline `.chainrpc/baseline.json`');
    expect(notes).toContain(`**Now passing: remove this entry from the baseline**\n\n- \`net_peerCount/is-u64\` on \`${NODE_A}\`: was a hex string before v1.3`);
    expect(notes).toContain(`**Expired: this entry gates again**\n\n- \`chain_getBlockByHeight/genesis-height-zero\` on \`${NODE_B}\` (fail), expired 2024-12-31: ticket #17: off-by-one in genesis`);
    expect(notes).toContain('**Expected failures (1, not gating)**');
    expect(md.indexOf('### Baseline')).toBeGreaterThan(md.indexOf('### Failing checks'));
  });

  it('keeps markup that nodes or checks wrote from becoming Markdown or HTML', () => {
    const run = fixtureRun();
    const bad = run.results.find((r) => r.status === 'fail') as CheckResult;
    bad.evidence.message = '<img src=x onerror=alert(1)> **bold** [link](http://x) | cell\n# heading';
    bad.evidence.actual = 'has ``` and ` inside';
    bad.reproduce = "curl 'x'\n```\n<script>alert(1)</script>";
    const out = renderMarkdown(run);
    expect(out).not.toMatch(/(?<!\\)<img/);
    expect(out).toContain('\\<img src=x onerror=alert(1)\\> \\*\\*bold\\*\\* \\[link\\](http://x) \\| cell # heading');
    expect(out).toContain('actual ````has ``` and ` inside````');
    expect(out).toContain("````sh\ncurl 'x'\n```\n<script>alert(1)</script>\n````");
  });

  it('leaves out the failure and baseline sections when there is nothing to say', () => {
    const run: RunResult = fixtureRun();
    run.results = run.results.filter((r) => r.status === 'pass' && !r.baseline);
    run.summary = summarize(run.results, run.gate, false);
    const out = renderMarkdown(run);
    expect(out).not.toContain('### Failing checks');
    expect(out).not.toContain('### Baseline');
    expect(out.split('\n')[0]).toBe('## ✅ chainrpc: CERTIFIED at gate MUST: no failure at MUST level');
  });
});
