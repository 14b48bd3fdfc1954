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
    await writeFile(file, renderHtml(run), 'utf8');
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
    await writeFile(file, renderHtml(big), 'utf8');
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
