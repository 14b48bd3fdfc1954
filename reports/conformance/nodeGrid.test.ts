import { describe, expect, it } from 'vitest';
import type { CheckResult, RunResult } from '../../suites/model.js';
import { GRID_NODES, gridRun, GRID_FAILING_IDS } from '../../test/support/fixtureGrid.js';
import { nodeGrid, rowResults, sameLine, shortUrl } from './nodeGrid.js';

const FAILING = GRID_FAILING_IDS;

const ids = (run: RunResult, part: string): string[] =>
  nodeGrid(run)
    .rows.filter((r) => r.part === part)
    .map((r) => r.id);

describe('nodeGrid', () => {
  it('puts checks that fail or err on some node first, then those that differ, then the rest, each in catalogue order', () => {
    const five = gridRun({ nodes: 5 });
    expect(ids(five, 'failing')).toEqual(FAILING);
    expect(ids(five, 'differ')).toEqual(['chain_faucetClaim/grants-funds', 'discovery/rpc-discover-openrpc']);
    // With two nodes, nobody skips the discovery check: the same result on both.
    const two = gridRun({ nodes: 2 });
    expect(ids(two, 'failing')).toEqual(FAILING);
    expect(ids(two, 'differ')).toEqual(['chain_faucetClaim/grants-funds']);
    expect(ids(two, 'same')).toContain('discovery/rpc-discover-openrpc');
    const parts = nodeGrid(five).rows.map((r) => r.part);
    expect(parts).toEqual([...parts].sort((a, b) => ['failing', 'differ', 'same'].indexOf(a) - ['failing', 'differ', 'same'].indexOf(b)));
  });

  it('holds every result of the run exactly once, in the column of its node', () => {
    const run = gridRun({ nodes: 5, fillers: 30 });
    const grid = nodeGrid(run);
    const placed = grid.rows.flatMap(rowResults);
    expect(placed).toHaveLength(run.results.length);
    expect(new Set(placed)).toEqual(new Set(run.results));
    for (const row of grid.rows) {
      row.cells.forEach((r, i) => {
        if (r) expect([r.id, r.node]).toEqual([row.id, grid.columns[i]?.url]);
      });
      if (row.network) expect(row.network.node).toBe('network');
    }
    expect(grid.columns.map((c) => c.url)).toEqual(run.targets);
  });

  it('gives a network-scope check one row, without cells', () => {
    const grid = nodeGrid(gridRun({ nodes: 3 }));
    const network = grid.rows.filter((r) => r.network);
    expect(network.map((r) => [r.id, r.part])).toEqual([
      ['network/tx-propagation', 'failing'],
      ['network/consistent-head', 'same'],
      ['network/peers-listed', 'same'],
    ]);
    expect(network.every((r) => r.cells.length === 0)).toBe(true);
  });

  it('counts each node\u2019s results per status for its heading', () => {
    const run = gridRun({ nodes: 5 });
    const grid = nodeGrid(run);
    grid.columns.forEach((column) => {
      const mine = run.results.filter((r) => r.node === column.url);
      expect(column.counts).toEqual({
        pass: mine.filter((r) => r.status === 'pass').length,
        fail: mine.filter((r) => r.status === 'fail').length,
        error: mine.filter((r) => r.status === 'error').length,
        skip: mine.filter((r) => r.status === 'skip').length,
      });
    });
    expect(grid.columns.map((c) => [c.counts.fail, c.counts.error])).toEqual([[0, 1], [4, 0], [0, 0], [0, 0], [2, 0]]);
  });

  it('loses nothing a strange run holds: a result from a node that is not a target, two results of one check on one node, a target without a result', () => {
    const run = gridRun({ nodes: 2 });
    const [first] = run.results;
    if (!first) throw new Error('empty fixture');
    const stray: CheckResult = { ...first, node: 'http://stray:1' };
    const twice: CheckResult = { ...first, status: 'error' };
    run.results = [...run.results.filter((r) => !(r.id === 'chain_faucetClaim/grants-funds' && r.node === GRID_NODES[1])), stray, twice];
    const grid = nodeGrid(run);
    expect(grid.columns.map((c) => [c.url, c.target])).toEqual([[GRID_NODES[0], true], [GRID_NODES[1], true], ['http://stray:1', false]]);
    const placed = grid.rows.flatMap(rowResults);
    expect(placed).toHaveLength(run.results.length);
    expect(new Set(placed)).toEqual(new Set(run.results));
    // The duplicate opens a second row of its check; the check one target has no result for differs.
    expect(grid.rows.filter((r) => r.id === first.id)).toHaveLength(2);
    expect(grid.rows.find((r) => r.id === 'chain_faucetClaim/grants-funds')?.part).toBe('differ');
  });

  it('says how many checks have the same result everywhere, by status, and how many carry a baseline note', () => {
    const grid = nodeGrid(gridRun({ nodes: 5, fillers: 20 }));
    const same = grid.rows.filter((r) => r.part === 'same');
    // 20 fillers, net_peerCount/is-u64 (with its now-passing note) and network/consistent-head pass everywhere;
    // transport/control-characters-answered and network/peers-listed are skipped.
    expect(sameLine(same)).toBe('24 checks with the same result on every node (pass: 22, skip: 2, 1 with a baseline note)');
    expect(sameLine(same.slice(0, 1))).toMatch(/^1 check with the same result on every node \(/);
  });
});

describe('shortUrl', () => {
  it('drops the scheme and a trailing slash, and cuts the middle of what is still too long', () => {
    expect(shortUrl('http://127.0.0.1:8545/')).toBe('127.0.0.1:8545');
    expect(shortUrl('https://rpc.example.org')).toBe('rpc.example.org');
    const long = shortUrl('https://rpc-node-5.eu-west-1.staging.example-chain.network:8545/gateway');
    expect(long).toBe('rpc-node-5.eu-we…rk:8545/gateway');
    expect(Array.from(long)).toHaveLength(32);
  });

  it('keeps column headings apart: two URLs that would read the same are given whole', () => {
    const run = gridRun({ nodes: 2 });
    run.targets = ['http://a.example:1', 'https://a.example:1'];
    run.results = run.results.map((r) => (r.node === GRID_NODES[0] ? { ...r, node: 'http://a.example:1' } : r.node === GRID_NODES[1] ? { ...r, node: 'https://a.example:1' } : r));
    expect(nodeGrid(run).columns.map((c) => c.label)).toEqual(['http://a.example:1', 'https://a.example:1']);
  });
});
