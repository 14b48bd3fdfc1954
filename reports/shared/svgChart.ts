// Charts as inline SVG, drawn on the server side: the HTML report stays one file that fetches nothing and
// runs no chart library. Two kinds: line charts (series over a numeric x, gaps where y is null, shaded
// x ranges, vertical markers, events done at an instant, dots with tooltips where points are few) and
// histograms (bins over a numeric x). Colours are CSS classes (c0..c7, muted), so the page's stylesheet
// sets them for light and dark themes; nothing here uses an inline style, which the report's
// Content-Security-Policy forbids.
import { escapeHtml as h } from './escapeHtml.js';

export type ChartColor = number | 'muted' | 'fail';
export type ChartPoint = readonly [x: number, y: number | null];

export interface LineSeries {
  name: string;
  points: readonly ChartPoint[];
  color: ChartColor;
  dash?: boolean;
  /** A dot per point (few points, as in a sweep), each with a tooltip: `tips[i]` or "x, y". */
  dots?: boolean;
  tips?: readonly string[];
}

export interface ChartAxis {
  label: string;
  format: (value: number) => string;
  /** Fixed ends; by default x spans the data and y starts at 0 and ends at a tick above the data. */
  min?: number;
  max?: number;
  /** Ticks at steps people use for seconds (1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10 min, ...). */
  seconds?: boolean;
}

export interface ChartBand {
  from: number;
  to: number;
  label: string;
}

export interface ChartMarker {
  x: number;
  label: string;
}

/**
 * Something done at an instant, beside the data (a fault injected into the network under load): a dashed
 * vertical line in a colour no series has, a short label at the top, and a tooltip with the whole story.
 */
export interface ChartEvent {
  x: number;
  label: string;
  /** The tooltip: what was done, when. */
  title: string;
  /** Drawn greyed: planned, but not done. */
  muted?: boolean;
  /** data-* attributes of the event's group, for tests and tools that look for it ({ testid: 'chaos-marker' }). */
  data?: Readonly<Record<string, string>>;
}

export interface LineChartSpec {
  /** Unique in the page: the SVG's title and description are labelled by it. */
  id: string;
  title: string;
  /** What the chart shows, in a sentence or two, for screen readers (and a tooltip on the title). */
  description: string;
  x: ChartAxis;
  y: ChartAxis;
  series: readonly LineSeries[];
  bands?: readonly ChartBand[];
  markers?: readonly ChartMarker[];
  /** Drawn over everything; those outside the x range are left out. */
  events?: readonly ChartEvent[];
}

export interface HistogramBin {
  from: number;
  to: number;
  count: number;
}

export interface HistogramChartSpec {
  id: string;
  title: string;
  description: string;
  x: ChartAxis;
  yLabel: string;
  bins: readonly HistogramBin[];
  color: ChartColor;
  markers?: readonly ChartMarker[];
}

/** An axis tick: as short as the value allows ("0", "2.5", "1,500", "0.25"), no trailing zeros. */
export const formatTick = (value: number): string => value.toLocaleString('en-US', { maximumFractionDigits: 3 }).replace(/^-/, '−');

const WIDTH = 640;
const HEIGHT = 270;
const MARGIN = { left: 58, right: 22, bottom: 44 };
const LEGEND_ROW = 16;
/** Roughly the width of a character of the 11px chart font: enough to lay the legend out in rows. */
const CHAR_WIDTH = 6.2;

const r1 = (v: number): string => String(Math.round(v * 10) / 10);
/** Removes float noise (0.30000000000000004) from tick values. */
const clean = (v: number): number => Number(v.toPrecision(12));
const colorClass = (c: ChartColor): string => (typeof c === 'number' ? `c${((c % 8) + 8) % 8}` : c);

/** A "nice" step (1, 2, 2.5, 5 times a power of ten) that cuts `range` into about `count` parts. */
export function niceStep(range: number, count: number): number {
  if (!(range > 0) || !Number.isFinite(range)) return 1;
  const raw = range / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / magnitude;
  return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10) * magnitude;
}

const SECOND_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21_600, 43_200, 86_400];
const secondsStep = (range: number, count: number): number => SECOND_STEPS.find((s) => range / s <= count) ?? niceStep(range, count);

/** Tick values from the first multiple of the step at or above `min` to `max`. */
export function ticks(min: number, max: number, count: number, seconds = false): number[] {
  const step = seconds ? secondsStep(max - min, count) : niceStep(max - min, count);
  const out: number[] = [];
  for (let v = Math.ceil(clean(min / step)) * step; v <= max + step * 1e-9; v += step) out.push(clean(v));
  return out;
}

interface Frame {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  top: number;
  sx: (v: number) => number;
  sy: (v: number) => number;
}

function frame(xMin: number, xMax: number, yMin: number, yMax: number, top: number): Frame {
  const left = MARGIN.left;
  const right = WIDTH - MARGIN.right;
  const bottom = HEIGHT - MARGIN.bottom;
  const xSpan = xMax - xMin || 1;
  const ySpan = yMax - yMin || 1;
  return {
    x0: xMin,
    x1: xMax,
    y0: yMin,
    y1: yMax,
    top,
    sx: (v) => left + ((v - xMin) / xSpan) * (right - left),
    sy: (v) => bottom - ((v - yMin) / ySpan) * (bottom - top),
  };
}

/** The y range: from the axis's min (0 by default) up to a tick at or above the data. */
function yRange(axis: ChartAxis, values: readonly number[]): { min: number; max: number; ticks: number[] } {
  const min = axis.min ?? 0;
  const dataMax = values.length === 0 ? min + 1 : Math.max(...values);
  const max = axis.max ?? (dataMax > min ? dataMax : min + 1);
  const step = niceStep(max - min, 5);
  // Headroom: a line at the data's top must not run along the frame (a flat 2,000 req/s on a 2,000 axis).
  const top = axis.max ?? clean(Math.ceil(clean((min + (max - min) * 1.04) / step)) * step);
  return { min, max: top, ticks: ticks(min, top, 5) };
}

function axesSvg(f: Frame, x: ChartAxis, y: ChartAxis, yTicks: readonly number[]): string {
  const left = MARGIN.left;
  const right = WIDTH - MARGIN.right;
  const bottom = HEIGHT - MARGIN.bottom;
  const xTicks = ticks(f.x0, f.x1, 8, x.seconds);
  const parts: string[] = ['<g class="grid">'];
  for (const v of yTicks) parts.push(`<line x1="${left}" x2="${right}" y1="${r1(f.sy(v))}" y2="${r1(f.sy(v))}"/>`);
  parts.push('</g><g class="axis">');
  parts.push(`<line x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}"/><line x1="${left}" x2="${left}" y1="${f.top}" y2="${bottom}"/>`);
  for (const v of xTicks) {
    const px = r1(f.sx(v));
    parts.push(`<line x1="${px}" x2="${px}" y1="${bottom}" y2="${bottom + 4}"/><text x="${px}" y="${bottom + 16}" text-anchor="middle">${h(x.format(v))}</text>`);
  }
  for (const v of yTicks) parts.push(`<text x="${left - 6}" y="${r1(f.sy(v) + 4)}" text-anchor="end">${h(y.format(v))}</text>`);
  parts.push(`<text class="label" x="${r1((left + right) / 2)}" y="${HEIGHT - 8}" text-anchor="middle">${h(x.label)}</text>`);
  parts.push(`<text class="label" transform="translate(14 ${r1((f.top + bottom) / 2)}) rotate(-90)" text-anchor="middle">${h(y.label)}</text>`);
  parts.push('</g>');
  return parts.join('');
}

interface LegendItem {
  name: string;
  color: ChartColor;
  dash: boolean;
  kind: 'line' | 'box';
}

/** The legend in rows across the top; returns its markup and the height it takes. */
function legendSvg(items: readonly LegendItem[]): { svg: string; height: number } {
  if (items.length === 0) return { svg: '', height: 12 };
  const parts: string[] = ['<g class="legend">'];
  let x = MARGIN.left;
  let row = 0;
  for (const item of items) {
    const width = 26 + item.name.length * CHAR_WIDTH + 16;
    if (x + width > WIDTH - MARGIN.right && x > MARGIN.left) {
      row++;
      x = MARGIN.left;
    }
    const y = 14 + row * LEGEND_ROW;
    const swatch =
      item.kind === 'line'
        ? `<line class="s ${colorClass(item.color)}${item.dash ? ' dash' : ''}" x1="${r1(x)}" x2="${r1(x + 20)}" y1="${y - 4}" y2="${y - 4}"/>`
        : `<rect class="${item.color === 'muted' ? 'band' : `bar ${colorClass(item.color)}`}" x="${r1(x)}" y="${y - 10}" width="20" height="10"/>`;
    parts.push(`${swatch}<text x="${r1(x + 26)}" y="${y}">${h(item.name)}</text>`);
    x += width;
  }
  parts.push('</g>');
  return { svg: parts.join(''), height: 14 + row * LEGEND_ROW + 14 };
}

function open(id: string, title: string, description: string): string {
  const safe = h(id);
  return (
    `<figure class="chart" data-testid="chart-${safe}">` +
    `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${safe}-title ${safe}-desc" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="${safe}-title">${h(title)}</title><desc id="${safe}-desc">${h(description)}</desc>`
  );
}

const close = (title: string): string => `</svg><figcaption>${h(title)}</figcaption></figure>`;

/** A figure that says there is nothing to draw, in the same place a chart would be. */
export function emptyChart(id: string, title: string, why: string): string {
  return `<figure class="chart empty" data-testid="chart-${h(id)}"><div class="no-data">${h(why)}</div><figcaption>${h(title)}</figcaption></figure>`;
}

/** The bands and markers; `bandLabels`: where the bands' labels lie across the top (pixels), for the events' labels to keep clear of. */
function bandsAndMarkers(f: Frame, bands: readonly ChartBand[], markers: readonly ChartMarker[]): { under: string; over: string; bandLabels: [number, number][] } {
  const bottom = HEIGHT - MARGIN.bottom;
  const under: string[] = [];
  const bandLabels: [number, number][] = [];
  for (const b of bands) {
    const from = Math.max(b.from, f.x0);
    const to = Math.min(b.to, f.x1);
    if (to <= from) continue;
    const x = f.sx(from);
    const w = f.sx(to) - x;
    under.push(`<rect class="band" x="${r1(x)}" y="${f.top}" width="${r1(w)}" height="${bottom - f.top}"><title>${h(b.label)}</title></rect>`);
    if (w > b.label.length * CHAR_WIDTH + 8) {
      under.push(`<text class="band-label" x="${r1(x + w / 2)}" y="${f.top + 14}" text-anchor="middle">${h(b.label)}</text>`);
      bandLabels.push([x + w / 2 - (b.label.length * CHAR_WIDTH) / 2, x + w / 2 + (b.label.length * CHAR_WIDTH) / 2]);
    }
  }
  const over: string[] = [];
  for (const m of markers) {
    if (m.x < f.x0 || m.x > f.x1) continue;
    const x = r1(f.sx(m.x));
    const anchor = f.sx(m.x) > WIDTH - MARGIN.right - m.label.length * CHAR_WIDTH ? 'end' : 'start';
    over.push(`<line class="marker" x1="${x}" x2="${x}" y1="${f.top}" y2="${bottom}"/><text class="marker-label" x="${anchor === 'end' ? r1(f.sx(m.x) - 4) : r1(f.sx(m.x) + 4)}" y="${f.top + 12}" text-anchor="${anchor}">${h(m.label)}</text>`);
  }
  return { under: under.join(''), over: over.join(''), bandLabels };
}

/** An event label's height, and the rows its labels may take. */
const EVENT_ROW = 15;
const EVENT_ROWS = 5;

/**
 * The width of an event's label (11px, bold), in pixels, by kind of character: measured on DejaVu Sans, the
 * widest of the fonts a reader's system-ui is likely to be, so a label's box holds it everywhere. A muted
 * label is set in the regular weight, about an eighth narrower.
 */
function eventLabelWidth(text: string): number {
  let width = 0;
  for (const c of text) width += /[ijlI.,:;!|']/.test(c) ? 3.9 : /[frt()[\]\- ]/.test(c) ? 5.1 : /[mwMW]/.test(c) ? 11.3 : /[A-Z]/.test(c) ? 8.7 : 7.6;
  return width;
}

/**
 * The events in the x range: each a dashed line over the plot, its label in a box at the top. A label goes
 * right of its line, or left of it where the right has no room or is taken, in the first row where it runs
 * into no label already placed (nor a band's, in the top row): two faults a moment apart both stay readable.
 * Where all EVENT_ROWS rows are taken there, it goes where it covers the least. Every line is drawn before
 * every label, so no line runs through another event's label. A wide invisible line under each gives its
 * tooltip room for a pointer; its group carries the event's data-* attributes.
 */
function eventsSvg(f: Frame, events: readonly ChartEvent[], bandLabels: readonly [number, number][]): string {
  const bottom = HEIGHT - MARGIN.bottom;
  const right = WIDTH - MARGIN.right;
  const inRange = events.filter((e) => Number.isFinite(e.x) && e.x >= f.x0 && e.x <= f.x1).sort((a, b) => a.x - b.x);
  if (inRange.length === 0) return '';
  // What each row holds, as pixel spans.
  const rows: [number, number][][] = Array.from({ length: EVENT_ROWS }, (_, i) => (i === 0 ? [...bandLabels] : []));
  // How much of a span placed at `from` would cover what a row holds (4 px apart at least).
  const covered = (row: readonly [number, number][], from: number, to: number): number => row.reduce((n, [a, b]) => n + Math.max(0, Math.min(to + 4, b + 4) - Math.max(from, a)), 0);
  const lines: string[] = [];
  const labels: string[] = [];
  for (const e of inRange) {
    const px = f.sx(e.x);
    const width = eventLabelWidth(e.label) * (e.muted === true ? 0.88 : 1) + 10;
    const sides = [px + 3, px - 3 - width].filter((from) => from >= MARGIN.left && from + width <= right);
    if (sides.length === 0) sides.push(px + 3);
    let best = { row: 0, from: sides[0] ?? px + 3, cover: Infinity };
    for (const [row, spans] of rows.entries()) {
      for (const from of sides) {
        const cover = covered(spans, from, from + width);
        if (cover < best.cover) best = { row, from, cover };
      }
      if (best.cover === 0) break;
    }
    const { row, from } = best;
    rows[row]?.push([from, from + width]);
    const top = f.top + 2 + row * EVENT_ROW;
    const data = Object.entries(e.data ?? {})
      .filter(([key]) => /^[a-z][a-z0-9-]*$/.test(key))
      .map(([key, value]) => ` data-${key}="${h(value)}"`)
      .join('');
    const muted = e.muted === true ? ' muted' : '';
    const x = r1(px);
    lines.push(
      `<g class="event${muted}"${data}><title>${h(e.title)}</title>` +
        `<line class="event-hit" x1="${x}" x2="${x}" y1="${f.top}" y2="${bottom}"/><line class="event-line" x1="${x}" x2="${x}" y1="${f.top}" y2="${bottom}"/></g>`,
    );
    labels.push(
      `<g class="event-tag${muted}"><title>${h(e.title)}</title>` +
        `<rect class="event-chip" x="${r1(from)}" y="${r1(top)}" width="${r1(width)}" height="${EVENT_ROW - 2}" rx="3"/>` +
        `<text class="event-label" x="${r1(from + 5)}" y="${r1(top + EVENT_ROW - 5)}">${h(e.label)}</text></g>`,
    );
  }
  return `<g class="events">${lines.join('')}${labels.join('')}</g>`;
}

/** The SVG path of a series: a line through its points, broken where y is null. */
function pathData(points: readonly ChartPoint[], f: Frame): string {
  const parts: string[] = [];
  let pen = false;
  for (const [x, y] of points) {
    if (y === null || !Number.isFinite(y)) {
      pen = false;
      continue;
    }
    parts.push(`${pen ? 'L' : 'M'}${r1(f.sx(x))} ${r1(f.sy(y))}`);
    pen = true;
  }
  return parts.join('');
}

/** A line chart, as a <figure> holding an accessible SVG (title, description, legend, axes with ticks). */
export function lineChartSvg(spec: LineChartSpec): string {
  const xs = spec.series.flatMap((s) => s.points.map(([x]) => x));
  const ys = spec.series.flatMap((s) => s.points.flatMap(([, y]) => (y === null || !Number.isFinite(y) ? [] : [y])));
  if (ys.length === 0) return emptyChart(spec.id, spec.title, 'No data to draw.');
  const xMin = spec.x.min ?? Math.min(...xs, ...(spec.bands ?? []).map((b) => b.from));
  const xMax = spec.x.max ?? Math.max(...xs);
  const legend = legendSvg([
    ...spec.series.map((s): LegendItem => ({ name: s.name, color: s.color, dash: s.dash === true, kind: 'line' })),
    ...(spec.bands ?? []).slice(0, 1).map((b): LegendItem => ({ name: b.label, color: 'muted', dash: false, kind: 'box' })),
  ]);
  const y = yRange(spec.y, ys);
  const f = frame(xMin, xMax === xMin ? xMin + 1 : xMax, y.min, y.max, legend.height);
  const { under, over, bandLabels } = bandsAndMarkers(f, spec.bands ?? [], spec.markers ?? []);
  const lines: string[] = [];
  for (const s of spec.series) {
    const d = pathData(s.points, f);
    if (d !== '') lines.push(`<path class="s ${colorClass(s.color)}${s.dash === true ? ' dash' : ''}" d="${d}"><title>${h(s.name)}</title></path>`);
    if (s.dots !== true) continue;
    s.points.forEach(([px, py], i) => {
      if (py === null || !Number.isFinite(py)) return;
      const tip = s.tips?.[i] ?? `${spec.x.format(px)}, ${spec.y.format(py)}`;
      lines.push(`<circle class="dot ${colorClass(s.color)}" cx="${r1(f.sx(px))}" cy="${r1(f.sy(py))}" r="3.5"><title>${h(`${s.name}: ${tip}`)}</title></circle>`);
    });
  }
  return `${open(spec.id, spec.title, spec.description)}${legend.svg}${under}${axesSvg(f, spec.x, spec.y, y.ticks)}<g class="series">${lines.join('')}</g>${over}${eventsSvg(f, spec.events ?? [], bandLabels)}${close(spec.title)}`;
}

/** A histogram: a bar per bin over a numeric x, percentile markers on top. */
export function histogramChartSvg(spec: HistogramChartSpec): string {
  const bins = spec.bins.filter((b) => b.to > b.from);
  if (bins.length === 0 || bins.every((b) => b.count === 0)) return emptyChart(spec.id, spec.title, 'No data to draw.');
  const legend = legendSvg([]);
  const xMin = spec.x.min ?? Math.min(...bins.map((b) => b.from));
  const xMax = spec.x.max ?? Math.max(...bins.map((b) => b.to));
  const yAxis: ChartAxis = { label: spec.yLabel, format: (v) => v.toLocaleString('en-US') };
  const y = yRange(yAxis, bins.map((b) => b.count));
  const f = frame(xMin, xMax, y.min, y.max, legend.height + 6);
  const { over } = bandsAndMarkers(f, [], spec.markers ?? []);
  const bottom = HEIGHT - MARGIN.bottom;
  const bars = bins
    .filter((b) => b.count > 0)
    .map((b) => {
      const x = f.sx(b.from);
      const w = Math.max(1, f.sx(b.to) - x - 1);
      const top = f.sy(b.count);
      return `<rect class="bar ${colorClass(spec.color)}" x="${r1(x)}" y="${r1(top)}" width="${r1(w)}" height="${r1(bottom - top)}"><title>${h(`${spec.x.format(b.from)} to ${spec.x.format(b.to)}: ${b.count.toLocaleString('en-US')}`)}</title></rect>`;
    });
  return `${open(spec.id, spec.title, spec.description)}${axesSvg(f, spec.x, yAxis, y.ticks)}<g class="series">${bars.join('')}</g>${over}${close(spec.title)}`;
}

/** The chart styles (to append to the page's stylesheet): a `.charts` row's grid, colours per class, light and dark. */
export const CHART_CSS = `
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr)); gap: 16px 24px; margin: 8px 0 12px; }
@media (max-width: 700px) { .charts { grid-template-columns: 1fr; } }
:root { --c0: #2f6fdb; --c1: #e36209; --c2: #8250df; --c3: #1b7c83; --c4: #bf3989; --c5: #6e7781; --c6: #9a6700; --c7: #116329; }
@media (prefers-color-scheme: dark) { :root { --c0: #58a6ff; --c1: #f0883e; --c2: #bc8cff; --c3: #39c5cf; --c4: #ff7b72; --c5: #9198a1; --c6: #d29922; --c7: #56d364; } }
.chart { margin: 0; min-width: 0; }
.chart svg { display: block; width: 100%; height: auto; overflow: visible; }
.chart figcaption { font-size: 12px; color: var(--muted); text-align: center; }
.chart text { fill: var(--muted); font: 11px system-ui, -apple-system, "Segoe UI", sans-serif; }
.chart .legend text { fill: var(--fg); }
.chart text.label { font-weight: 600; }
.chart .axis line { stroke: var(--muted); stroke-width: 1; }
.chart .grid line { stroke: var(--line); stroke-width: 1; stroke-opacity: 0.7; }
.chart .s { fill: none; stroke-width: 1.6; stroke-linejoin: round; stroke-linecap: round; }
.chart .s.dash { stroke-dasharray: 6 3; }
.chart .band { fill: var(--muted); fill-opacity: 0.14; stroke: none; }
.chart .band-label { fill: var(--muted); font-style: italic; }
.chart .marker { stroke: var(--fg); stroke-width: 1.2; stroke-dasharray: 3 3; }
.chart .marker-label { fill: var(--fg); font-weight: 600; }
.chart .event-line { stroke: var(--fg); stroke-width: 1.4; stroke-dasharray: 5 3; }
.chart .event-hit { stroke: transparent; stroke-width: 9; }
.chart .event-chip { fill: var(--bg); fill-opacity: 0.92; stroke: var(--fg); stroke-width: 1; }
.chart text.event-label { fill: var(--fg); font-weight: 600; }
.chart .event.muted .event-line { stroke: var(--muted); stroke-dasharray: 2 3; }
.chart .event-tag.muted .event-chip { stroke: var(--muted); stroke-dasharray: 2 2; }
.chart .event-tag.muted text.event-label { fill: var(--muted); font-style: italic; font-weight: 400; }
.chart .dot { stroke: var(--bg); stroke-width: 1; }
.chart .bar { stroke: none; }
.chart .c0 { stroke: var(--c0); } .chart .c1 { stroke: var(--c1); } .chart .c2 { stroke: var(--c2); } .chart .c3 { stroke: var(--c3); }
.chart .c4 { stroke: var(--c4); } .chart .c5 { stroke: var(--c5); } .chart .c6 { stroke: var(--c6); } .chart .c7 { stroke: var(--c7); }
.chart .muted { stroke: var(--muted); } .chart .fail { stroke: var(--fail); }
.chart .dot.c0, .chart .bar.c0 { fill: var(--c0); } .chart .dot.c1, .chart .bar.c1 { fill: var(--c1); } .chart .dot.c2, .chart .bar.c2 { fill: var(--c2); }
.chart .dot.c3, .chart .bar.c3 { fill: var(--c3); } .chart .dot.c4, .chart .bar.c4 { fill: var(--c4); } .chart .dot.c5, .chart .bar.c5 { fill: var(--c5); }
.chart .dot.c6, .chart .bar.c6 { fill: var(--c6); } .chart .dot.c7, .chart .bar.c7 { fill: var(--c7); }
.chart .dot.fail, .chart .bar.fail { fill: var(--fail); } .chart .dot.muted, .chart .bar.muted { fill: var(--muted); }
.chart.empty .no-data { border: 1px dashed var(--line); border-radius: 4px; padding: 40px 12px; text-align: center; color: var(--muted); }
`;
