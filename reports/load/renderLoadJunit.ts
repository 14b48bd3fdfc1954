import type { LoadReport, LoadRun, SweepResult } from '../../load/model.js';
import { renderJunitXml } from '../shared/junitXml.js';
import type { JunitCase, JunitSuite } from '../shared/junitXml.js';
import { describeModel } from './describeModel.js';
import { formatDeltaAllowed, formatDeltaChange, formatMetricValue, formatRate, thresholdOutcome } from './formatLoad.js';
import { deltaOutcome } from '../../load/compareBaseline.js';
import { loadHeadline } from '../../load/loadVerdict.js';
import { stopNote } from './loadFacts.js';

/** A run's wall-clock length (warm-up included), ms. */
const wallMs = (run: LoadRun): number => Math.max(0, Date.parse(run.endedAt) - Date.parse(run.startedAt)) || run.warmupMs + run.durationMs;

/** "run valid": an error (no verdict) when the figures cannot be trusted; how it stopped, beside it. */
function validCase(run: LoadRun, classname: string, name = 'run valid'): JunitCase {
  const stopped = stopNote(run);
  const out = stopped === undefined ? {} : { systemOut: `Run ${stopped}.` };
  if (run.valid) return { classname, name, timeMs: run.durationMs, ...out };
  const why = run.invalid.length > 0 ? run.invalid.join('; ') : 'no reason given';
  return {
    classname,
    name,
    timeMs: run.durationMs,
    failure: { element: 'error', message: `run invalid: ${why}`, type: 'invalid', text: `The run on ${run.url} is invalid, its figures cannot be trusted:\n${run.invalid.map((r) => `- ${r}`).join('\n')}${stopped === undefined ? '' : `\nRun ${stopped}.`}` },
  };
}

function thresholdCases(run: LoadRun, classname: string): JunitCase[] {
  return run.thresholds.map((t): JunitCase => {
    const actual = formatMetricValue(t.unit, t.actual);
    const limit = formatMetricValue(t.unit, t.limit);
    const name = `threshold: ${t.name}`;
    const outcome = thresholdOutcome(run, t);
    if (outcome === 'not judged') return { classname, name, timeMs: 0, skipped: { message: `not judged: the run was interrupted (actual so far ${actual}, limit ${limit})` } };
    if (outcome === 'kept') return { classname, name, timeMs: 0, systemOut: `kept: actual ${actual}, limit ${limit}` };
    return {
      classname,
      name,
      timeMs: 0,
      failure: { element: 'failure', message: `${t.name} broken: actual ${actual}, limit ${limit}`, type: 'threshold', text: `threshold ${t.name} on ${run.url}\nmetric: ${t.metric}\nactual: ${t.actual} (${actual})\nlimit: ${t.limit} (${limit})` },
    };
  });
}

function runSuite(report: LoadReport, run: LoadRun): JunitSuite {
  const classname = `load.${run.scenario}`;
  return {
    name: `${run.scenario} @ ${run.url}`,
    timeMs: wallMs(run),
    timestamp: run.startedAt,
    properties: [
      ['verdict', loadHeadline(report).line],
      ['url', run.url],
      ['scenario', run.scenario],
      ['model', describeModel(run.model)],
      ['profile', report.profile],
      ['achievedRate', String(run.schedule.achievedRate)],
      ['stop', run.stop.reason],
      ['tool', `${report.tool.name} ${report.tool.version}`],
    ],
    cases: [validCase(run, classname), ...thresholdCases(run, classname)],
  };
}

/** A sweep: a case per step (an error where the step's run is invalid, what held or broke beside it), and "knee found". */
function sweepSuite(report: LoadReport, sweep: SweepResult): JunitSuite {
  const classname = `load.sweep.${sweep.scenario}`;
  const steps = [...sweep.steps].sort((a, b) => a.rate - b.rate);
  const cases = steps.map((s): JunitCase => {
    const c = validCase(s.run, classname, `rate ${formatRate(s.rate)} req/s`);
    const slo = s.sloHeld ? 'SLO held' : `${s.generatorLimited ? 'not measured (the generator fell behind)' : 'SLO broken'}: ${s.reasons.join('; ')}`;
    return { ...c, systemOut: c.systemOut === undefined ? slo : `${slo}\n${c.systemOut}` };
  });
  cases.push(
    sweep.knee === null
      ? { classname, name: 'knee found', timeMs: 0, failure: { element: 'failure', message: 'the SLO held at no rate tried', type: 'sweep', text: steps.map((s) => `${formatRate(s.rate)} req/s: ${s.reasons.join('; ')}`).join('\n') } }
      : { classname, name: 'knee found', timeMs: 0, systemOut: `knee at ${formatRate(sweep.knee)} req/s` },
  );
  const first = sweep.steps[0]?.run;
  return {
    name: `sweep ${sweep.scenario} @ ${sweep.url}`,
    timeMs: sweep.steps.reduce((n, s) => n + wallMs(s.run), 0),
    timestamp: first?.startedAt ?? report.createdAt,
    properties: [
      ['verdict', loadHeadline(report).line],
      ['url', sweep.url],
      ['scenario', sweep.scenario],
      ['search', sweep.search],
      ['knee', sweep.knee === null ? 'none' : String(sweep.knee)],
      ['tool', `${report.tool.name} ${report.tool.version}`],
    ],
    cases,
  };
}

function baselineSuite(report: LoadReport): JunitSuite | undefined {
  const baseline = report.baseline;
  if (!baseline) return undefined;
  return {
    name: `baseline ${baseline.file}`,
    timeMs: 0,
    timestamp: report.createdAt,
    properties: [
      ['baseline', baseline.file],
      ['baseline.createdAt', baseline.createdAt],
    ],
    cases: baseline.deltas.map((d): JunitCase => {
      const shown = `${formatMetricValue(d.unit, d.baseline)} → ${formatMetricValue(d.unit, d.current)} (${formatDeltaChange(d)}, allowed ${formatDeltaAllowed(d)})`;
      const name = `no regression: ${d.metric}`;
      if (!d.regression) return { classname: 'load.baseline', name, timeMs: 0, systemOut: `${shown}: ${deltaOutcome(d)}` };
      return {
        classname: 'load.baseline',
        name,
        timeMs: 0,
        failure: { element: 'failure', message: `regression: ${shown}`, type: 'regression', text: `${d.metric}\nbaseline: ${d.baseline}\ncurrent: ${d.current}\nchange: ${d.change}\nallowed: ${d.allowed}\nbaseline report: ${baseline.file} (${baseline.createdAt})` },
      };
    }),
  };
}

/**
 * JUnit XML (junit.xml) for CI servers: a suite per run (one "run valid" case, an error when the run is
 * invalid, and a case per threshold, a broken one a failure with actual against limit), a suite per sweep
 * (a case per step, and "knee found"), and a suite for the baseline (a case per figure compared, a
 * regression a failure). The process's exit code is what gates the pipeline; this file says why.
 */
export function renderLoadJunit(report: LoadReport): string {
  const suites = [...report.runs.map((r) => runSuite(report, r)), ...report.sweeps.map((s) => sweepSuite(report, s))];
  const baseline = baselineSuite(report);
  if (baseline) suites.push(baseline);
  return renderJunitXml({
    name: `chainrpc load ${report.scenario.name}`,
    timeMs: suites.reduce((n, s) => n + s.timeMs, 0),
    timestamp: report.runs[0]?.startedAt ?? report.sweeps[0]?.steps[0]?.run.startedAt ?? report.createdAt,
    suites,
  });
}
