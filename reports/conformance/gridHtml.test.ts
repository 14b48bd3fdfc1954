import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../suites/model.js';
import { fixtureRun, HOSTILE_MESSAGE } from '../../test/support/fixtureRun.js';
import { GRID_NODES, gridRun, oneNodeRun, GRID_FAILING_IDS } from '../../test/support/fixtureGrid.js';
import { escapeHtml } from '../shared/escapeHtml.js';
import { renderHtml } from './renderHtml.js';

const sha = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const attr = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
const unescape = (text: string): string =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

interface Cell {
  id: string;
  node: string;
  status: string;
  classes: string;
  html: string;
}

/** Every cell of the grid (a <details class="cell ...">, which holds no other <details>), in page order. */
function cellsOf(html: string): Cell[] {
  return Array.from(html.matchAll(/<details class="cell [^>]*>[\s\S]*?<\/details>/g), (m) => {
    const tag = /^<details[^>]*>/.exec(m[0])?.[0] ?? '';
    return {
      id: unescape(attr(tag, 'data-id') ?? ''),
      node: unescape(attr(tag, 'data-node') ?? ''),
      status: attr(tag, 'data-status') ?? '',
      classes: attr(tag, 'class') ?? '',
      html: m[0],
    };
  });
}

/** Every row of the grid: its check id and part, in page order. */
const rowsOf = (html: string): { id: string; part: string }[] =>
  Array.from(html.matchAll(/<div class="grow[^"]*" data-testid="grid-row" data-id="([^"]*)" data-part="([^"]*)"/g), (m) => ({ id: unescape(m[1] ?? ''), part: m[2] ?? '' }));

const key = (r: { id: string; node: string; status: string }): string => `${r.id} @ ${r.node}: ${r.status}`;

describe('renderHtml, one node', () => {
  it('keeps the layout of a row per check: no grid, the same page as the rows layout', () => {
    const run = oneNodeRun();
    const html = renderHtml(run);
    expect(html).toBe(renderHtml(run, { layout: 'rows' }));
    expect(html).not.toContain('data-testid="grid"');
    expect(html.match(/<section class="category"/g)?.length).toBeGreaterThan(3);
    expect(html.match(/data-testid="check"/g)).toHaveLength(run.results.length);
  });
});

describe('renderHtml, several nodes: the grid', () => {
  const run = gridRun({ nodes: 5 });
  const html = renderHtml(run);
  const cells = cellsOf(html);

  it('is drawn for more than one target, and on request for one', () => {
    expect(html).toContain('data-testid="grid"');
    expect(html).not.toContain('<section class="category"');
    expect(renderHtml(gridRun({ nodes: 2 }))).toContain('data-testid="grid"');
    expect(renderHtml(run, { layout: 'rows' })).not.toContain('data-testid="grid"');
    expect(renderHtml(oneNodeRun(), { layout: 'grid' })).toContain('data-testid="grid"');
    // The rows layout of fixtureRun's two nodes is what the one-node tests check; the default for it is the grid.
    expect(renderHtml(fixtureRun())).toContain('data-testid="grid"');
  });

  it('stays one self-contained page: its own style and script by hash, nothing loaded', () => {
    // Attribute names only (values are escaped text: a title may well say "onerror=").
    const tags = (html.match(/<[^>]*>/g) ?? []).map((t) => t.replace(/"[^"]*"/g, '""'));
    expect(tags.filter((t) => /\s(src|href|srcset|action|formaction|on[a-z]+|style)\s*=/i.test(t))).toEqual([]);
    expect(html.split('<script').length - 1).toBe(1);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? '';
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    const style = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? '';
    expect(csp).toBe(`default-src 'none'; style-src ${sha(style)}; script-src ${sha(script)}; base-uri 'none'; form-action 'none'`);
    // The stylesheet places five columns, and holds no text of the run.
    expect(style).toContain('repeat(5, ');
    expect(style).toContain('.grow > .c5 { grid-column: 6; }');
    expect(style).not.toContain('.c6');
    for (const node of GRID_NODES) expect(style).not.toContain(node);
  });

  it('reaches every result of the run: one cell each, with its status and its own evidence', () => {
    expect(cells.map(key).sort()).toEqual(run.results.map(key).sort());
    for (const r of run.results) {
      const cell = cells.find((c) => c.id === r.id && c.node === r.node);
      expect(cell?.html).toContain(`<p class="message" data-testid="message">${escapeHtml(r.evidence.message)}</p>`);
      for (const exchange of r.evidence.exchanges) expect(cell?.html).toContain(escapeHtml(exchange.request.body));
      if (r.reproduce !== undefined) expect(cell?.html).toContain(escapeHtml(r.reproduce));
    }
    // No cell is open when the page loads: the grid reads at a glance, a click opens the evidence.
    expect(cells.filter((c) => /<details[^>]* open[ >]/.test(c.html))).toEqual([]);
  });

  it('puts the checks that fail or err first, then those that differ, then the rest folded under one line', () => {
    const rows = rowsOf(html);
    expect(rows.filter((r) => r.part === 'failing').map((r) => r.id)).toEqual(GRID_FAILING_IDS);
    expect(rows.filter((r) => r.part === 'differ').map((r) => r.id)).toEqual(['chain_faucetClaim/grants-funds', 'discovery/rpc-discover-openrpc']);
    const order = rows.map((r) => ['failing', 'differ', 'same'].indexOf(r.part));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // The failing and differing parts are open sections; the rest is one closed <details>, its summary the count.
    const same = /<details class="part same"[^>]*><summary data-testid="same-summary"><h2>([^<]*)<\/h2><\/summary>/.exec(html);
    expect(same?.[0]).not.toContain(' open');
    const sameIds = new Set(rows.filter((r) => r.part === 'same').map((r) => r.id));
    const statuses = [...sameIds].map((id) => run.results.find((r) => r.id === id)?.status);
    expect(same?.[1]).toBe(
      `${sameIds.size} checks with the same result on every node (pass: ${statuses.filter((s) => s === 'pass').length}, skip: ${statuses.filter((s) => s === 'skip').length}, 1 with a baseline note)`,
    );
    expect(html.indexOf('data-testid="part-failing"')).toBeLessThan(html.indexOf('data-testid="part-differ"'));
    expect(html.indexOf('data-testid="part-differ"')).toBeLessThan(html.indexOf('data-testid="part-same"'));
  });

  it('heads each column with the node\u2019s URL, shortened, whole in its title, and its failures and errors', () => {
    const heads = Array.from(html.matchAll(/<div class="ghc c\d+" data-testid="node-head" title="([^"]*)">([\s\S]*?)<\/div>/g)).slice(0, 5);
    expect(heads.map((m) => unescape(m[1] ?? ''))).toEqual([...GRID_NODES]);
    expect(heads.map((m) => /<span class="gurl">([^<]*)<\/span>/.exec(m[2] ?? '')?.[1])).toEqual([
      '127.0.0.1:8545',
      '127.0.0.1:8546',
      '127.0.0.1:8547',
      '10.20.30.40:8545',
      'rpc-node-5.eu-we…rk:8545/gateway',
    ]);
    expect(heads.map((m) => (m[2] ?? '').replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim())).toEqual([
      '127.0.0.1:8545 1 error',
      '127.0.0.1:8546 4 fail',
      '127.0.0.1:8547 no failure',
      '10.20.30.40:8545 no failure',
      'rpc-node-5.eu-we…rk:8545/gateway 2 fail',
    ]);
  });

  it('gives a network-scope check one cell across the node columns', () => {
    const network = cells.filter((c) => c.node === 'network');
    expect(network.map((c) => [c.id, c.status])).toEqual([
      ['network/tx-propagation', 'fail'],
      ['network/consistent-head', 'pass'],
      ['network/peers-listed', 'skip'],
    ]);
    expect(network.every((c) => c.classes.split(' ').includes('span'))).toBe(true);
    expect(network[0]?.html).toContain('for the network (5 nodes together)');
  });

  it('marks the cell a baseline entry or the gate speaks of, and says it in full in its evidence', () => {
    const cell = (id: string, node: string): string => cells.find((c) => c.id === id && c.node === node)?.html ?? '';
    const marks = (text: string): string[] => Array.from(/<summary[\s\S]*?<\/summary>/.exec(text)?.[0].matchAll(/data-testid="cell-mark"[^>]*>([^<]*)</g) ?? [], (m) => m[1] ?? '');
    const expected = cell('chain_sendRawTransaction/rejects-bad-signature', GRID_NODES[1]);
    expect(marks(expected)).toEqual(['expected']);
    expect(expected).toContain('<span class="mark" data-testid="baseline">expected failure until 2099-12-31: ticket #42: signature checks land in v2</span>');
    expect(marks(cell('chain_getBlockByHeight/genesis-height-zero', GRID_NODES[4]))).toEqual(['expired']);
    expect(cell('chain_getBlockByHeight/genesis-height-zero', GRID_NODES[4])).toContain('baseline entry expired (2024-12-31): gates again');
    expect(marks(cell('net_peerCount/is-u64', GRID_NODES[0]))).toEqual(['now passes']);
    expect(marks(cell('chain_getBlockByHeight/unknown-height-error', GRID_NODES[1]))).toEqual(['does not gate']);
    expect(marks(cell('network/tx-propagation', 'network'))).toEqual(['does not gate']);
    // The other nodes' cells of those checks carry no mark.
    expect(marks(cell('chain_sendRawTransaction/rejects-bad-signature', GRID_NODES[0]))).toEqual([]);
    expect(marks(cell('chain_getBlockByHeight/genesis-height-zero', GRID_NODES[1]))).toEqual([]);
    expect(cells.filter((c) => marks(c.html).length > 0)).toHaveLength(5);
  });

  it('escapes what a node sent, in the cell\u2019s evidence and in its title', () => {
    const hostile = cells.find((c) => c.id === 'chain_getBlockByHeight/unknown-height-error' && c.node === GRID_NODES[1])?.html ?? '';
    expect(hostile).toContain(escapeHtml(JSON.stringify(HOSTILE_MESSAGE)));
    expect(hostile).toContain(escapeHtml(HOSTILE_MESSAGE));
    expect(hostile).toContain('␀␇ input ␛[31mred␛[0m');
    expect(attr(/<summary[^>]*>/.exec(hostile)?.[0] ?? '', 'title')).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned=1');
    expect(html).not.toContain('window.__pwned=1</script>');
    expect(html).not.toMatch(/<img/i);
  });

  it('escapes a hostile check id and node URL wherever the grid shows them', () => {
    const bad = gridRun({ nodes: 2 });
    const evilNode = 'http://x/"><script>alert(1)</script>';
    bad.targets = [bad.targets[0] ?? '', evilNode];
    bad.results = bad.results.map((r) => ({
      ...r,
      ...(r.node === GRID_NODES[1] ? { node: evilNode } : {}),
      ...(r.id === 'transport/empty-batch' ? { id: 'transport/<b onclick=x>"&' } : {}),
    }));
    const page = renderHtml(bad);
    expect(page.split('<script').length - 1).toBe(1);
    expect(page).not.toContain('<b onclick');
    expect(page).toContain('data-id="transport/&lt;b onclick=x&gt;&quot;&amp;"');
    expect(page).toContain(`title="${escapeHtml(evilNode)}"`);
    expect(cellsOf(page).map(key).sort()).toEqual(bad.results.map(key).sort());
  });

  it('shows what a strange run holds: a stray node gets a column, a duplicate a second row', () => {
    const odd: RunResult = gridRun({ nodes: 2 });
    const [first] = odd.results;
    if (!first) throw new Error('empty fixture');
    odd.results = [...odd.results, { ...first, node: 'http://stray:9' }, { ...first, status: 'skip' }];
    const page = renderHtml(odd);
    expect(cellsOf(page).map(key).sort()).toEqual(odd.results.map(key).sort());
    expect(page).toContain('<span class="gurl">stray:9</span> <span class="note">(not a target)</span>');
    expect(rowsOf(page).filter((r) => r.id === first.id)).toHaveLength(2);
  });

  it('says so when nothing fails or differs, and still folds the rest', () => {
    const calm = gridRun({ nodes: 3 });
    calm.results = calm.results.filter((r) => !calm.results.some((o) => o.id === r.id && (o.status !== 'pass' || o.baseline)));
    const page = renderHtml(calm);
    expect(page).toContain('data-testid="no-differences"');
    expect(page).not.toContain('data-testid="part-failing"');
    expect(page).toMatch(/<h2>\d+ checks with the same result on every node \(pass: \d+\)<\/h2>/);
    expect(cellsOf(page)).toHaveLength(calm.results.length);
  });

  // Its size is judged here; its time is not (a shared machine's timing belongs in a benchmark, not a unit test).
  it('stays small with 5 nodes and 500 checks: every cell, under 8 MB', () => {
    const big = gridRun({ nodes: 5, fillers: 500 });
    const text = renderHtml(big);
    expect(cellsOf(text)).toHaveLength(big.results.length);
    expect(text.length).toBeLessThan(8_000_000);
  });
});
