/**
 * The row of a check in report.html (a run against one node) in Chromium: however long the rule it checks
 * (spec) is, the title keeps the room of the row and the spec goes under it, rather than the two sharing
 * the line and the title wrapping in a narrow column (the tester's rt7 run: four lines of title beside a
 * long JSON-RPC quote). Skipped where Chromium or playwright-core is missing.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChromium, type Browser } from '../../test/support/chromium.js';
import { fixtureRun } from '../../test/support/fixtureRun.js';
import { renderHtml } from './renderHtml.js';

const loaded = await loadChromium();
const skipNote = typeof loaded === 'string' ? loaded : undefined;
if (skipNote !== undefined) console.warn(`rowLayout.browser.test.ts ${skipNote}`);

const TITLE = 'a request with "id": null is a call, not a notification: it is served (answered with its result) with id null';
const SPEC = 'JSON-RPC 2.0 §4 (id "MAY be ... Null"), §4.1 (a notification is a request without an "id" member), §5';

interface Rect {
  top: number;
  left: number;
  width: number;
  height: number;
}
interface Row {
  summary: Rect;
  title: Rect;
  spec: Rect;
  node: Rect;
  lineHeight: number;
}

const MEASURE = (id: string): string => `(() => {
  const s = document.querySelector('details.check[data-id="${id}"] > summary');
  const r = (el) => { const b = el.getBoundingClientRect(); return { top: b.top, left: b.left, width: b.width, height: b.height }; };
  const title = s.querySelector('.title');
  return { summary: r(s), title: r(title), spec: r(s.querySelector('.spec')), node: r(s.querySelector('.node')),
    lineHeight: parseFloat(getComputedStyle(title).lineHeight) };
})()`;

describe.skipIf(skipNote !== undefined)(`a check's row in report.html${skipNote === undefined ? '' : ` (${skipNote})`}`, () => {
  let browser: Browser;
  let dir: string;
  const run = fixtureRun();
  run.targets = [run.targets[0]!];
  run.results = run.results.filter((r) => r.node === run.targets[0]);
  const id = run.results[0]!.id;
  run.results[0] = { ...run.results[0]!, title: TITLE, spec: SPEC };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chainrpc-rows-'));
    await writeFile(join(dir, 'report.html'), renderHtml(run), 'utf8');
    browser = await (loaded as Exclude<typeof loaded, string>).launch();
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  for (const width of [1400, 1000]) {
    it(`${width} px wide: the title takes the row's room, and a long spec goes under it`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(pathToFileURL(join(dir, 'report.html')).href);
      const row = await page.evaluate<Row>(MEASURE(id));
      await page.close();
      // The title is as wide as the row leaves it (badge, level, id and node aside): at least 40% of it.
      expect(row.title.width).toBeGreaterThan(row.summary.width * 0.4);
      expect(row.title.height).toBeLessThan(row.lineHeight * 2.5); // one line, two at most: not four
      // The spec starts under the title, where the title starts, and does not share its line.
      expect(row.spec.top).toBeGreaterThanOrEqual(row.title.top + row.title.height - 1);
      expect(row.spec.left).toBeCloseTo(row.title.left, 0);
      // The node stays on the title's line, at the right.
      expect(row.node.top).toBeLessThan(row.title.top + row.lineHeight);
      expect(row.node.left).toBeGreaterThan(row.title.left + row.title.width - 1);
    });
  }
});
