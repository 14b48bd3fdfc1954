/**
 * The load report (report.html) in a real browser: Chromium driven by playwright-core opens each fixture
 * from file:// and checks what a reader sees: the verdict, charts actually drawn (lines and bars of
 * non-zero size, coloured by the page's stylesheet under its Content-Security-Policy), the knee of a sweep,
 * a run that measured nothing, and hostile text that neither runs nor hides. Each page is saved as a
 * full-page screenshot in /tmp/load-report-<kind>.png for people to look at. Needs the devDependency
 * playwright-core and Debian's chromium at /usr/bin/chromium; where either is missing the test is skipped
 * with a message saying which.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChromium, type Browser, type Page } from '../../test/support/chromium.js';
import type { LoadFixtureKind } from '../../test/support/loadReportFixture.js';
import { LOAD_FIXTURE_KINDS, LOAD_NODE_A, loadReportFixture } from '../../test/support/loadReportFixture.js';
import { renderLoadHtml } from './renderLoadHtml.js';

const loaded = await loadChromium();
const skipNote = typeof loaded === 'string' ? loaded : undefined;
if (skipNote !== undefined) console.warn(`renderLoadHtml.browser.test.ts ${skipNote}`);

/** A drawn shape: its size on screen and the colour the stylesheet gave it. */
interface Drawn {
  width: number;
  height: number;
  stroke: string;
  fill: string;
}
/** The shapes matching a selector, measured in the page (getBBox: the SVG's own geometry; the computed colours). */
const drawn = (page: Page, selector: string): Promise<Drawn[]> =>
  page.evaluate<Drawn[]>(
    `Array.from(document.querySelectorAll(${JSON.stringify(selector)})).map((el) => { const b = el.getBBox(); const s = getComputedStyle(el); return { width: b.width, height: b.height, stroke: s.stroke, fill: s.fill }; })`,
  );

describe.skipIf(skipNote !== undefined)(`load report.html in Chromium${skipNote === undefined ? '' : ` (${skipNote})`}`, () => {
  let browser: Browser;
  let dir: string;
  const pages = new Map<LoadFixtureKind, Page>();
  const problems: string[] = [];

  async function open(kind: LoadFixtureKind, name: string = kind): Promise<Page> {
    const file = join(dir, `${name}.html`);
    await writeFile(file, renderLoadHtml(loadReportFixture(kind)), 'utf8');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => problems.push(`${name}: page error: ${error.message}`));
    // A Content-Security-Policy violation (a style hash that does not match, say) is reported as a console error.
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${name}: console: ${message.text()}`);
    });
    await page.goto(pathToFileURL(file).href);
    return page;
  }

  const page = (kind: LoadFixtureKind): Page => {
    const p = pages.get(kind);
    if (!p) throw new Error(`page ${kind} not opened`);
    return p;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chainrpc-load-report-'));
    browser = await (loaded as Exclude<typeof loaded, string>).launch();
    for (const kind of LOAD_FIXTURE_KINDS) pages.set(kind, await open(kind));
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('renders every kind of report without an error or a policy violation, and saves a screenshot of each', async () => {
    for (const kind of LOAD_FIXTURE_KINDS) await page(kind).screenshot({ path: `/tmp/load-report-${kind}.png`, fullPage: true });
    const dark = await open('compared', 'compared-dark');
    await dark.emulateMedia({ colorScheme: 'dark' });
    await dark.screenshot({ path: '/tmp/load-report-compared-dark.png', fullPage: true });
    await dark.close();
    expect(problems).toEqual([]);
  });

  it('shows the verdict first, in the colour of its outcome', async () => {
    const verdict = page('plain').locator('[data-testid="verdict"]');
    expect(await verdict.isVisible()).toBe(true);
    expect(await verdict.innerText()).toBe('PASSED (exit 0): 3 thresholds kept');
    expect(await page('compared').locator('[data-testid="verdict"]').innerText()).toMatch(/^FAILED \(exit 99\): thresholds broken: p99 < 50ms \(actual [\d,]+ ms at /);
    const colours = await page('compared').evaluate<string[]>(`[getComputedStyle(document.querySelector('[data-testid="verdict"]')).color, getComputedStyle(document.querySelector('.ok')).color]`);
    expect(colours[0]).not.toBe(colours[1]);
  });

  it('draws the latency chart: lines of non-zero size, coloured by the stylesheet, in a chart of readable size', async () => {
    const p = page('plain');
    const lines = await drawn(p, '[data-testid="chart-run-1-latency"] path.s');
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line.width).toBeGreaterThan(300);
      expect(line.height).toBeGreaterThan(0);
      expect(line.stroke).toMatch(/^rgb\(/);
    }
    // p50 and p99 in different colours.
    expect(lines[0]?.stroke).not.toBe(lines[1]?.stroke);
    const width = await p.evaluate<number>(`document.querySelector('[data-testid="chart-run-1-latency"] svg').getBoundingClientRect().width`);
    expect(width).toBeGreaterThan(450);
    // The warm-up is shaded.
    expect((await drawn(p, '[data-testid="chart-run-1-latency"] rect.band'))[0]?.width).toBeGreaterThan(0);
  });

  it('draws the time-to-inclusion histogram as bars, and pending transactions over time', async () => {
    const bars = await drawn(page('inclusion'), '[data-testid="chart-run-1-inclusion"] rect.bar');
    expect(bars.length).toBeGreaterThan(10);
    expect(bars.every((b) => b.width > 0 && b.height > 0 && b.fill.startsWith('rgb('))).toBe(true);
    expect((await drawn(page('inclusion'), '[data-testid="chart-run-1-pending"] path.s'))[0]?.height).toBeGreaterThan(20);
  });

  it('marks the knee of a sweep, with a dot per step on latency against rate', async () => {
    const p = page('sweep');
    expect(await p.locator('[data-testid="knee"]').innerText()).toBe('Knee: 2,750 req/s, the highest rate where the SLO held');
    expect(await drawn(p, '[data-testid="chart-sweep-1-latency"] circle.dot')).toHaveLength(14);
    const marker = await drawn(p, '[data-testid="chart-sweep-1-latency"] line.marker');
    expect(marker[0]?.height).toBeGreaterThan(100);
  });

  it('overlays several nodes on one chart, a colour per node', async () => {
    const lines = await drawn(page('compared'), '[data-testid="chart-compare-latency"] path.s');
    expect(lines).toHaveLength(4);
    expect(new Set(lines.map((l) => l.stroke)).size).toBe(2);
    expect(await page('compared').locator(`[data-testid="comparison-table"]`).innerText()).toContain(LOAD_NODE_A);
  });

  it('shows an empty run plainly: why it is invalid, how it stopped, and no chart', async () => {
    const p = page('empty');
    expect(await p.locator('[data-testid="invalid"]').innerText()).toContain('no request was answered');
    expect(await p.locator('[data-testid="stop"]').innerText()).toContain('connect ECONNREFUSED 127.0.0.1:9');
    expect(await p.locator('[data-testid="no-timeline"]').isVisible()).toBe(true);
    expect(await p.locator('svg').count()).toBe(0);
  });

  it('shows hostile text as text, and nothing in it runs', async () => {
    const p = page('interrupted');
    expect(await p.locator('[data-testid="stop"]').innerText()).toContain('</script><script>window.__pwned=1</script>');
    expect(await p.evaluate<string>('typeof window.__pwned')).toBe('undefined');
    expect(await p.evaluate<number[]>('[document.scripts.length, document.images.length]')).toEqual([1, 0]);
    expect(problems).toEqual([]);
  });

  it('opens a 10-minute, two-node report quickly', async () => {
    const started = performance.now();
    const p = await open('long', 'long-timed');
    const ms = performance.now() - started;
    expect((await drawn(p, '[data-testid="chart-compare-latency"] path.s')).length).toBe(4);
    await p.close();
    // A generous bound for a loaded CI machine; locally it takes a small fraction of this.
    expect(ms).toBeLessThan(5000);
  });
});
