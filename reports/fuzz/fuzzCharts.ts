/**
 * The charts of a fuzz run's report.html, from its timeline: the cases sent per second, with each standing
 * finding's first sighting marked, and the findings found so far. Both count as the verdict does
 * (fuzz/fuzzVerdict.ts): a flaky sighting is no finding, so it is neither marked nor counted (the runner's
 * timeline counts every signature it filed, flaky ones included). Each ends at the run's end, with its final
 * counts (the timeline's last point may come before findings filed as the run settles); a chart of fewer than two
 * points says there is nothing to draw. The drawing is reports/shared/svgChart.ts's.
 */
import { fuzzVerdict } from '../../fuzz/fuzzVerdict.js';
import type { FuzzRun } from '../../fuzz/model.js';
import { emptyChart, formatTick, lineChartSvg } from '../shared/svgChart.js';
import type { ChartAxis, ChartMarker, ChartPoint } from '../shared/svgChart.js';
import { formatDuration } from '../shared/formatDuration.js';
import { formatCount } from '../load/formatLoad.js';

/** Beyond this many findings, markers would hide the line: the findings chart says when they came. */
const MAX_MARKERS = 8;

function timeAxis(run: FuzzRun): ChartAxis {
  const long = run.durationMs > 180_000;
  const clock = (s: number): string => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;
  return { label: long ? 'time since the run began (min:s)' : 'time since the run began', format: long ? clock : (s) => `${formatTick(s)} s`, seconds: true, min: 0 };
}

function findingMarkers(run: FuzzRun): ChartMarker[] {
  const { standing } = fuzzVerdict(run);
  return standing.length > MAX_MARKERS ? [] : standing.map((f) => ({ x: f.atMs / 1000, label: f.id }));
}

/** A tail shorter than this after the last timeline point is not drawn as a rate of its own (too short to mean one). */
const MIN_TAIL_MS = 200;

/**
 * Cases per second at each point of the timeline, then over the run's last part (after the last point, to its end):
 * the cases the run made not counted by then, over that time. A run shorter than a second has no timeline point but this one.
 */
export function casesPoints(run: FuzzRun): ChartPoint[] {
  const points: ChartPoint[] = run.timeline.map((p) => [p.atMs / 1000, p.cases]);
  let before = 0;
  let counted = 0;
  for (const p of run.timeline) {
    counted += (p.cases * (p.atMs - before)) / 1000;
    before = p.atMs;
  }
  const tailMs = run.durationMs - before;
  if (tailMs >= MIN_TAIL_MS) points.push([run.durationMs / 1000, Math.round((Math.max(0, run.cases - Math.round(counted)) * 1000) / tailMs)]);
  return points;
}

/**
 * The standing findings found by each point of the timeline (by their first sighting, flaky sightings and findings
 * folded into another left out, as the verdict counts), and at the run's end all of them: findings filed after the
 * last point (re-checks and shrinks settle as the run ends) are on the chart's last point.
 */
export function findingsPoints(run: FuzzRun): ChartPoint[] {
  const { standing } = fuzzVerdict(run);
  const by = (ms: number): number => standing.filter((f) => f.atMs <= ms).length;
  const points: ChartPoint[] = run.timeline.map((p) => [p.atMs / 1000, by(p.atMs)]);
  const last = run.timeline[run.timeline.length - 1];
  if (last === undefined || run.durationMs > last.atMs) points.push([run.durationMs / 1000, standing.length]);
  else points[points.length - 1] = [last.atMs / 1000, standing.length];
  return points;
}

/** A chart needs two points: with fewer, a figure that says there is nothing to draw, and what the run holds. */
function tooFew(run: FuzzRun, id: string, title: string, points: readonly ChartPoint[]): string | undefined {
  if (points.length >= 2) return undefined;
  const { standing } = fuzzVerdict(run);
  return emptyChart(id, title, `Nothing to draw: the run lasted ${formatDuration(run.durationMs)}, ${points.length === 0 ? 'no point' : 'one point'} over time (a line needs two). In all: ${formatCount(run.cases)} ${run.cases === 1 ? 'case' : 'cases'}, ${formatCount(standing.length)} ${standing.length === 1 ? 'finding' : 'findings'}.`);
}

/** Cases sent per second, each finding's first sighting marked (when there are few). */
export function casesChart(run: FuzzRun): string {
  const markers = findingMarkers(run);
  const points = casesPoints(run);
  const title = 'Cases per second';
  return (
    tooFew(run, 'cases', title, points) ??
    lineChartSvg({
      id: 'cases',
      title,
      description: `The cases sent in each second of the run, to every node (the last point: over the run's last part, to its end).${markers.length > 0 ? ' A dashed line marks when each finding was first seen.' : ''}`,
      x: timeAxis(run),
      y: { label: 'cases/s', format: formatTick },
      series: [{ name: 'cases/s', color: 0, points }],
      markers,
    })
  );
}

/** Findings found so far, second by second, and all of them at the run's end. */
export function findingsChart(run: FuzzRun): string {
  const { standing } = fuzzVerdict(run);
  const points = findingsPoints(run);
  const title = 'Findings over time';
  return (
    tooFew(run, 'findings', title, points) ??
    lineChartSvg({
      id: 'findings',
      title,
      description: 'The findings found so far (each signature once, flaky sightings left out) at each second of the run; the last point, at its end, holds them all.',
      x: timeAxis(run),
      y: { label: 'findings', format: formatTick, ...(standing.length === 0 ? { max: 1 } : {}) },
      series: [{ name: 'findings so far', color: 'fail', points }],
    })
  );
}
