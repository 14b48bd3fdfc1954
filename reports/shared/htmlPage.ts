import { createHash } from 'node:crypto';
import { escapeHtml as h } from './escapeHtml.js';

/**
 * The styles every HTML report starts with: the colour palette (light and dark, with a colour per
 * status: pass, fail, error, skip), the page's layout and its headings. A report kind adds its own
 * after them. The page's frame: its parts (header, main, …) are at most 1400 px wide, centred, with
 * 24 px of padding, so their content lies within the 24 px margin. A bar of section links between
 * them (`<nav class="toc">`, a direct child of body: the load and fuzz reports') is drawn in that
 * content box itself, its text and its rules (border-top/bottom) from the content's left edge to its
 * right, whatever the report's own rule for it says (this selector outweighs `nav.toc`).
 */
export const PAGE_STYLES = `:root { color-scheme: light dark; --bg: #fff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --panel: #f6f8fa;
  --pass: #1a7f37; --fail: #cf222e; --error: #9a6700; --skip: #59636e; --code: #eff2f5; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d;
  --panel: #151b23; --pass: #3fb950; --fail: #f85149; --error: #d29922; --skip: #9198a1; --code: #1f2630; } }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
header, main, .toolbar, .counts { padding: 0 24px; max-width: 1400px; margin: 0 auto; }
body > nav.toc { max-width: 1352px; margin: 0 max(24px, calc((100% - 1352px) / 2)); padding-left: 0; padding-right: 0; }
h1 { font-size: 18px; font-weight: 600; margin: 20px 0 8px; color: var(--muted); }
h2 { font-size: 16px; margin: 24px 0 8px; }
`;

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export interface HtmlPage {
  /** The page title (escaped here). */
  title: string;
  /** The page's one stylesheet and one script: fixed text that holds no data of a run. */
  styles: string;
  script: string;
  /** The body's content, one element per line, every value in it already escaped (escapeHtml). */
  body: readonly string[];
}

/**
 * A self-contained HTML report: inline stylesheet and script and no external resource, so it works from
 * file://, from a CI artifact and offline. Its Content-Security-Policy allows only that stylesheet and
 * that script, by hash, so markup that slipped through escaping could neither run nor load anything.
 */
export function htmlPage(page: HtmlPage): string {
  const csp = `default-src 'none'; style-src ${sha256(page.styles)}; script-src ${sha256(page.script)}; base-uri 'none'; form-action 'none'`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${h(page.title)}</title>`,
    `<style>${page.styles}</style>`,
    '</head>',
    '<body>',
    ...page.body,
    `<script>${page.script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A list of facts ("Targets", "Duration", ...), each value marked data-testid="meta-<name>" for tests and tools. */
export function metaListHtml(items: readonly (readonly [string, string])[]): string {
  return `<dl class="meta">${items.map(([k, v]) => `<dt>${h(k)}</dt><dd data-testid="meta-${h(k.toLowerCase().replace(/\s+/g, '-'))}">${h(v)}</dd>`).join('')}</dl>`;
}
