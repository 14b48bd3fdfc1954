/**
 * How a command watches the nodes themselves (`chainrpc load`, `load sweep`, `chainrpc watch`): their heads
 * followed (--head-hz, --head-reference) and their processes read (--pid, --metrics-url): the options, their
 * help lines, and what they become, refused with exit 2 where they do not fit the --url given.
 */
import { CliError } from '../../CliError.js';
import type { OptionTable } from '../../CommandLine.js';
import { httpUrlProblem, nodeUrlProblem } from '../../commonOptions.js';
import { baseUrls } from '../../nodeUrls.js';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { cpuSeconds } from '../../../core/process/procStat.js';

/** In a position of --pid or --metrics-url: none for that --url (both pair with --url by position). */
export const NONE = '-';

export const HEALTH_OPTIONS = {
  'head-hz': { kind: 'integer', value: '<n>', min: 0, max: 100, default: 20 },
  'head-reference': { kind: 'text', value: '<url>', check: nodeUrlProblem },
  pid: { kind: 'list', value: '<pid>', check: (t: string) => (t === NONE || /^[1-9][0-9]{0,9}$/.test(t) ? undefined : 'is a process id (a positive integer), or - for none for that --url') },
  'metrics-url': { kind: 'list', value: '<url>', check: (t: string) => (t === NONE ? undefined : httpUrlProblem(t)) },
  metric: { kind: 'list', value: '<name>', check: (t: string) => (/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(t) ? undefined : 'is a Prometheus metric name (letters, digits, _ and :)') },
} as const satisfies OptionTable;

/** The health options' help lines. */
export const HEALTH_HELP = `  --head-hz <n>            each node's head is read n times a second through the run, apart from the
                           load (head lag, stalls, heights gone backwards; default 20; 0: not followed)
  --head-reference <url>   a node trusted to be at the tip, followed too: heights' times count its own
                           (with one --url, head lag and stalls need it: nothing else to compare with)
  --pid <pid>              a node's process on this machine, in the order of --url (repeatable): its CPU,
                           memory, open files and threads read from /proc through the run, and the node's
                           CPU per answered call
  --metrics-url <url>      a node's Prometheus metrics, in the order of --url (repeatable; for a node
                           anywhere): process_cpu_seconds_total, process_resident_memory_bytes and
                           process_open_fds scraped every second, for the same figures as --pid; read once
                           before the run (no readable page: exit 2)
                           Both pair with --url by position; - skips one: --url A --url B --pid <A's pid>
                           --metrics-url - --metrics-url http://B/metrics reads A by its pid, B by its page
  --metric <name>          another metric to read from each --metrics-url (repeatable), summed over its
                           labels: its values over the run, and a counter's rate
                           (e.g. chainrpc_node_rpc_calls_total)`;

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

/** Said on the console when one node's head is followed with nothing to compare it with (docs/load.md, "The node's health"). */
export const ALONE_NOTE = (command: string): string =>
  `${command}: one node's head is followed, and no --head-reference: its head lag and stalls cannot be measured (nothing to compare its heights with); a second --url or --head-reference <url> (a node trusted to be at the tip) gives them`;

/** The values of --pid or --metrics-url by position, `-` as none; trailing nones dropped (fewer: the last nodes have none). */
function byPosition<T>(given: readonly string[], read: (text: string, i: number) => T): (T | undefined)[] {
  const values = given.map((text, i) => (text === NONE ? undefined : read(text, i)));
  while (values.length > 0 && values.at(-1) === undefined) values.pop();
  return values;
}

/**
 * --pid, one per --url in order (fewer: the last nodes have none; `-`: none for that node); each must be a
 * process this machine has. undefined when no node has one.
 */
export function pidsOf(command: string, given: readonly string[] | undefined, urls: readonly string[]): (number | undefined)[] | undefined {
  if (given === undefined || given.length === 0) return undefined;
  if (given.length > urls.length) throw new CliError(`${command}: ${given.length} --pid for ${urls.length} --url: one per node, in the order of --url (- for a node that has none)`);
  const pids = byPosition(given, (text, i) => {
    const pid = Number(text);
    if (cpuSeconds(pid) === undefined) throw new CliError(`${command}: --pid ${pid} (for ${urls[i] ?? ''}): no such process here to read (/proc/${pid}); give the pid of the node serving that URL on this machine`);
    return pid;
  });
  return pids.length === 0 ? undefined : pids;
}

/**
 * --metrics-url, one per --url in order (`-`: none for that node). A node given both a --pid and a --metrics-url
 * in its position is an error (pick one); `-` in the other's position reads one node by its pid and another by
 * its page.
 */
export function metricsUrlsOf(command: string, given: readonly string[] | undefined, pids: readonly string[] | undefined, urls: readonly string[]): (string | undefined)[] {
  if (given === undefined || given.length === 0) return [];
  if (given.length > urls.length) throw new CliError(`${command}: ${given.length} --metrics-url for ${urls.length} --url: one per node, in the order of --url (- for a node that has none)`);
  const both = given.findIndex((text, i) => text !== NONE && pids?.[i] !== undefined && pids[i] !== NONE);
  if (both >= 0) {
    throw new CliError(
      `${command}: ${urls[both] ?? ''} (--url number ${both + 1}) has both a --pid and a --metrics-url: each pairs with --url by position, so give one per node, and - where a node has none (--url A --url B --pid <A's pid> --metrics-url - --metrics-url http://B/metrics)`,
    );
  }
  return byPosition(given, (text) => text);
}

/** --metric: read from --metrics-url only (a process on this machine has no metrics to name). */
export function metricNamesOf(command: string, given: readonly string[] | undefined, metricsUrls: readonly (string | undefined)[]): string[] {
  if (given === undefined || given.length === 0) return [];
  if (metricsUrls.every((u) => u === undefined)) throw new CliError(`${command}: --metric ${given[0] ?? ''} is read from a node's Prometheus metrics: give --metrics-url <url>`);
  return [...new Set(given)];
}

/** Processes chainrpc started itself (a --devnet's nodes): which URL each serves is known, not given by position. */
const startedHere = new Set<number>();

/** Marks processes chainrpc started (a --devnet's nodes): pidNotes says nothing of them. */
export function startedByChainrpc(pids: Iterable<number>): void {
  for (const pid of pids) startedHere.add(pid);
}

/**
 * What the console says of --pid: which --url each is read as (they pair by position, so a pid given in the
 * wrong place would silently be another node's process), and a warning for a pid that does not listen on its
 * URL's port (read from /proc: the pid's TCP sockets in LISTEN against the URL's port). A pid whose sockets this
 * user cannot read, or a URL whose port is reached through something else (a container's port mapping, a
 * proxy), is not proven wrong: a warning, never an error.
 */
export function pidNotes(command: string, urls: readonly string[], pids: readonly (number | undefined)[]): string[] {
  return pids.flatMap((pid, i) => {
    // A devnet's own nodes: chainrpc started each on its URL, nothing was paired by position (startRunDevnet says they are read).
    if (pid === undefined || startedHere.has(pid)) return [];
    const url = urls[i] ?? '';
    const port = portOf(url);
    const listening = port === undefined ? undefined : listensOn(pid, port);
    const pairing = `${command}: --pid ${pid} is read as the process of ${url} (--pid pairs with --url by position)`;
    return listening === false ? [pairing, `${command}: warning: process ${pid} does not listen on port ${port ?? ''} of ${url}: is it that node's process? (give --pid in the order of --url)`] : [pairing];
  });
}

function portOf(url: string): number | undefined {
  try {
    const u = new URL(url);
    return u.port === '' ? (u.protocol === 'https:' ? 443 : 80) : Number(u.port);
  } catch {
    return undefined;
  }
}

/**
 * Whether process `pid` holds a TCP socket listening on `port` (any address, IPv4 or IPv6): the LISTEN sockets
 * of its network namespace on that port (/proc/<pid>/net/tcp, tcp6), matched by inode with its open files
 * (/proc/<pid>/fd, `socket:[inode]`). undefined: this user cannot read them (not Linux, another user's process).
 */
export function listensOn(pid: number, port: number): boolean | undefined {
  const inodes = new Set<string>();
  let read = false;
  try {
    for (const file of ['tcp', 'tcp6']) {
      let text: string;
      try {
        text = readFileSync(`/proc/${pid}/net/${file}`, 'utf8');
        read = true;
      } catch {
        continue;
      }
      for (const line of text.split('\n').slice(1)) {
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
        const f = line.trim().split(/\s+/);
        const local = f[1];
        if (local === undefined || f[3] !== '0A' || f[9] === undefined) continue;
        if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port) inodes.add(f[9]);
      }
    }
    if (!read) return undefined;
    const fds = readdirSync(`/proc/${pid}/fd`);
    return fds.some((fd) => {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        return target.startsWith('socket:[') && inodes.has(target.slice(8, -1));
      } catch {
        return false;
      }
    });
  } catch {
    return undefined;
  }
}
