/**
 * The load report (report.html) in a real browser: Chromium driven by playwright-core opens each fixture
 * from file:// and checks what a reader sees: the verdict, charts actually drawn (lines and bars of
 * non-zero size, coloured by the page's stylesheet under its Content-Security-Policy), the knee of a sweep,
 * the faults of a run with faults marked on its time charts, a run that measured nothing, and hostile text
 * that neither runs nor hides. Each page is saved as a
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

  it('marks each fault on every time chart of a run with faults: a dashed line and a label, inside the chart, in a colour no series has', async () => {
    const p = page('chaos');
    interface Seen {
      lines: { action: string; height: number; inside: boolean; stroke: string; dashed: boolean; titled: boolean }[];
      labels: { text: string; box: [number, number, number, number]; fits: boolean; inside: boolean }[];
      series: string[];
    }
    // Measured in the page: each marker's line and label box on screen, against the chart's SVG and each other.
    const seen = (chart: string): Promise<Seen> =>
      p.evaluate<Seen>(`(() => {
        const figure = document.querySelector('[data-testid="chart-${chart}"]');
        const svg = figure.querySelector('svg').getBoundingClientRect();
        const inside = (r) => r.left >= svg.left - 0.5 && r.right <= svg.right + 0.5 && r.top >= svg.top - 0.5 && r.bottom <= svg.bottom + 0.5;
        const lines = Array.from(figure.querySelectorAll('[data-testid="chaos-marker"]')).map((g) => {
          const line = g.querySelector('.event-line');
          const style = getComputedStyle(line);
          return { action: g.dataset.action, height: line.getBoundingClientRect().height, inside: inside(line.getBoundingClientRect()), stroke: style.stroke, dashed: style.strokeDasharray !== 'none', titled: g.firstElementChild.tagName === 'title' && g.firstElementChild.textContent.length > 0 };
        });
        const labels = Array.from(figure.querySelectorAll('.event-tag')).map((g) => {
          const chip = g.querySelector('.event-chip').getBoundingClientRect();
          const text = g.querySelector('.event-label');
          const t = text.getBoundingClientRect();
          return { text: text.textContent, box: [chip.left, chip.top, chip.right, chip.bottom], fits: t.left >= chip.left && t.right <= chip.right && t.top >= chip.top - 2 && t.bottom <= chip.bottom + 2, inside: inside(chip) };
        });
        return { lines, labels, series: Array.from(figure.querySelectorAll('path.s')).map((path) => getComputedStyle(path).stroke) };
      })()`);
    const charts = ['compare-latency', 'compare-throughput', 'compare-errors', 'compare-pending', ...[1, 2, 3].flatMap((i) => [`run-${i}-head-lag`, `run-${i}-resources`])];
    for (const chart of charts) {
      const { lines, labels, series } = await seen(chart);
      expect(lines.map((l) => l.action), chart).toEqual(['kill', 'restart', 'pause', 'resume', 'restart']);
      for (const line of lines) {
        expect(line.height, chart).toBeGreaterThan(100);
        expect(line.inside && line.dashed && line.titled, chart).toBe(true);
      }
      // The faults done in a colour no series has; the one not done greyed (the muted grey a target line may share).
      for (const line of lines.slice(0, 4)) expect(series, chart).not.toContain(line.stroke);
      expect(lines[4]?.stroke, chart).not.toBe(lines[0]?.stroke);
      expect(labels.map((l) => l.text), chart).toEqual(['kill mn2', 'restart mn2', 'pause ln1', 'resume ln1', 'restart any-mn (not done)']);
      for (const [i, a] of labels.entries()) {
        expect(a.fits && a.inside, `${chart}: ${a.text}`).toBe(true);
        for (const b of labels.slice(i + 1)) {
          const apart = a.box[2] <= b.box[0] || b.box[2] <= a.box[0] || a.box[3] <= b.box[1] || b.box[3] <= a.box[1];
          expect(apart, `${chart}: "${a.text}" and "${b.text}" overlap`).toBe(true);
        }
      }
    }
    // Playwright calls a vertical line invisible (its box has no width), so its label stands for it.
    expect(await p.locator('[data-testid="chart-compare-errors"] .event-tag').first().isVisible()).toBe(true);
    // The time to inclusion is not over time: no fault on it.
    expect(await p.locator('[data-testid="chart-run-1-inclusion"] [data-testid="chaos-marker"]').count()).toBe(0);
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
