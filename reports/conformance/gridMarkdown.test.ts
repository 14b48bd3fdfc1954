import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../suites/model.js';
import { GRID_NODES, gridRun, oneNodeRun } from '../../test/support/fixtureGrid.js';
import { renderMarkdown } from './renderMarkdown.js';

const section = (md: string, heading: string): string => {
  const start = md.indexOf(heading);
  if (start < 0) throw new Error(`no section ${heading}`);
  const next = md.indexOf('\n### ', start + heading.length);
  return md.slice(start, next < 0 ? undefined : next);
};

/** The cells of a GFM table line (split on pipes that are not escaped). */
const cellsOf = (line: string): string[] =>
  line
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

const tableOf = (md: string): string[][] =>
  md
    .split('\n')
    .filter((l) => l.startsWith('| Check |') || l.startsWith('| `'))
    .map(cellsOf);

describe('renderMarkdown, one node', () => {
  it('keeps the layout of today: the failing checks one by one, no grid', () => {
    const run = oneNodeRun();
    const md = renderMarkdown(run);
    expect(md).toBe(renderMarkdown(run, { layout: 'rows' }));
    expect(md).not.toContain('### By node');
    expect(md).toContain('### Failing checks (3)');
    expect(md).toContain('#### ❌ `chain_getAccount/balance-is-u128-string` · MUST fail · `http://127.0.0.1:8545`');
  });
});

describe('renderMarkdown, several nodes: the grid in short', () => {
  const run = gridRun({ nodes: 5, fillers: 80 });
  const md = renderMarkdown(run);
  const table = tableOf(md);

  it('tabulates the checks that fail, err or differ: gating failures first, then the others, then differences', () => {
    expect(md).toContain('### By node: 7 fail or err on some node, 2 differ between nodes\n');
    expect(table[0]).toEqual(['Check', 'Level', '`127.0.0.1:8545`', '`127.0.0.1:8546`', '`127.0.0.1:8547`', '`10.20.30.40:8545`', '`rpc-node-5.eu-we…rk:8545/gateway`', 'network']);
    expect(table.slice(1)).toEqual([
      ['`transport/empty-batch`', 'MUST', '✅', '❌', '✅', '✅', '❌', ''],
      ['`chain_getAccount/balance-is-u128-string`', 'MUST', '✅', '❌', '✅', '✅', '✅', ''],
      ['`chain_getBlockByHeight/head-height-monotonic`', 'MUST', '⚠️', '✅', '✅', '✅', '✅', ''],
      ['`chain_getBlockByHeight/genesis-height-zero`', 'MUST', '✅', '✅', '✅', '✅', '❌ *expired*', ''],
      ['`chain_getBlockByHeight/unknown-height-error`', 'PROFILE', '✅', '❌ *below gate*', '✅', '✅', '✅', ''],
      ['`chain_sendRawTransaction/rejects-bad-signature`', 'SHOULD', '✅', '❌ *expected*', '✅', '✅', '✅', ''],
      ['`network/tx-propagation`', 'SHOULD', '', '', '', '', '', '❌ *below gate*'],
      ['`chain_faucetClaim/grants-funds`', 'PROFILE', '⏭️', '✅', '✅', '✅', '✅', ''],
      ['`discovery/rpc-discover-openrpc`', 'PROFILE', '✅', '✅', '⏭️', '✅', '✅', ''],
    ]);
    // A legend for the symbols and for each mark the table uses.
    expect(md).toContain('✅ pass · ❌ fail · ⚠️ error · ⏭️ skip · – no result; *expired*: ');
    expect(md).toContain('*expected*: a baseline entry expects this failure');
    expect(md).not.toContain('*now passes*:');
  });

  it('counts the checks with the same result on every node in one line, and lists none of them', () => {
    const sameIds = new Set(run.results.map((r) => r.id));
    for (const row of table.slice(1)) sameIds.delete((row[0] ?? '').replace(/`/g, ''));
    expect(md).toContain(`\n${sameIds.size} checks with the same result on every node (pass: ${sameIds.size - 2}, skip: 2, 1 with a baseline note).\n`);
    expect(md).not.toContain('generated-');
  });

  it('gives each failing check one block: the nodes it fails on with their messages, and one reproduce command', () => {
    const failing = section(md, '### Failing checks (6)');
    expect(failing.split('\n').filter((l) => l.startsWith('#### '))).toEqual([
      '#### ❌ `transport/empty-batch` · MUST fail on 2 of 5 nodes',
      '#### ❌ `chain_getAccount/balance-is-u128-string` · MUST fail on 1 of 5 nodes',
      '#### ⚠️ `chain_getBlockByHeight/head-height-monotonic` · MUST error on 1 of 5 nodes',
      '#### ❌ `chain_getBlockByHeight/genesis-height-zero` · MUST fail on 1 of 5 nodes',
      '#### ❌ `chain_getBlockByHeight/unknown-height-error` · PROFILE fail on 1 of 5 nodes (does not gate)',
      '#### ❌ `network/tx-propagation` · SHOULD fail on the network (does not gate)',
    ]);
    const batch = failing.slice(0, failing.indexOf('#### ❌ `chain_getAccount'));
    expect(batch.match(/^- ❌ `[^`]+`: an empty batch was answered with an empty array/gm)).toHaveLength(2);
    expect(batch).toContain("Reproduce (`127.0.0.1:8546`):\n\n```sh\ncurl -sS -X POST 'http://127.0.0.1:8546/rpc'");
    // The failure a baseline expects is left to the baseline notes.
    expect(failing).not.toContain('rejects-bad-signature');
    expect(section(md, '### Baseline')).toContain(`- \`chain_sendRawTransaction/rejects-bad-signature\` on \`${GRID_NODES[1]}\``);
  });

  it('keeps what a node wrote from becoming Markdown or HTML', () => {
    expect(md).not.toMatch(/(?<!\\)<script/);
    expect(md).toContain('\\</script\\>\\<script\\>window.\\_\\_pwned=1');
  });

  it('keeps every table line whole, whatever a check id or a URL holds', () => {
    const bad: RunResult = gridRun({ nodes: 2 });
    const evil = 'http://x/a|b`c';
    bad.targets = [bad.targets[0] ?? '', evil];
    bad.results = bad.results.map((r) => ({ ...r, ...(r.node === GRID_NODES[1] ? { node: evil } : {}), ...(r.id === 'transport/empty-batch' ? { id: 'transport/a|b`<i>' } : {}) }));
    const rows = tableOf(renderMarkdown(bad));
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(row).toHaveLength(rows[0]?.length ?? 0);
    expect(rows[0]?.[3]).toBe('``x/a\\|b`c``');
    expect(rows.some((row) => row[0] === '``transport/a\\|b`<i>``')).toBe(true);
  });

  it('caps the table and the failing checks, and says how many were left out', () => {
    const capped = renderMarkdown(run, { maxRows: 3, maxFailures: 2 });
    expect(tableOf(capped)).toHaveLength(1 + 3);
    expect(capped).toContain('…and 6 more checks that fail or differ: see report.html.');
    expect(capped.match(/^#### /gm)).toHaveLength(2);
    expect(capped).toContain('…and 4 more failing checks: see report.html or junit.xml.');
  });

  it('shows 10 failing checks in full by default, as the table already names every one', () => {
    const many = gridRun({ nodes: 3, fillers: 30 });
    many.results = many.results.map((r) => (r.id.includes('/generated-') && r.node === GRID_NODES[2] ? { ...r, status: 'fail' as const } : r));
    const out = renderMarkdown(many);
    expect(out.match(/^#### /gm)).toHaveLength(10);
    expect(out).toContain('…and 26 more failing checks: see report.html or junit.xml.');
    // 7 failing checks of the fixture and 30 more, 2 that differ: all within the 40 rows of the table.
    expect(tableOf(out)).toHaveLength(1 + 39);
    expect(renderMarkdown(many, { maxFailures: 20 }).match(/^#### /gm)).toHaveLength(20);
  });

  it('stays short with 5 nodes and 500 checks', () => {
    const big = renderMarkdown(gridRun({ nodes: 5, fillers: 500 }));
    expect(big.length).toBeLessThan(12_000);
    expect(big.split('\n').length).toBeLessThan(150);
  });

  it('says so when nothing fails or differs', () => {
    const calm = gridRun({ nodes: 3 });
    calm.results = calm.results.filter((r) => !calm.results.some((o) => o.id === r.id && (o.status !== 'pass' || o.baseline)));
    const out = renderMarkdown(calm);
    expect(out).toContain('No check fails, errs or differs between the nodes.');
    expect(out).toMatch(/\n\d+ checks with the same result on every node \(pass: \d+\)\.\n/);
    expect(out).not.toContain('### Failing checks');
  });
});
