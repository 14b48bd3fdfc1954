/**
 * report.html in a real browser: Chromium driven by playwright-core opens the file from file:// and checks
 * what a reader sees (verdict, evidence of a failing check), that the filters work, and that a hostile
 * response body neither runs nor is hidden. Needs the devDependency playwright-core and Debian's chromium
 * at /usr/bin/chromium; where either is missing the test is skipped with a message saying which.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChromium, type Browser, type Locator, type Page } from '../../test/support/chromium.js';
import { HOSTILE_MESSAGE, NODE_A, U128_MAX, fixtureRun } from '../../test/support/fixtureRun.js';
import { GRID_NODES, gridRun, GRID_FAILING_IDS } from '../../test/support/fixtureGrid.js';
import type { RunResult, Status } from '../../suites/model.js';
import { renderHtml } from './renderHtml.js';

const loaded = await loadChromium();
const skipNote = typeof loaded === 'string' ? loaded : undefined;
if (skipNote !== undefined) console.warn(`renderHtml.browser.test.ts ${skipNote}`);

const row = (page: Page, id: string, node: string): Locator => page.locator(`details.check[data-id="${id}"][data-node="${node}"]`);
/** The status of every check row the reader can see, in page order. */
const visibleStatuses = (page: Page): Promise<string[]> =>
  page.evaluate<string[]>(`Array.from(document.querySelectorAll('details.check')).filter((r) => r.offsetParent !== null).map((r) => r.dataset.status)`);

describe.skipIf(skipNote !== undefined)(`report.html in Chromium${skipNote === undefined ? '' : ` (${skipNote})`}`, () => {
  let browser: Browser;
  let dir: string;
  let page: Page;
  const problems: string[] = [];
  const run = fixtureRun();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chainrpc-report-'));
    const file = join(dir, 'report.html');
    // The layout of a row per check and node (a one-node run's), here with fixtureRun's two nodes.
    await writeFile(file, renderHtml(run, { layout: 'rows' }), 'utf8');
    browser = await (loaded as Exclude<typeof loaded, string>).launch();
    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // A Content-Security-Policy violation (a hash that does not match, say) is reported as a console error.
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    await page.goto(pathToFileURL(file).href);
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('shows the verdict, and its own script runs without errors', async () => {
    expect(await page.locator('[data-testid="verdict"]').innerText()).toBe('FAILED at gate MUST: 4 check result(s) at MUST level failed or could not be verified');
    expect(await page.locator('[data-testid="shown-count"]').textContent()).toBe(`${run.results.length} of ${run.results.length} checks shown`);
    expect(await page.locator('.toolbar').isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });

  it('shows the run\'s hints under the verdict, as text', async () => {
    const hints = page.locator('[data-testid="hints"]');
    expect(await hints.isVisible()).toBe(true);
    expect(await hints.innerText()).toContain('First, fix this:');
    expect(await hints.innerText()).toContain('<script>alert(1)</script>');
    expect(problems).toEqual([]);
  });

  it('shows a failing check expanded, with its message, response excerpt and reproduce command', async () => {
    const failing = row(page, 'chain_getAccount/balance-is-u128-string', NODE_A);
    const message = failing.locator('[data-testid="message"]');
    expect(await message.isVisible()).toBe(true);
    expect(await message.innerText()).toBe('result.balance is a JSON number; the spec requires a decimal string (u128)');
    const body = failing.locator('[data-testid="response-body"]');
    expect(await body.isVisible()).toBe(true);
    expect(await body.innerText()).toContain(`"balance":${U128_MAX}`);
    expect(await failing.locator('[data-testid="reproduce"]').innerText()).toContain(`curl -sS -X POST '${NODE_A}/rpc'`);
    // A passing check and a failure the baseline expects start closed.
    expect(await row(page, 'transport/content-type-json', NODE_A).locator('[data-testid="message"]').isVisible()).toBe(false);
    const expected = row(page, 'chain_sendRawTransaction/rejects-bad-signature', NODE_A);
    expect(await expected.locator('[data-testid="message"]').isVisible()).toBe(false);
    await expected.locator('summary').click();
    expect(await expected.locator('[data-testid="message"]').isVisible()).toBe(true);
  });

  it('shows the hostile response body as text, and nothing in it runs', async () => {
    const hostile = row(page, 'chain_getBlockByHeight/unknown-height-error', NODE_A).locator('[data-testid="response-body"]');
    expect(await hostile.isVisible()).toBe(true);
    expect(await hostile.innerText()).toContain(JSON.stringify(HOSTILE_MESSAGE));
    expect(await page.evaluate<string>('typeof window.__pwned')).toBe('undefined');
    expect(await page.evaluate<number[]>('[document.scripts.length, document.images.length]')).toEqual([1, 0]);
  });

  it('hides passing rows when only "fail" is selected, and shows them again', async () => {
    for (const s of ['pass', 'error', 'skip']) await page.locator(`[data-testid="filter-${s}"]`).uncheck();
    const failCount = run.results.filter((r) => r.status === 'fail').length;
    expect(await visibleStatuses(page)).toEqual(Array<string>(failCount).fill('fail'));
    expect(await row(page, 'transport/content-type-json', NODE_A).isVisible()).toBe(false);
    expect(await page.locator('[data-testid="shown-count"]').textContent()).toBe(`${failCount} of ${run.results.length} checks shown`);
    // A category with nothing left to show disappears with its heading.
    expect(await page.locator('section[data-category="discovery"]').isVisible()).toBe(false);
    for (const s of ['pass', 'error', 'skip']) await page.locator(`[data-testid="filter-${s}"]`).check();
    expect(await visibleStatuses(page)).toHaveLength(run.results.length);
  });

  it('filters by check id', async () => {
    await page.locator('[data-testid="filter-id"]').fill('EMPTY-batch');
    expect(await visibleStatuses(page)).toEqual(['pass', 'fail']);
    await page.locator('[data-testid="filter-id"]').fill('');
    expect(await visibleStatuses(page)).toHaveLength(run.results.length);
    expect(problems).toEqual([]);
  });

  it('stays responsive with 500 results', async () => {
    const big = fixtureRun({ extraPasses: 500 });
    const file = join(dir, 'big.html');
    await writeFile(file, renderHtml(big, { layout: 'rows' }), 'utf8');
    const bigPage = await browser.newPage();
    const started = performance.now();
    await bigPage.goto(pathToFileURL(file).href);
    const loadedMs = performance.now() - started;
    const filterStarted = performance.now();
    await bigPage.locator('[data-testid="filter-pass"]').uncheck();
    const filterMs = performance.now() - filterStarted;
    const notPassing = big.results.filter((r) => r.status !== 'pass').length;
    expect(await bigPage.locator('[data-testid="shown-count"]').textContent()).toBe(`${notPassing} of ${big.results.length} checks shown`);
    // Generous bounds for a loaded CI machine; locally both take a small fraction of this.
    expect(loadedMs).toBeLessThan(5000);
    expect(filterMs).toBeLessThan(2000);
  });
});

/** The check ids of the grid rows a reader can see, in page order (a row folded away in a closed <details> is not). */
const visibleRows = (page: Page): Promise<string[]> =>
  page.evaluate<string[]>(`Array.from(document.querySelectorAll('.grow[data-id]')).filter((r) => r.checkVisibility()).map((r) => r.dataset.id)`);
const cellSelector = (id: string, node: string): string => `details.cell[data-id="${id}"][data-node="${node}"]`;
/** Where an open cell's parts are: its evidence against its row and grid, the copy of its badge against its column's heading. */
interface OpenCellGeometry {
  evidenceTop: number;
  checkBottom: number;
  evidenceWidth: number;
  gridWidth: number;
  placeholderVisible: boolean;
  placeholderLeft: number;
  headLeft: number;
}
const geometry = (page: Page, selector: string, column: number): Promise<OpenCellGeometry> =>
  page.evaluate<OpenCellGeometry>(`(() => {
    const cell = document.querySelector(${JSON.stringify(selector)});
    const row = cell.closest('.grow');
    const grid = row.closest('.grid');
    const evidence = cell.querySelector('.evidence').getBoundingClientRect();
    const placeholder = cell.nextElementSibling;
    const head = grid.querySelector('.ghc.c${column}').getBoundingClientRect();
    return {
      evidenceTop: evidence.top, checkBottom: row.querySelector('.gcheck').getBoundingClientRect().bottom,
      evidenceWidth: evidence.width, gridWidth: grid.getBoundingClientRect().width,
      placeholderVisible: placeholder.checkVisibility(), placeholderLeft: placeholder.getBoundingClientRect().left, headLeft: head.left,
    };
  })()`);

/** Check ids of a run whose results include one of the given statuses. */
const idsWith = (run: RunResult, statuses: readonly Status[]): string[] => [...new Set(run.results.filter((r) => statuses.includes(r.status)).map((r) => r.id))];

const FAILING = GRID_FAILING_IDS;

describe.skipIf(skipNote !== undefined)(`report.html of several nodes (the grid) in Chromium${skipNote === undefined ? '' : ` (${skipNote})`}`, () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chainrpc-grid-'));
    browser = await (loaded as Exclude<typeof loaded, string>).launch();
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe.each([2, 5])('%i nodes', (nodes) => {
    const run = gridRun({ nodes, fillers: 60 });
    const differ = nodes === 2 ? ['chain_faucetClaim/grants-funds'] : ['chain_faucetClaim/grants-funds', 'discovery/rpc-discover-openrpc'];
    const checks = new Set(run.results.map((r) => r.id)).size;
    const failingNode = GRID_NODES[1];
    let page: Page;
    const problems: string[] = [];

    beforeAll(async () => {
      const file = join(dir, `grid-${nodes}.html`);
      await writeFile(file, renderHtml(run), 'utf8');
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      await page.goto(pathToFileURL(file).href);
    });

    afterAll(async () => {
      await page?.close();
    });

    it('shows the failing and differing checks, the rest folded under one line, and its script runs without errors', async () => {
      expect(await page.locator('[data-testid="shown-count"]').textContent()).toBe(`${checks} of ${checks} checks shown`);
      expect(await visibleRows(page)).toEqual([...FAILING, ...differ]);
      const line = await page.locator('[data-testid="same-summary"]').innerText();
      expect(line).toMatch(new RegExp(`^${checks - FAILING.length - differ.length} checks with the same result on every node \\(pass: \\d+, skip: 2, 1 with a baseline note\\)$`));
      expect(await page.locator('[data-testid="node-head"]').count()).toBe(nodes * 3);
      expect(problems).toEqual([]);
    });

    it('opens a node\u2019s evidence under the row, as wide as the grid, when its cell is clicked, and closes it again', async () => {
      const selector = cellSelector('transport/empty-batch', failingNode);
      const cell = page.locator(selector);
      const message = cell.locator('[data-testid="message"]');
      expect(await message.isVisible()).toBe(false);
      await cell.locator('summary').click();
      expect(await message.isVisible()).toBe(true);
      expect(await message.innerText()).toBe('an empty batch was answered with an empty array, not with one Invalid Request error object');
      expect(await cell.locator('[data-testid="reproduce"]').innerText()).toContain(`curl -sS -X POST '${failingNode}/rpc'`);
      const open = await geometry(page, selector, 2);
      expect(open.evidenceTop).toBeGreaterThanOrEqual(open.checkBottom);
      expect(open.evidenceWidth).toBeGreaterThan(open.gridWidth * 0.9);
      // The column keeps the cell's badge meanwhile, in its place under the node's heading.
      expect(open.placeholderVisible).toBe(true);
      expect(Math.abs(open.placeholderLeft - open.headLeft)).toBeLessThan(2);
      // The passing node's cell of the same row shows its own evidence, not the failing one's.
      const passing = page.locator(cellSelector('transport/empty-batch', GRID_NODES[0]));
      await passing.locator('summary').click();
      expect(await passing.locator('[data-testid="message"]').innerText()).toBe('answered with a single error object, code -32600');
      await passing.locator('summary').click();
      // A click on the badge left in the column closes the evidence.
      await page.locator(`${selector} + .ph`).click();
      expect(await message.isVisible()).toBe(false);
      expect(await page.locator(`${selector} + .ph`).isVisible()).toBe(false);
      const error = page.locator(cellSelector('chain_getBlockByHeight/head-height-monotonic', GRID_NODES[0]));
      await error.locator('summary').click();
      expect(await error.locator('[data-testid="message"]').innerText()).toBe('no verdict: the node reset the connection (UND_ERR_SOCKET)');
      await error.locator('summary').click();
      expect(problems).toEqual([]);
    });

    it('shows the network\u2019s one result across the node columns', async () => {
      const network = page.locator(cellSelector('network/tx-propagation', 'network'));
      expect(await network.locator('summary').innerText()).toContain(`for the network (${nodes} nodes together)`);
      await network.locator('summary').click();
      expect(await network.locator('[data-testid="message"]').innerText()).toContain('was not in the mempool of');
      await network.locator('summary').click();
    });

    it('shows the hostile response body as text, and nothing in it runs', async () => {
      const hostile = page.locator(cellSelector('chain_getBlockByHeight/unknown-height-error', failingNode));
      await hostile.locator('summary').click();
      expect(await hostile.locator('[data-testid="response-body"]').innerText()).toContain(JSON.stringify(HOSTILE_MESSAGE));
      expect(await hostile.locator('summary').innerText()).toContain('does not gate');
      await hostile.locator('summary').click();
      expect(await page.evaluate<string>('typeof window.__pwned')).toBe('undefined');
      expect(await page.evaluate<number[]>('[document.scripts.length, document.images.length]')).toEqual([1, 0]);
    });

    it('unfolds the checks with the same result everywhere with one click', async () => {
      await page.locator('[data-testid="same-summary"]').click();
      const shown = await visibleRows(page);
      expect(shown).toHaveLength(checks);
      const peer = page.locator(cellSelector('net_peerCount/is-u64', GRID_NODES[0]));
      expect(await peer.locator('summary').innerText()).toContain('now passes');
      await peer.locator('summary').click();
      expect(await peer.locator('[data-testid="baseline"]').innerText()).toBe('baseline lists it, but it passes now: remove the entry (was a hex string before v1.3)');
      await peer.locator('summary').click();
      await page.locator('[data-testid="same-summary"]').click();
      expect(await visibleRows(page)).toEqual([...FAILING, ...differ]);
    });

    it('filters rows by status (a row shows when some cell has a ticked status; the others are dimmed) and by id', async () => {
      await page.locator('[data-testid="filter-pass"]').uncheck();
      // Rows with a failure, an error or a skip: the folded part opens for the ones it holds (all skipped).
      expect(new Set(await visibleRows(page))).toEqual(new Set(idsWith(run, ['fail', 'error', 'skip'])));
      expect(await page.locator('[data-testid="shown-count"]').textContent()).toBe(`${idsWith(run, ['fail', 'error', 'skip']).length} of ${checks} checks shown`);
      const dimmed = await page.evaluate<string[]>(`Array.from(document.querySelectorAll('details.cell.dim')).filter((c) => c.closest('.grow').checkVisibility()).map((c) => c.dataset.status)`);
      expect(dimmed.length).toBeGreaterThan(0);
      expect(new Set(dimmed)).toEqual(new Set(['pass']));
      for (const s of ['fail', 'skip']) await page.locator(`[data-testid="filter-${s}"]`).uncheck();
      expect(await visibleRows(page)).toEqual(['chain_getBlockByHeight/head-height-monotonic']);
      // A category heading and a part with nothing left to show disappear.
      expect(await page.locator('[data-testid="part-differ"]').isVisible()).toBe(false);
      expect(await page.locator('.ggroup[data-category="transport"]').first().isVisible()).toBe(false);
      // "expand all" opens the evidence of the cells shown: here the one error.
      await page.locator('[data-testid="expand-all"]').click();
      expect(await page.evaluate<string[]>(`Array.from(document.querySelectorAll('details.cell[open]')).map((c) => c.dataset.status + ' ' + c.dataset.id)`)).toEqual([
        'error chain_getBlockByHeight/head-height-monotonic',
      ]);
      await page.locator('[data-testid="collapse-all"]').click();
      expect(await page.locator('details.cell[open]').count()).toBe(0);
      for (const s of ['pass', 'fail', 'skip']) await page.locator(`[data-testid="filter-${s}"]`).check();
      await page.locator('[data-testid="filter-id"]').fill('GENESIS');
      expect(await visibleRows(page)).toEqual(['chain_getBlockByHeight/genesis-height-zero']);
      await page.locator('[data-testid="filter-id"]').fill('');
      expect(await visibleRows(page)).toHaveLength(checks);
      expect(problems).toEqual([]);
    });
  });

  it('is complete without its script: the cells and the folded part open all the same', async () => {
    const file = join(dir, 'grid-nojs.html');
    await writeFile(file, renderHtml(gridRun({ nodes: 3 })), 'utf8');
    // playwright's newPage takes every context option; chromium.ts types only the viewport, as the other tests need no more.
    const page = await browser.newPage({ javaScriptEnabled: false } as unknown as { viewport: { width: number; height: number } });
    try {
      await page.goto(pathToFileURL(file).href);
      expect(await page.locator('.toolbar').isVisible()).toBe(false);
      const cell = page.locator(cellSelector('chain_getAccount/balance-is-u128-string', GRID_NODES[1]));
      await cell.locator('summary').click();
      expect(await cell.locator('[data-testid="message"]').innerText()).toBe('result.balance is a JSON number; the spec requires a decimal string (u128)');
      expect(await page.locator(`${cellSelector('chain_getAccount/balance-is-u128-string', GRID_NODES[1])} + .ph`).isVisible()).toBe(true);
      const before = (await visibleRows(page)).length;
      await page.locator('[data-testid="same-summary"]').click();
      expect((await visibleRows(page)).length).toBeGreaterThan(before);
    } finally {
      await page.close();
    }
  });
});
