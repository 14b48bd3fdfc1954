/**
 * The charts of a fuzz run's report.html, from its timeline: the cases sent per second, with each standing
 * finding's first sighting marked, and the findings found so far. Both count as the verdict does
 * (fuzz/fuzzVerdict.ts): a flaky sighting is no finding, so it is neither marked nor counted (the runner's
 * timeline counts every signature it filed, flaky ones included). The drawing is reports/shared/svgChart.ts's.
 */
import { fuzzVerdict } from '../../fuzz/fuzzVerdict.js';
import type { FuzzRun } from '../../fuzz/model.js';
import { formatTick, lineChartSvg } from '../shared/svgChart.js';
import type { ChartAxis, ChartMarker } from '../shared/svgChart.js';

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

/** The standing findings so far at each second: the runner's count, less the flaky sightings first seen by then. */
function standingSoFar(run: FuzzRun): [number, number][] {
  const { flaky } = fuzzVerdict(run);
  return run.timeline.map((p) => [p.atMs / 1000, Math.max(0, p.findings - flaky.filter((f) => f.atMs <= p.atMs).length)]);
}

/** Cases sent per second, each finding's first sighting marked (when there are few). */
export function casesChart(run: FuzzRun): string {
  const markers = findingMarkers(run);
  return lineChartSvg({
    id: 'cases',
    title: 'Cases per second',
    description: `The cases sent in each second of the run, to every node.${markers.length > 0 ? ' A dashed line marks when each finding was first seen.' : ''}`,
    x: timeAxis(run),
    y: { label: 'cases/s', format: formatTick },
    series: [{ name: 'cases/s', color: 0, points: run.timeline.map((p) => [p.atMs / 1000, p.cases]) }],
    markers,
  });
}

/** Findings found so far, second by second. */
export function findingsChart(run: FuzzRun): string {
  const { standing } = fuzzVerdict(run);
  return lineChartSvg({
    id: 'findings',
    title: 'Findings over time',
    description: 'The findings found so far (each signature once, flaky sightings left out) at each second of the run.',
    x: timeAxis(run),
    y: { label: 'findings', format: formatTick, ...(standing.length === 0 ? { max: 1 } : {}) },
    series: [{ name: 'findings so far', color: 'fail', points: standingSoFar(run) }],
  });
}
