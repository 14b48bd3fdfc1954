/**
 * What Linux says of a process in /proc/<pid>/stat: the CPU it has used. One reader for every benchmark that
 * weighs a process's cost (bench/idle.bench.ts, bench/fuzz.bench.ts). Linux only; elsewhere undefined.
 */
import { readFileSync } from 'node:fs';

/** USER_HZ: /proc reports CPU time in clock ticks of 10 ms. */
const TICKS_PER_S = 100;

/** CPU seconds (user + system, every thread) the process has used so far; undefined when /proc cannot tell. */
export function cpuSeconds(pid: number | 'self'): number | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields after it start after the last ') '.
  const fields = text.slice(text.lastIndexOf(') ') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  return Number.isFinite(user) && Number.isFinite(system) ? (user + system) / TICKS_PER_S : undefined;
}
