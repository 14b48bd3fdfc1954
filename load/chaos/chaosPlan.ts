/**
 * A run's fault schedule (docs/chaos.md): `<at>:<action>:<target>[:<for>]`, from --chaos or the scenario's
 * `chaos` list, read and checked before anything starts. `at` is a duration from the start of measurement; the
 * actions are those of ChaosAction; the target is a node of the network by name (mn1, ln2) or a role it has at
 * that moment (leader, follower, any-mn, any-ln); `for` (kill, stop, pause) brings the node back that long after.
 */
import type { ChaosAction, ChaosStep } from '../model.js';
import { parseDuration } from '../scenario/parseDuration.js';

/** The actions a step may name (exec is --chaos-exec's, written `<at>:<command>`; delay is written delay=<d>[/<loss>%]). */
export const CHAOS_ACTIONS: readonly Exclude<ChaosAction, 'exec'>[] = ['kill', 'restart', 'stop', 'pause', 'resume', 'partition', 'delay', 'heal'];
/** Roles a step may name instead of a node: resolved when the step is due. */
export const CHAOS_ROLES = ['leader', 'follower', 'any-mn', 'any-ln'] as const;
export type ChaosRole = (typeof CHAOS_ROLES)[number];

/** The actions that take a node down, and the one that brings it back after their `for`. */
export const RETURN_OF: Readonly<Partial<Record<ChaosAction, ChaosAction>>> = { kill: 'restart', stop: 'restart', pause: 'resume', partition: 'heal', delay: 'heal' };

/** The pattern of one step (the scenario schema's ChaosStep pattern). */
export const CHAOS_STEP_PATTERN = '^\\s*[0-9]+(?:\\.[0-9]+)?(?:ms|s|m):(?:kill|restart|stop|pause|resume|partition|heal|delay=[0-9]+(?:\\.[0-9]+)?(?:ms|s)(?:/[0-9]+(?:\\.[0-9]+)?%)?):(?:leader|follower|any-mn|any-ln|mn[0-9]+|ln[0-9]+)(?::[0-9]+(?:\\.[0-9]+)?(?:ms|s|m))?\\s*$';

/** A step that does not read, or does not fit the run; its message says what is wrong and how it should read. */
export class ChaosPlanError extends Error {
  override readonly name = 'ChaosPlanError';
}

const FORM = '<at>:<action>:<target>[:<for>], e.g. "10s:kill:leader" or "5s:pause:ln1:3s"';

/** One step as written. */
export function parseChaosStep(raw: string): ChaosStep {
  const text = raw.trim();
  const parts = text.split(':');
  if (parts.length < 3 || parts.length > 4) throw new ChaosPlanError(`chaos step "${raw}" does not read as ${FORM}`);
  const [at = '', written = '', target = '', forText] = parts;
  const atMs = duration(raw, 'at', at);
  const { action, delay } = delayOf(raw, written);
  if (!(CHAOS_ACTIONS as readonly string[]).includes(action)) throw new ChaosPlanError(`chaos step "${raw}": unknown action "${action}" (${CHAOS_ACTIONS.join(', ')}; your own command: --chaos-exec <at>:<command>)`);
  const act = action as Exclude<ChaosAction, 'exec'>;
  if (!isRole(target) && !/^(mn|ln)[1-9][0-9]*$/.test(target)) throw new ChaosPlanError(`chaos step "${raw}": the target "${target}" is neither a node (mn1, ln2, ...) nor a role (${CHAOS_ROLES.join(', ')})`);
  let forMs: number | null = null;
  if (forText !== undefined) {
    if (RETURN_OF[act] === undefined) throw new ChaosPlanError(`chaos step "${raw}": ${act} takes no duration (only ${Object.keys(RETURN_OF).join(', ')} do: the node is brought back after it)`);
    forMs = duration(raw, 'for', forText);
    if (forMs <= 0) throw new ChaosPlanError(`chaos step "${raw}": the duration must be more than 0`);
  }
  if (act === 'heal' && isRole(target)) throw new ChaosPlanError(`chaos step "${raw}": heal a node by its name (mn1, ln2), or give the partition or delay a duration (its end heals it)`);
  if ((act === 'restart' || act === 'resume') && isRole(target) && target !== 'any-mn' && target !== 'any-ln') {
    throw new ChaosPlanError(`chaos step "${raw}": ${act} a node by its name (mn1, ln2): a node that is down has no role`);
  }
  return { text, atMs, action: act, target, forMs, ...(delay === undefined ? {} : delay) };
}

/** `delay=<d>[/<loss>%]` as the delay action and its figures; any other action as written. */
function delayOf(raw: string, written: string): { action: string; delay?: { delayMs: number; loss: number } } {
  if (!written.startsWith('delay')) return { action: written };
  const m = /^delay=([^/]+)(?:\/(\d+(?:\.\d+)?)%)?$/.exec(written);
  if (m === null) throw new ChaosPlanError(`chaos step "${raw}": write the delay as delay=<d>[/<loss>%], e.g. delay=200ms or delay=100ms/10%`);
  const delayMs = duration(raw, 'the delay', m[1] ?? '');
  const loss = m[2] === undefined ? 0 : Number(m[2]) / 100;
  if (delayMs > 60_000 || loss > 1) throw new ChaosPlanError(`chaos step "${raw}": a delay is at most 60 s and a loss at most 100%`);
  return { action: 'delay', delay: { delayMs, loss } };
}

/**
 * One --chaos-exec step: `<at>:<command>`, the user's own fault (`docker kill …`, `kubectl delete pod …`, a chaos
 * tool's CLI) run by the shell at `at`, against any network, with the same accounting as chainrpc's own faults.
 */
export function parseChaosExec(raw: string): ChaosStep {
  const colon = raw.indexOf(':');
  const at = colon === -1 ? '' : raw.slice(0, colon).trim();
  const command = colon === -1 ? '' : raw.slice(colon + 1).trim();
  if (colon === -1 || command === '') throw new ChaosPlanError(`--chaos-exec "${raw}" does not read as <at>:<command>, e.g. "10s:docker kill node2"`);
  const atMs = duration(raw, 'at', at);
  return { text: `${at}:${command}`, atMs, action: 'exec', target: '', forMs: null, command };
}

export function isRole(target: string): target is ChaosRole {
  return (CHAOS_ROLES as readonly string[]).includes(target);
}

function duration(raw: string, what: string, text: string): number {
  try {
    return parseDuration(text);
  } catch {
    throw new ChaosPlanError(`chaos step "${raw}": ${what} "${text}" is not a duration (500ms, 10s, 1m)`);
  }
}

/** The network a schedule is checked against: its nodes' names and kinds. */
export interface ChaosShape {
  nodes: readonly { name: string; kind: 'MN' | 'LN' }[];
}

/**
 * The steps in time order, checked against the network and the run: every named node exists, a role has nodes
 * to take it from, and every step (and its return) falls within the measured window.
 */
export function chaosPlan(texts: readonly string[], shape: ChaosShape, durationMs: number, execs: readonly string[] = []): ChaosStep[] {
  const steps = [...texts.map(parseChaosStep), ...execs.map(parseChaosExec)].sort((a, b) => a.atMs - b.atMs);
  const names = shape.nodes.map((n) => n.name);
  for (const s of steps) {
    if (s.action === 'exec') {
      if (s.atMs >= durationMs) throw new ChaosPlanError(`--chaos-exec "${s.text}" is due at ${s.atMs} ms, not within the run's ${durationMs} ms`);
      continue;
    }
    if (!isRole(s.target) && !names.includes(s.target)) throw new ChaosPlanError(`chaos step "${s.text}": the network has no node ${s.target} (it has ${names.join(', ')})`);
    if (s.target === 'any-ln' && !shape.nodes.some((n) => n.kind === 'LN')) throw new ChaosPlanError(`chaos step "${s.text}": the network has no LN`);
    if (s.target === 'follower' && shape.nodes.filter((n) => n.kind === 'MN').length < 2) throw new ChaosPlanError(`chaos step "${s.text}": a follower is an MN that does not lead, and the network has one MN`);
    const end = s.atMs + (s.forMs ?? 0);
    if (end >= durationMs) throw new ChaosPlanError(`chaos step "${s.text}" ${s.forMs === null ? 'is due' : 'ends'} at ${end} ms, not within the run's ${durationMs} ms: the recovery after it would not be measured`);
  }
  return steps;
}
