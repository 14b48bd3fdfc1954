/**
 * Runs a fault schedule beside the load (docs/chaos.md): each step at its time from the start of measurement, its
 * target resolved at that moment (the leader is the proposer of the latest block), the action done, and the node
 * brought back after the step's `for`. Every action is recorded with the moment it was done; one that could not be
 * done is recorded with why (the run goes on). Every fault is bounded: stop() cancels what is not yet due and
 * resumes a node left paused (a paused process would otherwise hold its ports and its peers' links).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { ChaosAction, ChaosEvent, ChaosStep } from '../model.js';
import { isRole, RETURN_OF } from './chaosPlan.js';
import type { ChaosNetwork } from './ChaosNetwork.js';
import type { ChainView } from './ChainView.js';

/** An action done: the event as far as the runner knows it (the chain's figures come after the run: chainAfterFaults.ts). */
export type ActedEvent = Pick<ChaosEvent, 'text' | 'action' | 'node' | 'atMs' | 'error' | 'exitCode' | 'output'>;

/** How long a user's command (--chaos-exec) may run before it is ended (SIGTERM, then SIGKILL). */
export const EXEC_LIMIT_MS = 60_000;
/** The end of its output kept in the report. */
const OUTPUT_KEPT = 2_000;

export interface ChaosRun {
  /** Cancels the steps not yet due, waits for the action under way, resumes paused nodes; resolves with every event. */
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

const epochNow = (): number => performance.timeOrigin + performance.now();

export function runChaos(o: RunChaosOptions): ChaosRun {
  const events: ActedEvent[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const paused = new Set<string>();
  let chainOfActions: Promise<void> = Promise.resolve();
  let stopped = false;

  const at = (ms: number, job: () => Promise<void>): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      // One action at a time, in the schedule's order (a restart waits for the node to serve).
      chainOfActions = chainOfActions.then(() => (stopped ? undefined : job()));
    }, Math.max(0, o.measureStartMs + ms - epochNow()));
    timers.add(timer);
  };

  const act = async (text: string, action: ChaosAction, node: string | null, why?: string, delay?: { delayMs: number; loss: number }): Promise<void> => {
    const atMs = Math.round(epochNow() - o.measureStartMs);
    if (node === null) {
      events.push({ text, action, node, atMs, error: why ?? 'no node could be chosen' });
      o.log?.(`chaos: ${atMs} ms: ${text}: not done: ${why ?? 'no node could be chosen'}`);
      return;
    }
    try {
      await o.network.act(action, node, delay);
      if (action === 'pause') paused.add(node);
      if (action === 'resume') paused.delete(node);
      events.push({ text, action, node, atMs });
      o.log?.(`chaos: ${atMs} ms: ${action} ${node}${text.endsWith('(end)') ? ' (end of the fault)' : ''}`);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      events.push({ text, action, node, atMs, error });
      o.log?.(`chaos: ${atMs} ms: ${action} ${node}: failed: ${error}`);
    }
  };

  const running = new Set<ChildProcess>();
  const exec = async (step: ChaosStep): Promise<void> => {
    const atMs = Math.round(epochNow() - o.measureStartMs);
    const r = await runCommand(step.command ?? '', running);
    const failed = r.error ?? (r.exitCode === 0 ? undefined : r.exitCode === null ? 'ended by a signal or its time limit' : `exited ${r.exitCode}`);
    events.push({ text: step.text, action: 'exec', node: null, atMs, exitCode: r.exitCode, output: r.output, ...(failed === undefined ? {} : { error: failed }) });
    o.log?.(`chaos: ${atMs} ms: exec ${JSON.stringify(step.command)}: ${failed ?? 'exited 0'}`);
  };

  for (const step of o.steps) {
    if (step.action === 'exec') {
      at(step.atMs, () => exec(step));
      continue;
    }
    at(step.atMs, async () => {
      const { node, why } = await resolveTarget(step, o.network, o.chain);
      await act(step.text, step.action, node, why, step.action === 'delay' ? { delayMs: step.delayMs ?? 0, loss: step.loss ?? 0 } : undefined);
      const back = RETURN_OF[step.action];
      if (step.forMs !== null && back !== undefined && node !== null) {
        const returnAt = step.atMs + step.forMs;
        at(returnAt, () => act(`${step.text} (end)`, back, node));
      }
    });
  }

  return {
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      // A user's command still running when the run ends is ended: every fault is bounded.
      for (const child of running) {
        endGroup(child, 'SIGTERM');
        setTimeout(() => endGroup(child, 'SIGKILL'), 2_000).unref();
      }
      await chainOfActions;
      for (const node of paused) await o.network.act('resume', node).catch(() => undefined);
      return events.sort((a, b) => a.atMs - b.atMs);
    },
  };
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

/** Runs `command` with the shell, bounded by EXEC_LIMIT_MS; its exit code and the end of its output. */
function runCommand(command: string, running: Set<ChildProcess>): Promise<{ exitCode: number | null; output: string; error?: string }> {
  return new Promise((resolve) => {
    let output = '';
    // A process group of its own: ending it ends what the shell started too (a `sleep` holds the output open).
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const limit = setTimeout(() => {
      endGroup(child, 'SIGTERM');
      setTimeout(() => endGroup(child, 'SIGKILL'), 2_000).unref();
    }, EXEC_LIMIT_MS);
    child.once('error', (err) => {
      clearTimeout(limit);
      running.delete(child);
      resolve({ exitCode: null, output, error: `could not run: ${err.message}` });
    });
    child.once('close', (code) => {
      clearTimeout(limit);
      running.delete(child);
      resolve({ exitCode: code, output: output.trimEnd() });
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
