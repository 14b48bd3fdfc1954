import { describe, expect, it } from 'vitest';
import type { CheckResult, RunResult } from '../../suites/model.js';
import { fixtureExchange, fixtureOk, fixtureRpc, fixtureRun, NODE_A, NODE_B } from '../../test/support/fixtureRun.js';
import { renderHtml } from './renderHtml.js';
import { renderMarkdown } from './renderMarkdown.js';
import { networkCulprits, targetNames } from './nodeGrid.js';

const ANONYMOUS = "chain_getTransaction: the response id does not echo the request's";

/**
 * fixtureRun with its failing network check as the runner wrote it before it named nodes: node B's answer
 * does not echo the request's id; node A, asked at the same time, answered last.
 */
function run(message: string): RunResult {
  const r = fixtureRun();
  const tx = r.results.find((x) => x.id === 'network/tx-propagation')!;
  tx.evidence = {
    ...tx.evidence,
    message,
    exchanges: [
      fixtureExchange({ node: NODE_A, body: fixtureRpc('chain_getTransaction', '["77aa"]', 7), response: fixtureOk('null', 7), at: 10 }),
      fixtureExchange({ node: NODE_B, body: fixtureRpc('chain_getTransaction', '["77aa"]', 8), response: '{"jsonrpc":"2.0","result":null,"id":"8"}', at: 10 }),
      fixtureExchange({ node: NODE_A, body: fixtureRpc('chain_blockNumber', '[]', 9), response: fixtureOk('40', 9), at: 11 }),
    ],
  };
  return r;
}
const tx = (r: RunResult): CheckResult => r.results.find((x) => x.id === 'network/tx-propagation')!;

/** The one cell of network/tx-propagation in the grid. */
const networkCell = (html: string): string => /<details class="cell span[^>]*data-id="network\/tx-propagation"[\s\S]*?<\/summary>/.exec(html)?.[0] ?? '';

describe("a network check's failure names the node it came from", () => {
  it("is the node whose answer was no JSON-RPC answer to its request, not the last one asked", () => {
    const r = run(ANONYMOUS);
    expect(networkCulprits(tx(r), targetNames(r.targets))).toEqual([{ url: NODE_B, label: '127.0.0.1:8546' }]);
  });

  it('names every such node: no answer at all is one', () => {
    const r = run(ANONYMOUS);
    const t = tx(r);
    t.evidence.exchanges[2] = fixtureExchange({ node: NODE_A, body: fixtureRpc('chain_blockNumber', '[]', 9), failure: 'ECONNRESET', at: 11 });
    expect(networkCulprits(t, targetNames(r.targets)).map((n) => n.url)).toEqual([NODE_B, NODE_A]);
  });

  it('says nothing when the message names a node, when every answer was well formed (a disagreement), or for a pass', () => {
    const named = run(`${NODE_B} chain_getTransaction: the response id does not echo the request's`);
    expect(networkCulprits(tx(named), targetNames(named.targets))).toEqual([]);
    const plain = fixtureRun(); // its failure: well-formed answers that disagree
    expect(networkCulprits(tx(plain), targetNames(plain.targets))).toEqual([]);
    expect(networkCulprits(plain.results.find((r) => r.id === 'network/consistent-head')!, targetNames(plain.targets))).toEqual([]);
  });

  it('report.html: the grid cell says "on <node>" before the message', () => {
    const cell = networkCell(renderHtml(run(ANONYMOUS), { layout: 'grid' }));
    expect(cell).toContain(`<span class="cnode" data-testid="cell-node" title="${NODE_B}">on 127.0.0.1:8546:</span> chain_getTransaction: the response id`);
    expect(cell).toContain(`(on ${NODE_B})`); // the summary's title too
    expect(networkCell(renderHtml(run(`${NODE_B} chain_getTransaction: bad id`), { layout: 'grid' }))).not.toContain('cell-node');
  });

  it('report.html in rows: the row names the node beside "network"', () => {
    const html = renderHtml(run(ANONYMOUS), { layout: 'rows' });
    const row = /<details class="check[^>]*data-id="network\/tx-propagation"[\s\S]*?<\/summary>/.exec(html)?.[0] ?? '';
    expect(row).toContain('<span class="node">network <span class="cnode" data-testid="cell-node"');
    expect(row).toContain('(on 127.0.0.1:8546)');
  });

  it('summary.md: the failure line says "network (on <node>)"', () => {
    const md = renderMarkdown(run(ANONYMOUS), { layout: 'grid' });
    expect(md).toContain("- ❌ network (on `127.0.0.1:8546`): chain\\_getTransaction: the response id does not echo the request's");
  });
});
