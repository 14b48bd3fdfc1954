/**
 * Runs a fault schedule beside the load (docs/chaos.md): each step at its time from the start of measurement, its
 * target resolved at that moment (the leader is the proposer of the latest block), the action done, and the node
 * brought back after the step's `for`. Every planned step ends up in the events: done (with the moment it was),
 * failed (with why), or not done (with why: the run ended first); the run goes on either way. Every fault is
 * bounded: stop() cancels what is not yet due, ends the user's commands still running and resumes a node left
 * paused (a paused process would otherwise hold its ports and its peers' links).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { ChaosAction, ChaosEvent, ChaosStep } from '../model.js';
import { isRole, RETURN_OF } from './chaosPlan.js';
import type { ChaosNetwork } from './ChaosNetwork.js';
import type { ChainView } from './ChainView.js';
import { epochNow } from '../../core/epochNow.js';

/** An action done: the event as far as the runner knows it (the chain's figures come after the run: chainAfterFaults.ts). */
export type ActedEvent = Pick<ChaosEvent, 'text' | 'action' | 'node' | 'atMs' | 'error' | 'exitCode' | 'output'>;

/** How long a user's command (--chaos-exec) may run before it is ended (SIGTERM, then SIGKILL). */
export const EXEC_LIMIT_MS = 60_000;
/** The end of its output kept in the report. */
const OUTPUT_KEPT = 2_000;

export interface ChaosRun {
  /**
   * Cancels the steps not yet due, ends the commands still running, waits for the action under way, resumes
   * paused nodes; resolves with every planned step as an event, those not done with why.
   */
  stop(): Promise<ActedEvent[]>;
}

export interface RunChaosOptions {
  steps: readonly ChaosStep[];
  network: ChaosNetwork;
  chain: ChainView;
  /** Epoch ms of the start of measurement (t = 0 of every step). */
  measureStartMs: number;
  log?: (line: string) => void;
}


/** A step as planned: what the event of one not done says (its node when the step names one). */
type Planned = Pick<ActedEvent, 'text' | 'action' | 'node' | 'atMs'>;

export function runChaos(o: RunChaosOptions): ChaosRun {
  const events: ActedEvent[] = [];
  const notDone = (p: Planned, why: string): void => {
    events.push({ ...p, error: why });
    o.log?.(`chaos: ${p.atMs} ms: ${p.text}: not done: ${why}`);
  };
  const schedule = scheduler(o.measureStartMs, notDone);
  const paused = new Set<string>();
  const act = actor(o, events, paused);
  const commands = new Set<Command>();

  for (const step of o.steps) {
    const planned: Planned = { text: step.text, action: step.action, node: step.action === 'exec' || isRole(step.target) ? null : step.target, atMs: step.atMs };
    if (step.action === 'exec') {
      schedule.at(planned, () => exec(o, step, commands, events), { alone: false });
      continue;
    }
    schedule.at(planned, async () => {
      const { node, why } = await resolveTarget(step, o.network, o.chain);
      await act(step.text, step.action, node, why, step.action === 'delay' ? { delayMs: step.delayMs ?? 0, loss: step.loss ?? 0 } : undefined);
      const back = RETURN_OF[step.action];
      if (step.forMs !== null && back !== undefined && node !== null) {
        const text = `${step.text} (end)`;
        schedule.at({ text, action: back, node, atMs: step.atMs + step.forMs }, () => act(text, back, node));
      }
    });
  }

  return {
    async stop() {
      // A user's command still running when the run ends is ended: every fault is bounded.
      for (const c of commands) c.end('still running at the end of the run');
      await schedule.stop();
      for (const node of paused) await o.network.act('resume', node).catch(() => undefined);
      return events.sort((a, b) => a.atMs - b.atMs);
    },
  };
}

/**
 * Runs jobs at their planned times. chainrpc's own actions run one at a time, in time order: a restart waits
 * until the node serves, and the next step's role (the leader, a node that is up) is resolved on the network as
 * the step before left it; one that falls due meanwhile runs when that one is done, at the moment it is recorded
 * with. A user's command does not wait for them, nor they for it (`alone: false`): it runs at its time, beside any
 * still running (chainrpc cannot know what it does, and a fault planned at 4 s happens at 4 s). stop() records
 * every step that did not run: not yet due, or waiting behind an action still under way when the run ended.
 */
function scheduler(measureStartMs: number, notDone: (p: Planned, why: string) => void): { at: (p: Planned, job: () => Promise<void>, how?: { alone: boolean }) => void; stop: () => Promise<void> } {
  const timers = new Map<NodeJS.Timeout, Planned>();
  const beside = new Set<Promise<void>>();
  let chainOfActions: Promise<void> = Promise.resolve();
  let underWay: string | undefined;
  let stopped = false;
  // The action under way when the run ended: the steps waiting behind it say so.
  let heldBy: string | undefined;
  const inTurn = (p: Planned, job: () => Promise<void>): Promise<void> =>
    chainOfActions.then(async () => {
      if (stopped) return notDone(p, heldBy === undefined ? 'the run ended as it fell due' : `it fell due while \`${heldBy}\` was under way (chainrpc's actions run one at a time), still so at the end of the run`);
      underWay = p.text;
      try {
        await job();
      } finally {
        underWay = undefined;
      }
    });
  return {
    at(p, job, how = { alone: true }) {
      // The return of a fault done while the run was ending: not due before the end.
      if (stopped) return notDone(p, 'the run ended before it was due');
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (how.alone) chainOfActions = inTurn(p, job);
        else {
          const running = job().finally(() => beside.delete(running));
          beside.add(running);
        }
      }, Math.max(0, measureStartMs + p.atMs - epochNow()));
      timers.set(timer, p);
    },
    async stop() {
      stopped = true;
      heldBy = underWay;
      for (const [timer, p] of timers) {
        clearTimeout(timer);
        notDone(p, 'the run ended before it was due');
      }
      timers.clear();
      await Promise.all([chainOfActions, ...beside]);
    },
  };
}

/**
 * Faults that last until their return (a partition or delay until its heal, a pause until its resume), and the
 * actions that end them first. A reference node starts with its peer gate open (reference-node/devnet/startDevnet.ts):
 * a restart ends its partition, and chainrpc cannot close the gate before the node talks to its peers (it would
 * re-apply it only once the node serves, after it may have synced: a partition with a hole in it). A kill, stop or
 * restart ends a pause: the process is gone, or new. So the action is said to end the fault, and the return planned
 * later is not done, with why: its catch-up would measure a node back for seconds. Until 2026-11-29 the report said
 * such a partition held until the heal (an outside tester's ln1 followed the chain from 6.5 s while "partitioned"
 * until 12 s), and a resume after a kill was reported done.
 */
interface Lasting {
  /** The actions that set the fault, the one that returns from it, and those that end it before. */
  sets: readonly ChaosAction[];
  returnedBy: ChaosAction;
  endedBy: readonly ChaosAction[];
  /** The log's words when an action ends the fault set by `step`. */
  endsNote: (step: string) => string;
  /** Why its return is not done: `ended` ended it before. */
  notDone: (node: string, ended: { step: string; action: ChaosAction; atMs: number }) => string;
}

const LASTING: readonly Lasting[] = [
  {
    sets: ['partition', 'delay'],
    returnedBy: 'heal',
    endedBy: ['restart'],
    endsNote: (step) => `; it starts with its peer links open, which ends \`${step}\``,
    notDone: (node, ended) =>
      `${node}'s peer links were open again since its restart at ${ended.atMs} ms, which ended \`${ended.step}\` (a reference node starts with its peer gate open; chainrpc cannot keep a partition across a restart): the drill planned was not carried out`,
  },
  {
    sets: ['pause'],
    returnedBy: 'resume',
    endedBy: ['kill', 'stop', 'restart'],
    endsNote: (step) => `; which ends \`${step}\``,
    notDone: (node, ended) => `${node} was no longer paused since the ${ended.action} at ${ended.atMs} ms, which ended \`${ended.step}\`: the drill planned was not carried out`,
  },
];

/** Per lasting fault, per node: the step in force, and the one an action ended (with that action and its moment). */
type InForce = { kind: Lasting; set: Map<string, string>; ended: Map<string, { step: string; action: ChaosAction; atMs: number }> }[];

/** What an action done does to the lasting faults the runner knows; the log's words when it ended one. */
function faultsAfter(inForce: InForce, action: ChaosAction, node: string, text: string, atMs: number): string {
  let note = '';
  for (const { kind, set, ended } of inForce) {
    if (kind.sets.includes(action)) {
      set.set(node, text);
      ended.delete(node);
    }
    if (action === kind.returnedBy) set.delete(node);
    const step = set.get(node);
    if (!kind.endedBy.includes(action) || step === undefined) continue;
    set.delete(node);
    ended.set(node, { step, action, atMs });
    note += kind.endsNote(step);
  }
  return note;
}

/** Why a return (heal, resume) is not done: the fault it ends was already ended by another action. */
function returnedBefore(inForce: InForce, action: ChaosAction, node: string): string | undefined {
  for (const { kind, set, ended } of inForce) {
    const by = ended.get(node);
    if (action === kind.returnedBy && !set.has(node) && by !== undefined) return kind.notDone(node, by);
  }
  return undefined;
}

/** Does an action of chainrpc's own on a node and records it, done or failed with why. */
function actor(o: RunChaosOptions, events: ActedEvent[], paused: Set<string>): (text: string, action: ChaosAction, node: string | null, why?: string, delay?: { delayMs: number; loss: number }) => Promise<void> {
  const inForce: InForce = LASTING.map((kind) => ({ kind, set: new Map(), ended: new Map() }));
  return async (text, action, node, why, delay) => {
    const atMs = Math.round(epochNow() - o.measureStartMs);
    const notDone = node === null ? (why ?? 'no node could be chosen') : returnedBefore(inForce, action, node);
    if (node === null || notDone !== undefined) {
      const error = notDone ?? 'no node could be chosen';
      events.push({ text, action, node, atMs, error });
      o.log?.(`chaos: ${atMs} ms: ${text}: not done: ${error}`);
      return;
    }
    try {
      await o.network.act(action, node, delay);
      if (action === 'pause') paused.add(node);
      if (action === 'resume' || action === 'kill' || action === 'stop' || action === 'restart') paused.delete(node);
      events.push({ text, action, node, atMs });
      o.log?.(`chaos: ${atMs} ms: ${action} ${node}${text.endsWith('(end)') ? ' (end of the fault)' : ''}${faultsAfter(inForce, action, node, text, atMs)}`);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      events.push({ text, action, node, atMs, error });
      o.log?.(`chaos: ${atMs} ms: ${action} ${node}: failed: ${error}`);
    }
  };
}

/** A user's command, recorded with its exit code and output; one that did not exit 0 is not done, with why. */
async function exec(o: RunChaosOptions, step: ChaosStep, commands: Set<Command>, events: ActedEvent[]): Promise<void> {
  const atMs = Math.round(epochNow() - o.measureStartMs);
  const r = await runCommand(step.command ?? '', commands);
  const failed = r.error ?? (r.exitCode === 0 ? undefined : `exited ${String(r.exitCode)}`);
  events.push({ text: step.text, action: 'exec', node: null, atMs, exitCode: r.exitCode, output: r.output, ...(failed === undefined ? {} : { error: failed }) });
  o.log?.(`chaos: ${atMs} ms: exec ${JSON.stringify(step.command)}: ${failed ?? 'exited 0'}`);
}

/** The node a step acts on now: by name, or by the role it has at this moment. */
async function resolveTarget(step: ChaosStep, network: ChaosNetwork, chain: ChainView): Promise<{ node: string | null; why?: string }> {
  if (!isRole(step.target)) return { node: step.target };
  const wantsDown = step.action === 'restart' || step.action === 'resume' || step.action === 'heal';
  const of = (kind: 'MN' | 'LN'): string | null => network.nodes.find((n) => n.kind === kind && network.isUp(n.name) !== wantsDown)?.name ?? null;
  switch (step.target) {
    case 'any-mn':
      return { node: of('MN'), why: `no MN is ${wantsDown ? 'down' : 'up'}` };
    case 'any-ln':
      return { node: of('LN'), why: `no LN is ${wantsDown ? 'down' : 'up'}` };
    case 'leader': {
      const leader = await chain.leader();
      return leader === undefined ? { node: null, why: 'no running node served a block whose proposer is one of the network\'s MNs' } : { node: leader };
    }
    case 'follower': {
      const leader = await chain.leader();
      const follower = network.nodes.find((n) => n.kind === 'MN' && n.name !== leader && network.isUp(n.name));
      return follower === undefined ? { node: null, why: 'no MN other than the leader is up' } : { node: follower.name };
    }
  }
}

/** A user's command under way, and how to end it (`why` is said in its event). */
interface Command {
  end(why: string): void;
}

/** Runs `command` with the shell, bounded by EXEC_LIMIT_MS; its exit code (null: ended by a signal), the end of its output, and why it was ended. */
function runCommand(command: string, running: Set<Command>): Promise<{ exitCode: number | null; output: string; error?: string }> {
  return new Promise((resolve) => {
    let output = '';
    let endedWhy: string | undefined;
    // A process group of its own: ending it ends what the shell started too (a `sleep` holds the output open).
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const handle: Command = {
      end(why) {
        endedWhy ??= why;
        endGroup(child, 'SIGTERM');
        setTimeout(() => endGroup(child, 'SIGKILL'), 2_000).unref();
      },
    };
    running.add(handle);
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const limit = setTimeout(() => handle.end(`still running after its limit of ${EXEC_LIMIT_MS / 1_000} s`), EXEC_LIMIT_MS);
    child.once('error', (err) => {
      clearTimeout(limit);
      running.delete(handle);
      resolve({ exitCode: null, output, error: `could not run: ${err.message}` });
    });
    child.once('close', (code, signal) => {
      clearTimeout(limit);
      running.delete(handle);
      const error = endedWhy !== undefined ? `${endedWhy}: ended` : code === null ? `ended by ${signal ?? 'a signal'}` : undefined;
      resolve({ exitCode: code, output: output.trimEnd(), ...(error === undefined ? {} : { error }) });
    });
  });
}

/** Signals the command's whole process group (it leads one: `detached`); a group already gone is nothing to end. */
function endGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already ended.
  }
}
