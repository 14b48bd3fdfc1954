/**
 * The page frame of htmlPage's styles in Chromium: a bar of section links between the header and main
 * (`<nav class="toc">`, the load and fuzz reports') lies within the page's margin, its text and its rules
 * from the content's left edge to its right edge, as the header's and main's content do. Skipped where
 * Chromium or playwright-core is missing (test/support/chromium.ts says which).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChromium, type Browser } from '../../test/support/chromium.js';
import { FUZZ_REPORT_CSS } from '../fuzz/fuzzHtmlAssets.js';
import { LOAD_REPORT_CSS } from '../load/loadHtmlAssets.js';
import { htmlPage, PAGE_STYLES } from './htmlPage.js';

const loaded = await loadChromium();
const skipNote = typeof loaded === 'string' ? loaded : undefined;
if (skipNote !== undefined) console.warn(`htmlPage.browser.test.ts ${skipNote}`);

interface Box {
  left: number;
  right: number;
}
interface Frame {
  header: Box;
  main: Box;
  nav: Box;
  firstLink: Box;
}

/** The content box of header and main (inside their padding), the nav's border box and its first link's box. */
const MEASURE = `(() => {
  const content = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return { left: r.left + parseFloat(s.paddingLeft), right: r.right - parseFloat(s.paddingRight) }; };
  const box = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right }; };
  return { header: content(document.querySelector('header')), main: content(document.querySelector('main')),
    nav: box(document.querySelector('nav.toc')), firstLink: box(document.querySelector('nav.toc a')) };
})()`;

const page = (styles: string): string =>
  htmlPage({
    title: 'frame',
    styles,
    script: '',
    body: [
      '<header><h1>chainrpc report</h1><p>The verdict.</p></header>',
      '<nav class="toc" aria-label="Sections"><a href="#run-1">Run 1: http://127.0.0.1:29011</a><a href="#baseline">Baseline</a></nav>',
      '<main><section id="run-1"><h2>Run 1</h2><p>Figures.</p></section></main>',
    ],
  });

describe.skipIf(skipNote !== undefined)(`the section bar in the page's margin${skipNote === undefined ? '' : ` (${skipNote})`}`, () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chainrpc-frame-'));
    browser = await (loaded as Exclude<typeof loaded, string>).launch();
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const kinds = [
    ['the shared styles alone', PAGE_STYLES],
    ['the load report', LOAD_REPORT_CSS],
    ['the fuzz report', FUZZ_REPORT_CSS],
  ] as const;
  for (const [kind, styles] of kinds) {
    for (const width of [900, 1400, 1900]) {
      it(`${kind}, ${width} px wide: the bar and its first link start where the content starts, and the bar ends where it ends`, async () => {
        const file = join(dir, `${kind.replace(/\W+/g, '-')}-${width}.html`);
        await writeFile(file, page(styles), 'utf8');
        const p = await browser.newPage({ viewport: { width, height: 600 } });
        await p.goto(pathToFileURL(file).href);
        const f = await p.evaluate<Frame>(MEASURE);
        await p.close();
        expect(f.header).toEqual(f.main);
        expect(f.header.left).toBeGreaterThanOrEqual(24);
        expect(f.nav.left).toBeCloseTo(f.header.left, 0);
        expect(f.nav.right).toBeCloseTo(f.header.right, 0);
        expect(f.firstLink.left).toBeCloseTo(f.header.left, 0);
      });
    }
  }
});
