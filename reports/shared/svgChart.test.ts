import { describe, expect, it } from 'vitest';
import { histogramChartSvg, lineChartSvg, niceStep, ticks } from './svgChart.js';
import type { LineChartSpec } from './svgChart.js';

const axis = { label: 'x', format: (v: number) => String(v) };
const spec = (over: Partial<LineChartSpec> = {}): LineChartSpec => ({
  id: 'test',
  title: 'Latency over time',
  description: 'What it shows.',
  x: axis,
  y: { label: 'ms', format: (v) => `${v}` },
  series: [{ name: 'p99', color: 1, points: [[0, 1], [1, 4], [2, 2]] }],
  ...over,
});
/** The coordinates of a path's "M"/"L" commands. */
const pathPoints = (svg: string, name: string): [string, number, number][] => {
  const d = new RegExp(`<path class="s [^"]*" d="([^"]*)"><title>${name}</title>`).exec(svg)?.[1] ?? '';
  return [...d.matchAll(/([ML])([\d.-]+) ([\d.-]+)/g)].map((m) => [m[1] ?? '', Number(m[2]), Number(m[3])]);
};

describe('ticks', () => {
  it.each([
    [0, 100, 5, [0, 20, 40, 60, 80, 100]],
    [0, 2500, 5, [0, 500, 1000, 1500, 2000, 2500]],
    [0, 0.9, 4, [0, 0.25, 0.5, 0.75]],
    [-10, 60, 8, [-10, 0, 10, 20, 30, 40, 50, 60]],
  ])('from %s to %s in about %s steps', (min, max, count, expected) => {
    expect(ticks(min, max, count)).toEqual(expected);
  });

  it('steps through seconds as people count them', () => {
    expect(ticks(-30, 600, 8, true)).toEqual([0, 120, 240, 360, 480, 600]);
    expect(Object.is(ticks(-30, 600, 8, true)[0], 0)).toBe(true); // never "-0" on an axis
    expect(ticks(0, 45, 8, true)).toEqual([0, 10, 20, 30, 40]);
  });

  it('never divides by nothing', () => {
    expect(niceStep(0, 5)).toBe(1);
    expect(niceStep(Number.NaN, 5)).toBe(1);
  });
});

describe('lineChartSvg', () => {
  it('is an accessible SVG: labelled by its title and description', () => {
    const svg = lineChartSvg(spec());
    expect(svg).toContain('role="img" aria-labelledby="test-title test-desc"');
    expect(svg).toContain('<title id="test-title">Latency over time</title><desc id="test-desc">What it shows.</desc>');
    expect(svg).toContain('data-testid="chart-test"');
  });

  it('draws each point in order, higher values higher up, inside the frame', () => {
    const points = pathPoints(lineChartSvg(spec()), 'p99');
    expect(points.map(([cmd]) => cmd)).toEqual(['M', 'L', 'L']);
    const [a, b, c] = points.map(([, x, y]) => ({ x, y }));
    expect(a && b && c && a.x < b.x && b.x < c.x).toBe(true);
    // SVG's y grows downwards: 4 is drawn above 2, which is above 1.
    expect(a && b && c && b.y < c.y && c.y < a.y).toBe(true);
    for (const [, x, y] of points) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(640);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(270);
    }
  });

  it('breaks the line where a value is missing', () => {
    const svg = lineChartSvg(spec({ series: [{ name: 'p50', color: 0, points: [[0, 1], [1, null], [2, 2], [3, 3]] }] }));
    expect(pathPoints(svg, 'p50').map(([cmd]) => cmd)).toEqual(['M', 'M', 'L']);
  });

  it('has a legend entry per series and shaded band, axis labels and ticks', () => {
    const svg = lineChartSvg(spec({ bands: [{ from: -1, to: 0, label: 'warm-up' }], markers: [{ x: 1, label: 'knee' }] }));
    expect(svg).toMatch(/<g class="legend">.*<text[^>]*>p99<\/text>.*<text[^>]*>warm-up<\/text>.*<\/g>/);
    expect(svg).toContain('<rect class="band"');
    expect(svg).toMatch(/<line class="marker"[^>]*\/><text class="marker-label"[^>]*>knee<\/text>/);
    expect(svg).toMatch(/<text class="label"[^>]*>ms<\/text>/);
    // y ticks from 0 to a tick above the data's top (4, with headroom).
    expect([...svg.matchAll(/text-anchor="end">([^<]+)</g)].map((m) => m[1])).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('escapes every text it is given', () => {
    const svg = lineChartSvg(spec({ title: '<script>x</script>', series: [{ name: '"><img src=x>', color: 0, points: [[0, 1]] }] }));
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<img');
    expect(svg).toContain('&lt;script&gt;x&lt;/script&gt;');
  });

  it('says there is nothing to draw instead of drawing empty axes', () => {
    const svg = lineChartSvg(spec({ series: [{ name: 'p99', color: 1, points: [[0, null]] }] }));
    expect(svg).toContain('No data to draw.');
    expect(svg).not.toContain('<svg');
  });
});

describe('histogramChartSvg', () => {
  it('draws a bar per bin that holds values, heights in proportion, and the markers', () => {
    const svg = histogramChartSvg({
      id: 'h',
      title: 'Time to inclusion',
      description: 'd',
      x: axis,
      yLabel: 'transactions',
      color: 3,
      bins: [{ from: 0, to: 10, count: 10 }, { from: 10, to: 20, count: 0 }, { from: 20, to: 30, count: 5 }],
      markers: [{ x: 12, label: 'p50' }],
    });
    const heights = [...svg.matchAll(/<rect class="bar c3"[^>]* height="([\d.]+)">/g)].map((m) => Number(m[1]));
    expect(heights).toHaveLength(2);
    expect((heights[0] ?? 0) / (heights[1] ?? 1)).toBeCloseTo(2, 1);
    expect(svg).toContain('<title>0 to 10: 10</title>');
    expect(svg).toContain('>p50</text>');
  });
});
