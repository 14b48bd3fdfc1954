/**
 * What Linux says of a process in /proc: the CPU it has used (/proc/<pid>/stat, `cpuSeconds`), and for a node's
 * health during a load run its resident memory, open file descriptors and threads as well (`processSample`). One
 * reader for every benchmark that weighs a process's cost (bench/idle.bench.ts, bench/fuzz.bench.ts) and for the
 * health figures. Linux only; elsewhere undefined.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: /proc reports CPU time in clock ticks of 10 ms. */
const TICKS_PER_S = 100;

/** /proc/<pid>/status writes memory in "kB", which are KiB (the kernel shifts pages by PAGE_SHIFT - 10). */
const BYTES_PER_KB = 1024;

/** CPU seconds (user + system, every thread) the process has used so far; undefined when /proc cannot tell. */
export function cpuSeconds(pid: number | 'self'): number | undefined {
  return statTicks(`/proc/${pid}/stat`);
}

/** user + system of a stat file of proc(5) (a process's or one thread's), in seconds. */
function statTicks(path: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields after it start after the last ') '.
  // Fields 14 (utime) and 15 (stime) of proc(5) are then the 12th and 13th, in clock ticks.
  const fields = text.slice(text.lastIndexOf(') ') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  return Number.isFinite(user) && Number.isFinite(system) ? (user + system) / TICKS_PER_S : undefined;
}

/**
 * CPU seconds of a process's main thread (for node, its event loop) and of all its other threads together (libuv's
 * thread pool, V8's compiler and garbage-collector threads, threads that have exited): the process's total less its
 * main thread's. undefined when /proc cannot tell.
 */
export function threadCpuSeconds(pid: number): { readonly main: number; readonly others: number } | undefined {
  const total = cpuSeconds(pid);
  const main = statTicks(`/proc/${pid}/task/${pid}/stat`);
  return total === undefined || main === undefined ? undefined : { main, others: total - main };
}

/** One look at a process: what a health monitor follows over a long run to see it leak or pile up. */
export interface ProcessSample {
  /** CPU seconds, user + system, every thread, since the process started (`cpuSeconds`). */
  readonly cpuSeconds: number;
  /** Resident memory in bytes: `VmRSS` of /proc/<pid>/status. */
  readonly rssBytes: number;
  /**
   * Open file descriptors: the entries of /proc/<pid>/fd. undefined when this process may not list them (another
   * user's process, without the privilege to look into it): the other figures are still given.
   */
  readonly openFds: number | undefined;
  /** Threads: `Threads` of /proc/<pid>/status. */
  readonly threads: number;
}

/**
 * CPU, resident memory, open file descriptors and threads of a process (`'self'`: this one). undefined when the
 * process does not exist, has exited (a zombie, not yet reaped by its parent, has no memory to tell), or /proc
 * cannot tell (not Linux). The files are read one after the other, not at one instant: a process that ends between
 * them is undefined, never half-sampled.
 */
export function processSample(pid: number | 'self'): ProcessSample | undefined {
  const cpu = cpuSeconds(pid);
  if (cpu === undefined) return undefined;
  const status = readStatus(pid);
  if (status === undefined) return undefined;
  const fds = countOpenFds(pid);
  if (fds === 'gone') return undefined;
  return { cpuSeconds: cpu, rssBytes: status.rssBytes, openFds: fds, threads: status.threads };
}

/**
 * Resident memory and threads from /proc/<pid>/status. VmRSS is read rather than the resident pages of
 * /proc/<pid>/statm because it is in kB already: statm counts pages, and the page size is not 4096 everywhere
 * (arm64 and ppc64 kernels may use 16 or 64 KiB); learning it would take a binary read of /proc/self/auxv
 * (AT_PAGESZ) or the smaps of every mapping, for nothing VmRSS does not say. A process without VmRSS (a zombie, a
 * kernel thread) has no memory of its own to sample.
 */
function readStatus(pid: number | 'self'): { rssBytes: number; threads: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const rssKb = /^VmRSS:\s*(\d+) kB$/m.exec(text)?.[1];
  const threads = /^Threads:\s*(\d+)$/m.exec(text)?.[1];
  if (rssKb === undefined || threads === undefined) return undefined;
  return { rssBytes: Number(rssKb) * BYTES_PER_KB, threads: Number(threads) };
}

/**
 * The entries of /proc/<pid>/fd; 'gone' when the process no longer exists; undefined when the folder cannot be
 * listed for another reason: a permission error (another user's process) foremost, or this process being out of
 * descriptors itself (EMFILE, under load), which must not stop the sampling of the other figures.
 */
function countOpenFds(pid: number | 'self'): number | undefined | 'gone' {
  let entries: string[];
  try {
    entries = readdirSync(`/proc/${pid}/fd`);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ESRCH' ? 'gone' : undefined;
  }
  // Listing a folder holds a descriptor open on it while it is read: in this process's own list it is one of the
  // entries, and not one of the descriptors the process holds.
  return pid === 'self' || pid === process.pid ? entries.length - 1 : entries.length;
}
