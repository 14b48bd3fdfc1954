/**
 * How a command watches the nodes themselves (`chainrpc load`, `load sweep`, `chainrpc watch`): their heads
 * followed (--head-hz, --head-reference) and their processes read (--pid, --metrics-url): the options, their
 * help lines, and what they become, refused with exit 2 where they do not fit the --url given.
 */
import { CliError } from '../../CliError.js';
import type { OptionTable } from '../../CommandLine.js';
import { httpUrlProblem } from '../../commonOptions.js';
import { baseUrls } from '../../nodeUrls.js';
import { cpuSeconds } from '../../../core/process/procStat.js';

export const HEALTH_OPTIONS = {
  'head-hz': { kind: 'integer', value: '<n>', min: 0, max: 100, default: 20 },
  'head-reference': { kind: 'text', value: '<url>', check: httpUrlProblem },
  pid: { kind: 'list', value: '<pid>', check: (t: string) => (/^[1-9][0-9]{0,9}$/.test(t) ? undefined : 'is a process id: a positive integer') },
  'metrics-url': { kind: 'list', value: '<url>', check: httpUrlProblem },
  metric: { kind: 'list', value: '<name>', check: (t: string) => (/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(t) ? undefined : 'is a Prometheus metric name (letters, digits, _ and :)') },
} as const satisfies OptionTable;

/** The health options' help lines. */
export const HEALTH_HELP = `  --head-hz <n>            each node's head is read n times a second through the run, apart from the
                           load (head lag, stalls, heights gone backwards; default 20; 0: not followed)
  --head-reference <url>   a node trusted to be at the tip, followed too: heights' times count its own
  --pid <pid>              a node's process on this machine, in the order of --url (repeatable): its CPU,
                           memory, open files and threads read from /proc through the run, and the node's
                           CPU per answered call
  --metrics-url <url>      a node's Prometheus metrics, in the order of --url (repeatable; for a node
                           anywhere): process_cpu_seconds_total, process_resident_memory_bytes and
                           process_open_fds scraped every second, for the same figures as --pid
  --metric <name>          another metric to read from each --metrics-url (repeatable), summed over its
                           labels: its values over the run, and a counter's rate (e.g. chainrpc_rpc_calls_total)`;

interface HealthValues {
  'head-hz': number;
  'head-reference'?: string | undefined;
}

/** How the nodes' heads are followed (--head-hz, --head-reference); null: not at all. */
export function healthOf(command: string, values: HealthValues, rpcPath: string): { intervalMs: number; reference?: string } | null {
  if (values['head-hz'] === 0) {
    if (values['head-reference'] !== undefined) throw new CliError(`${command}: --head-reference needs the heads followed: --head-hz above 0`);
    return null;
  }
  const reference = values['head-reference'] === undefined ? undefined : baseUrls(command, [values['head-reference']], rpcPath, '--head-reference')[0];
  return { intervalMs: 1_000 / values['head-hz'], ...(reference === undefined ? {} : { reference }) };
}

/** --pid, one per --url in order (fewer: the last nodes have none); each must be a process this machine has. */
export function pidsOf(command: string, given: readonly string[] | undefined, urls: readonly string[]): number[] | undefined {
  if (given === undefined || given.length === 0) return undefined;
  if (given.length > urls.length) throw new CliError(`${command}: ${given.length} --pid for ${urls.length} --url: one per node, in the order of --url`);
  return given.map((text, i) => {
    const pid = Number(text);
    if (cpuSeconds(pid) === undefined) throw new CliError(`${command}: --pid ${pid} (for ${urls[i] ?? ''}): no such process here to read (/proc/${pid}); give the pid of the node serving that URL on this machine`);
    return pid;
  });
}

/** --metrics-url, one per --url in order; a node given a --pid too is read by its pid (said as an error: pick one). */
export function metricsUrlsOf(command: string, given: readonly string[] | undefined, pids: readonly string[] | undefined, urls: readonly string[]): string[] {
  if (given === undefined || given.length === 0) return [];
  if (given.length > urls.length) throw new CliError(`${command}: ${given.length} --metrics-url for ${urls.length} --url: one per node, in the order of --url`);
  const both = Math.min(given.length, pids?.length ?? 0);
  if (both > 0) throw new CliError(`${command}: ${urls[0] ?? ''} has both a --pid and a --metrics-url: give one per node (--pid for a node on this machine, --metrics-url for one anywhere)`);
  return [...given];
}

/** --metric: read from --metrics-url only (a process on this machine has no metrics to name). */
export function metricNamesOf(command: string, given: readonly string[] | undefined, metricsUrls: readonly string[]): string[] {
  if (given === undefined || given.length === 0) return [];
  if (metricsUrls.length === 0) throw new CliError(`${command}: --metric ${given[0] ?? ''} is read from a node's Prometheus metrics: give --metrics-url <url>`);
  return [...new Set(given)];
}
