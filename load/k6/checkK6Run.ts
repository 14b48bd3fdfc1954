/**
 * What `chainrpc load merge` checks of what each k6 instance actually ran (K6Summary.ts `k6`, written by the
 * runtime's handleSummary), so that figures of a run that was not the script's are marked untrusted instead of
 * reported as the scenario's: k6's scenarios against the script's own (a command-line --vus, --duration,
 * --iterations or --stages replaces them: `k6 run --vus 2 --duration 4s` was reported as an open model at 200/s
 * over 10 s), a command-line --rps (a cap on what k6 sends: `k6 run --rps 10` held back 300 requests that showed
 * as transport failures in a report marked valid), k6's run duration against the warm-up and the window (an
 * interrupted run), and the measured window's drops (not counted apart without thresholds). Also where the run's window lies in time, from when
 * each instance's measured window began.
 */
import type { K6Summary } from './K6Summary.js';
import { show } from './K6SummaryError.js';

/**
 * Instances whose measured windows began further apart than this (or than 10% of warm-up plus measured window,
 * if longer) did not run together: the node never took the whole scenario's rate, and the merged figures say
 * otherwise. Summaries written before the window's start was kept are judged by their ends instead.
 */
export const K6_MAX_SPREAD_MS = 5000;

/** How much shorter than warm-up plus window k6's run may be (its clock against the scenario's start) before it counts as stopped early. */
const SHORT_RUN_TOLERANCE_MS = 500;

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 1e-3, µs: 1e-3, ns: 1e-6 };

/** A duration as k6 writes one (Go's form, "1m30.5s", or the script's, "90500ms"), in ms; undefined for anything else. */
export function k6DurationMs(text: string): number | undefined {
  if (!/^(?:\d+(?:\.\d+)?(?:h|m|s|ms|us|µs|ns))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, n, unit] of text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g)) total += Number(n) * (UNIT_MS[unit ?? ''] ?? Number.NaN);
  return total;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The JSON pointer of the first place where the scenarios k6 ran differ from those the script asks for, or null.
 * k6 gives back every option of a scenario (null where none was set) and writes durations its own way.
 */
export function scheduleDifference(planned: unknown, ran: unknown, pointer = ''): string | null {
  if (typeof planned === 'string' && typeof ran === 'string') {
    const [a, b] = [k6DurationMs(planned), k6DurationMs(ran)];
    return planned === ran || (a !== undefined && b !== undefined && Math.abs(a - b) < 1e-6) ? null : pointer || '/';
  }
  if (Array.isArray(planned) && Array.isArray(ran)) {
    if (planned.length !== ran.length) return pointer || '/';
    for (let i = 0; i < planned.length; i++) {
      const d = scheduleDifference(planned[i], ran[i], `${pointer}/${i}`);
      if (d !== null) return d;
    }
    return null;
  }
  if (isRecord(planned) && isRecord(ran)) {
    for (const k of new Set([...Object.keys(planned), ...Object.keys(ran)])) {
      // An option the script leaves out, k6 gives back as null.
      if (!Object.hasOwn(planned, k) && ran[k] === null) continue;
      const d = scheduleDifference(planned[k], ran[k], `${pointer}/${k}`);
      if (d !== null) return d;
    }
    return null;
  }
  return planned === ran ? null : pointer || '/';
}

const at = (value: unknown, pointer: string): unknown =>
  pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((v, k) => (isRecord(v) ? v[k] : Array.isArray(v) ? v[Number(k)] : undefined), value);

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** Why k6's scenarios are not the script's, in a sentence (they differ at `pointer`). */
function scheduleMismatch(planned: unknown, ran: unknown, pointer: string): string {
  const names = (v: unknown): string => (isRecord(v) ? Object.keys(v).sort().join(', ') : show(v));
  const what = names(planned) !== names(ran) ? `k6 ran scenario(s) ${names(ran)}, not the script's ${names(planned)}` : `k6's scenarios differ from the script's at ${pointer} (the script asks ${show(at(planned, pointer))}, k6 ran ${show(at(ran, pointer))})`;
  return `k6 did not run the script's schedule: ${what}; a command-line option such as --vus, --duration, --iterations or --stages replaces the script's scenarios, so these figures are not the scenario's`;
}

/** The reasons not to trust one instance's figures (`name` names it), from what k6 ran; none when its summary does not say. */
export function ranProblems(s: K6Summary, name: string): string[] {
  const facts = s.k6;
  if (facts === undefined) return [];
  const out: string[] = [];
  const differs = facts.ran === null ? null : scheduleDifference(facts.planned, facts.ran);
  if (differs !== null) out.push(`${name}: ${scheduleMismatch(facts.planned, facts.ran, differs)}`);
  // A replay ends when its last request has ended, which may come before the window it reports.
  else if (s.replay === undefined && facts.testRunDurationMs !== null && facts.testRunDurationMs + SHORT_RUN_TOLERANCE_MS < s.warmupMs + s.durationMs) {
    out.push(`${name}: k6 ran for ${seconds(facts.testRunDurationMs)}, but the scenario takes ${seconds(s.warmupMs + s.durationMs)} (warm-up and measured window): the run was stopped early (interrupted or aborted), so its figures are of part of the window`);
  }
  if (typeof facts.rps === 'number') {
    out.push(`${name}: k6 ran with --rps ${facts.rps} (or K6_RPS), a cap on the requests it sends per second whatever the script's schedule: requests held back by it count as sent and then cut off, so these figures are not the scenario's; run k6 without --rps`);
  }
  if (!facts.windowDrops && facts.droppedInTest > 0) {
    out.push(`${name}: k6 ran without thresholds (--no-thresholds), so it did not count the measured window's dropped iterations apart from the warm-up's: its ${facts.droppedInTest} may include the warm-up's`);
  }
  return out;
}

/**
 * The merged run's window: from the earliest start of an instance's measured window (less the warm-up) to the
 * latest one's end, and whether the instances ran together. Summaries written before k6 said when the window
 * began are placed back from their latest end (late by the graceful stop's drain) and judged by their ends.
 */
export function runWindow(summaries: readonly K6Summary[], warmupMs: number, durationMs: number): { startedAt: string; endedAt: string; invalid: string[] } {
  const allowedMs = Math.max(K6_MAX_SPREAD_MS, (warmupMs + durationMs) / 10);
  const starts = summaries.flatMap((s) => (s.k6 === undefined || s.k6.windowStartedAt === null ? [] : [Date.parse(s.k6.windowStartedAt)]));
  const apart = (spreadMs: number, what: string): string[] =>
    spreadMs > allowedMs
      ? [`the k6 instances did not run together: their ${what} ${seconds(spreadMs)} apart (more than ${seconds(allowedMs)}), so the node never took the whole scenario's load at once; start every instance together (the k6-operator does)`]
      : [];
  if (starts.length > 0) {
    const [first, last] = [Math.min(...starts), Math.max(...starts)];
    return { startedAt: new Date(first - warmupMs).toISOString(), endedAt: new Date(last + durationMs).toISOString(), invalid: apart(last - first, 'measured windows began') };
  }
  const ends = summaries.map((s) => Date.parse(s.endedAt));
  const lastEnd = Math.max(...ends);
  return { startedAt: new Date(lastEnd - durationMs - warmupMs).toISOString(), endedAt: new Date(lastEnd).toISOString(), invalid: apart(lastEnd - Math.min(...ends), 'ends lie') };
}
