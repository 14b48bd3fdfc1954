/**
 * summary.md of a fuzz run, and the headline every fuzz report leads with: what a CI job page must show (the
 * verdict in words, every finding with its replay command and curl, the minimal body fenced, hex for bytes that
 * are not UTF-8, flaky sightings (said, never counted) and tool errors apart), and that nothing a node sent
 * becomes markup.
 */
import { describe, expect, it } from 'vitest';
import type { FuzzRun } from '../../fuzz/model.js';
import { FUZZ_HOSTILE, FUZZ_NODE_A, FUZZ_NODE_B, fuzzRunFixture } from '../../test/support/fuzzRunFixture.js';
import { fuzzHeadline } from './fuzzHeadline.js';
import { renderFuzzMarkdown } from './renderFuzzMarkdown.js';

/** The lines of the block that starts with a heading holding `text`, up to the next heading of any level. */
function block(md: string, text: string): string {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.startsWith('#') && l.includes(text));
  if (start < 0) throw new Error(`no heading with ${text}`);
  const end = lines.findIndex((l, i) => i > start && /^#{2,4} /.test(l));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

describe('fuzzHeadline', () => {
  it('counts the standing findings and the nodes they were found on, and says the flaky sightings apart', () => {
    expect(fuzzHeadline(fuzzRunFixture('findings'))).toEqual({
      word: 'FOUND',
      line: `FUZZ: 5 findings on ${FUZZ_NODE_A} and ${FUZZ_NODE_B} in 10,793 cases (seed 424242; 1 flaky sighting did not reproduce)`,
    });
  });

  it('calls a run whose only findings are flaky sightings CLEAN, and says the sightings', () => {
    expect(fuzzHeadline(fuzzRunFixture('flaky'))).toEqual({ word: 'CLEAN', line: `FUZZ: no finding in 10,000 cases (seed 424242, 50.0 s, ${FUZZ_NODE_A}; 1 flaky sighting did not reproduce)` });
  });

  it('says how many cases found nothing, with the seed, the time and the node', () => {
    expect(fuzzHeadline(fuzzRunFixture('clean'))).toEqual({ word: 'CLEAN', line: `FUZZ: no finding in 10,000 cases (seed 424242, 50.0 s, ${FUZZ_NODE_A})` });
  });

  it('says when nothing was fuzzed, and why', () => {
    expect(fuzzHeadline(fuzzRunFixture('unreachable'))).toEqual({ word: 'NOTHING', line: `FUZZ: nothing fuzzed: ${FUZZ_NODE_A} did not answer (seed 424242)` });
  });

  it('says a run was interrupted, and names the nodes by count beyond two', () => {
    const run: FuzzRun = { ...fuzzRunFixture('findings'), stop: 'interrupted' };
    run.findings = run.findings.map((f, i) => ({ ...f, url: `http://10.0.0.${i}:8545` }));
    // Six nodes named, but the flaky sighting's node is not one a finding stands on: five nodes.
    expect(fuzzHeadline(run).line).toBe('FUZZ: 5 findings on 5 nodes in 10,793 cases (seed 424242; 1 flaky sighting did not reproduce; interrupted)');
    const one = { ...fuzzRunFixture('findings'), findings: fuzzRunFixture('findings').findings.slice(0, 1) };
    expect(fuzzHeadline(one).line).toBe(`FUZZ: 1 finding on ${FUZZ_NODE_A} in 10,793 cases (seed 424242)`);
  });
});

/** The clean run (or the findings run) with a second node that never answered, as the runner files one. */
function withUnreachable(kind: 'clean' | 'findings'): FuzzRun {
  const run = fuzzRunFixture(kind);
  const down = 'http://10.0.0.9:8545';
  return { ...run, targets: [...run.targets, { url: down, cases: 0, findings: 0, state: 'unreachable', medianMs: 0, slowBoundMs: 1000, livenessChecks: 1 }] };
}

describe('a node that never answered, beside others that did', () => {
  const note = 'http://10.0.0.9:8545 did not answer at the start: not fuzzed';

  it('is named in the headline (the console\'s last line and summary.md\'s heading), clean or not, and not among the nodes fuzzed', () => {
    expect(fuzzHeadline(withUnreachable('clean')).line).toBe(`FUZZ: no finding in 10,000 cases (seed 424242, 50.0 s, ${FUZZ_NODE_A}; ${note})`);
    expect(fuzzHeadline(withUnreachable('findings')).line).toBe(`FUZZ: 5 findings on ${FUZZ_NODE_A} and ${FUZZ_NODE_B} in 10,793 cases (seed 424242; 1 flaky sighting did not reproduce; ${note})`);
    // Only unreachable nodes: nothing was fuzzed, said as before.
    expect(fuzzHeadline(fuzzRunFixture('unreachable')).line).toBe(`FUZZ: nothing fuzzed: ${FUZZ_NODE_A} did not answer (seed 424242)`);
  });

  it('is said in summary.md in a sentence of its own, under the headline', () => {
    const md = renderFuzzMarkdown(withUnreachable('clean'));
    expect(md.split('\n')[0]).toContain(note);
    expect(md).toContain('⚠️ http://10.0.0.9:8545 did not answer a known-good call (chain\\_blockNumber) at the start: no case was sent to it, so nothing was judged or compared there.');
    expect(renderFuzzMarkdown(fuzzRunFixture('clean'))).not.toContain('did not answer');
  });
});

describe('renderFuzzMarkdown', () => {
  const run = fuzzRunFixture('findings');
  const md = renderFuzzMarkdown(run, { reportPath: '.chainrpc/reports/fuzz-2026-12-01T10-00-00-000Z/report.json', command: 'chainrpc fuzz --url http://127.0.0.1:8545 --seed 424242' });

  it('leads with the headline, then the run in a line', () => {
    const [head, , about] = md.split('\n');
    expect(head).toBe(`## ❌ FUZZ: 5 findings on ${FUZZ_NODE_A} and ${FUZZ_NODE_B} in 10,793 cases (seed 424242; 1 flaky sighting did not reproduce)`);
    expect(about).toContain('Seed `424242` · 10,793 cases in 1 min 00 s');
    expect(about).toContain('only `chain_getBlockByHeight`, `chain_getAccount`');
  });

  it('shows every finding first, each with its oracle, method, message, replay command and curl', () => {
    expect(md.indexOf('### Findings (5)')).toBeLessThan(md.indexOf('### Nodes'));
    for (const f of run.findings) {
      const b = block(md, ` ${f.id} · `);
      expect(b).toContain(`\`${f.oracle}\``);
      if (f.method !== undefined) expect(b).toContain(`\`${f.method}\``);
      expect(b).toContain(`chainrpc fuzz --replay .chainrpc/reports/fuzz-2026-12-01T10-00-00-000Z/report.json ${f.id}\n`);
      if (f.minimal.curl.length < 2000) expect(b).toContain(f.minimal.curl);
    }
    expect(block(md, ' F1 · ')).toContain('answered an invalid height (2^64, above the u64 maximum) with a result');
    expect(block(md, ' F1 · ')).toContain('**Minimal case**: height 2^64 · shrunk from invalid-params/maximum, seed 424242 case #1812');
    expect(block(md, ' F1 · ')).toContain('```\n{"jsonrpc":"2.0","id":7,"method":"chain_getBlockByHeight","params":["18446744073709551616"]}\n```');
    expect(block(md, ' F1 · ')).toContain('**Answer**: HTTP 200 in 2.10 ms\n\n```\n{"jsonrpc":"2.0","id":7,"result":null}\n```');
  });

  it('puts the flaky sighting in a section of its own, after the findings, with the same details', () => {
    const heading = '### Flaky sightings (seen once, not when sent again; not counted)';
    expect(md.indexOf(heading)).toBeGreaterThan(md.indexOf('#### ❌ F5'));
    expect(md.indexOf(heading)).toBeLessThan(md.indexOf('#### ⚠️ F6'));
    expect(md.indexOf('#### ⚠️ F6')).toBeLessThan(md.indexOf('### Nodes'));
    expect(md).toContain('#### ⚠️ F6 · `slow` · `chain_getBlockByHeight` · flaky');
    expect(block(md, '### Findings (5)')).not.toContain('F6');
    const f6 = block(md, ' F6 · ');
    expect(f6).toContain('answered in 2,310 ms, beyond the time bound of 1,000 ms');
    expect(f6).toContain('flaky: not seen again when the minimal case was re-sent, so not counted');
    expect(f6).toContain('**Answer**: HTTP 200 in 2.31 s');
    expect(f6).toContain('chainrpc fuzz --replay .chainrpc/reports/fuzz-2026-12-01T10-00-00-000Z/report.json F6\n');
    expect(f6).toContain(run.findings.find((f) => f.id === 'F6')?.minimal.curl ?? 'no F6');
  });

  it('calls a run whose only findings are flaky sightings clean, and still shows them, apart', () => {
    const flaky = renderFuzzMarkdown(fuzzRunFixture('flaky'));
    expect(flaky.split('\n')[0]).toBe(`## ✅ FUZZ: no finding in 10,000 cases (seed 424242, 50.0 s, ${FUZZ_NODE_A}; 1 flaky sighting did not reproduce)`);
    expect(flaky).not.toContain('### Findings');
    expect(flaky).toContain('### Flaky sightings (seen once, not when sent again; not counted)\n\n#### ⚠️ F1 · `slow` · `chain_getBlockByHeight` · flaky');
    expect(flaky).toContain('chainrpc fuzz --replay report.json F1\n');
    expect(flaky).toContain(`| \`${FUZZ_NODE_A}\` | answering | 10,000 | 0 (+1 flaky) |`);
  });

  it('cuts a long body, shows a body that is not UTF-8 as hex, and both nodes\' answers of a disagreement', () => {
    const f2 = block(md, ' F2 · ');
    expect(f2).toMatch(/\[{100,}… \(38,?500 more characters\)\n```/);
    expect(f2).toContain('# the curl command is 40,');
    expect(f2).toContain('no answer (ECONNRESET: socket hang up) after 5.00 s');
    expect(block(md, ' F4 · ')).toContain('```\n00000000  7b 22 69 64 22 3a ff fe  00 01 7d                 |{"id":....}|\n```');
    expect(block(md, ' F4 · ')).toContain('11 bytes, not UTF-8 text');
    const f3 = block(md, ' F3 · ');
    expect(f3).toContain(`**Answer** of \`${FUZZ_NODE_A}\`: HTTP 200`);
    expect(f3).toContain(`**Answer** of \`${FUZZ_NODE_B}\`: HTTP 200 in 2.40 ms\n\n\`\`\`\n{"jsonrpc":"2.0","id":2,"result":{"balance":1000,"nonce":0}}`);
  });

  it('keeps a hostile body inert: fenced where it is the body, escaped where it is text', () => {
    const f5 = block(md, ' F5 · ');
    expect(f5).toContain(`\`\`\`\n{"jsonrpc":"2.0","id":9,"method":"chain_getBlockByHeight","params":["${FUZZ_HOSTILE}"]}\n\`\`\``);
    // Outside code, every < is escaped (\<): no raw tag outside a fence.
    const outsideFences = md.split(/^```.*$/m).filter((_, i) => i % 2 === 0).join('\n');
    expect(outsideFences).not.toMatch(/(?<!\\)<(img|\/script)/);
    expect(outsideFences).toContain('\\</script\\>\\<img src=x onerror=alert(1)\\>');
  });

  it('then the nodes, the cases by family, and the tool errors apart', () => {
    expect(md).toContain(`| \`${FUZZ_NODE_A}\` | **stopped** | 5,396 of 10,793 | **4** | 2.10 ms | 1.00 s | 812 |`);
    expect(md).toContain(`| \`${FUZZ_NODE_B}\` | answering | 5,397 of 10,793 | **1** (+1 flaky) | 2.60 ms | 1.00 s | 790 |`);
    expect(md).toContain('| 4,317 | 3,238 | 2,159 | 1,079 | 10,793 |');
    const tools = block(md, 'Tool errors (2)');
    expect(tools).toContain('not counted against a node');
    expect(tools).toContain(`- \`${FUZZ_NODE_B}\`: could not fund an account`);
    expect(md.indexOf('### Tool errors')).toBeGreaterThan(md.indexOf('### Cases by family'));
    expect(md.trimEnd().endsWith('Command: `chainrpc fuzz --url http://127.0.0.1:8545 --seed 424242`')).toBe(true);
  });

  it('says a clean run found nothing, with no findings section, and names report.json by default', () => {
    const clean = renderFuzzMarkdown(fuzzRunFixture('clean'));
    expect(clean.split('\n')[0]).toBe(`## ✅ FUZZ: no finding in 10,000 cases (seed 424242, 50.0 s, ${FUZZ_NODE_A})`);
    expect(clean).not.toContain('### Findings');
    expect(clean).not.toContain('Tool errors');
    expect(renderFuzzMarkdown(run)).toContain('chainrpc fuzz --replay report.json F1\n');
  });

  it('passes the run\'s --rpc-path and --method-prefix in the replay commands', () => {
    const moved: FuzzRun = { ...run, options: { ...run.options, rpcPath: '/v1/rpc', methodPrefix: '' } };
    expect(renderFuzzMarkdown(moved)).toContain("chainrpc fuzz --replay report.json F1 --rpc-path /v1/rpc --method-prefix ''\n");
  });

  it('shows the first 20 findings in full and names the rest', () => {
    const many: FuzzRun = { ...run, findings: Array.from({ length: 23 }, (_, i) => ({ ...(run.findings[0] as FuzzRun['findings'][number]), id: `F${i + 1}` })) };
    const text = renderFuzzMarkdown(many);
    expect(text.match(/^#### /gm)).toHaveLength(20);
    expect(text).toContain('…and 3 more findings: F21, F22, F23');
  });
});
