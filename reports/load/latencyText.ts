/**
 * What a report's latency runs from, said where the report defines it. The Node engine times each request from
 * its scheduled send and keeps the service time (from the first byte written) apart. A k6 test merged by
 * `chainrpc load merge` has one figure, as k6 measured it: from each request's write (k6's http_req_duration),
 * or for a replay from each request's time in it; no service time apart (load/k6/mergeK6Summaries.ts). A merged
 * report is known by the command it records.
 */
import type { LoadReport } from '../../load/model.js';

export type LatencyTiming = 'scheduled' | 'k6-write' | 'k6-replay';

/** How the report's runs were timed. */
export function latencyTiming(report: Pick<LoadReport, 'command' | 'replay'>): LatencyTiming {
  if (!report.command.startsWith('chainrpc load merge ')) return 'scheduled';
  return report.replay === undefined ? 'k6-write' : 'k6-replay';
}

/** Whether the runs have a service time apart from their latency (the Node engine's only). */
export const hasServiceTime = (timing: LatencyTiming): boolean => timing === 'scheduled';

/** Where the latency runs from and to, for a figure's note. */
export const LATENCY_SPAN: Record<LatencyTiming, string> = {
  scheduled: 'from the scheduled send time to the full answer',
  'k6-write': "from the request's write to its full answer, as k6 measured it (no scheduled time)",
  'k6-replay': "from the request's time in the replay to its full answer, as k6 measured it",
};

/** The footer's sentence on latency (report.html and summary.md). */
export const LATENCY_NOTE: Record<LatencyTiming, string> = {
  scheduled: "Latency runs from each request's scheduled send time to its full answer, so a node or a generator that falls behind shows in it (no coordinated omission); service time runs from the first byte written.",
  'k6-write':
    "Latency is k6's: from each request's write to its full answer (http_req_duration), not from a scheduled send time, so time a request waited for a free VU does not show in it (an iteration with none is dropped and counted); k6 keeps no service time apart.",
  'k6-replay': "Latency is k6's: from each request's time in the replay to its full answer (a request sent late counts its delay); k6 keeps no service time apart.",
};

/** What the failures table says of transport failures: in a merged k6 run they include the requests k6 cut off at the end. */
export const TRANSPORT_NOTE: Record<LatencyTiming, string> = {
  scheduled: 'connection refused, reset or closed before the answer',
  'k6-write': 'connection refused, reset or closed before the answer, or cut off by k6 at the end of the run',
  'k6-replay': 'connection refused, reset or closed before the answer, or cut off by k6 at the end of the run',
};
