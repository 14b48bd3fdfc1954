/**
 * `chainrpc load <scenario> --devnet <mn>:<ln> [--chaos ...]`: a devnet started for the run (as the demo starts
 * one), its nodes loaded together, the fault schedule acting on its processes, and the devnet stopped at the end
 * (also on Ctrl-C and on failure; its nodes stop by themselves if this process dies). The composition root of a
 * run with faults: load/ knows the network only as a ChaosNetwork, reference-node/ knows nothing of load.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from '../../CliError.js';
import { startedByChainrpc } from './healthOptions.js';
import { chaosPlan, ChaosPlanError } from '../../../load/chaos/chaosPlan.js';
import type { ChaosNetwork } from '../../../load/chaos/ChaosNetwork.js';
import type { ChaosAction, ChaosStep } from '../../../load/model.js';
import { startDevnet, type Devnet } from '../../../reference-node/devnet/startDevnet.js';
import { OPEN_GATE, type PeerGateState } from '../../../reference-node/p2p/PeerGate.js';

/** `--devnet <mn>:<ln>`: the devnet's shape. */
export function devnetShape(command: string, text: string): { mn: number; ln: number } {
  const m = /^(\d{1,2}):(\d{1,2})$/.exec(text.trim());
  const mn = Number(m?.[1]);
  const ln = Number(m?.[2]);
  if (m === null || mn < 1 || mn > 9 || ln > 9) throw new CliError(`${command}: --devnet ${text}: write <mn>:<ln>, from 1 to 9 MN and 0 to 9 LN (e.g. 3:2)`);
  return { mn, ln };
}

/** The schedule checked against the devnet's nodes and the run (exit 2 before anything starts). */
export function chaosSteps(command: string, texts: readonly string[], shape: { mn: number; ln: number }, durationMs: number, execs: readonly string[] = []): ChaosStep[] {
  const nodes = [...Array.from({ length: shape.mn }, (_, i) => ({ name: `mn${i + 1}`, kind: 'MN' as const })), ...Array.from({ length: shape.ln }, (_, i) => ({ name: `ln${i + 1}`, kind: 'LN' as const }))];
  try {
    return chaosPlan(texts, { nodes }, durationMs, execs);
  } catch (err) {
    if (err instanceof ChaosPlanError) throw new CliError(`${command}: ${err.message.startsWith('--chaos-exec') ? '' : '--chaos: '}${err.message}`);
    throw err;
  }
}

/** --chaos-exec steps alone, against nodes chainrpc did not start (exit 2 before anything is sent). */
export function execSteps(command: string, execs: readonly string[], durationMs: number): ChaosStep[] {
  try {
    return chaosPlan([], { nodes: [] }, durationMs, execs);
  } catch (err) {
    if (err instanceof ChaosPlanError) throw new CliError(`${command}: ${err.message}`);
    throw err;
  }
}

/** Starts the devnet of a run (exit 3 when it cannot start: nothing to load). */
export async function startRunDevnet(command: string, shape: { mn: number; ln: number }, blockTimeMs: number, log: (line: string) => void): Promise<Devnet> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chainrpc-load-devnet-'));
  log(`${command}: starting a devnet of ${shape.mn} MN + ${shape.ln} LN (block time ${blockTimeMs} ms; data and node logs in ${dataDir})`);
  try {
    const net = await startDevnet({ mn: shape.mn, ln: shape.ln, blockTimeMs, chainId: 1n, dataDir, keepData: false });
    for (const n of net.nodes) log(`  ${n.name}  ${n.kind}  ${n.url}  pid ${n.pid}`);
    // Its nodes' processes are read as --pid's are, each known to serve its URL: not a pairing by position to warn of.
    startedByChainrpc(net.nodes.map((n) => n.pid));
    log(`${command}: each node's process is read from /proc through the run (its CPU per call and memory; a restarted node's new process followed)`);
    return net;
  } catch (err) {
    throw new CliError(`${command}: the devnet did not start: ${err instanceof Error ? err.message : String(err)} (node logs in ${dataDir})`, 'target', { cause: err });
  }
}

/** The devnet as the chaos runner acts on it. */
export function devnetNetwork(net: Devnet): ChaosNetwork {
  const byId = new Map(net.nodes.flatMap((n) => (n.id === undefined ? [] : [[n.id.toLowerCase(), n.name] as const])));
  const gate = (name: string, state: PeerGateState): Promise<void> => Promise.resolve().then(() => net.gate(name, state));
  const actions: Record<Exclude<ChaosAction, 'exec' | 'delay'>, (name: string) => Promise<void>> = {
    kill: (name) => net.kill(name),
    stop: (name) => net.stopNode(name),
    restart: (name) => net.restart(name),
    pause: (name) => Promise.resolve().then(() => net.pause(name)),
    resume: (name) => Promise.resolve().then(() => net.resume(name)),
    partition: (name) => gate(name, { ...OPEN_GATE, partitioned: true }),
    heal: (name) => gate(name, { ...OPEN_GATE }),
  };
  return {
    nodes: net.nodes.map((n) => ({ name: n.name, kind: n.kind, url: n.url })),
    isUp: (name) => net.running(name) && net.nodes.find((n) => n.name === name)?.paused !== true,
    nameOfProposer: (proposer) => byId.get(proposer.toLowerCase()),
    pidOf: (name) => net.nodes.find((n) => n.name === name)?.pid,
    act: (action, name, delay) => {
      if (action === 'exec') return Promise.reject(new Error('an exec step runs its command, not an action on a node'));
      if (action === 'delay') return gate(name, { ...OPEN_GATE, delayMs: delay?.delayMs ?? 0, loss: delay?.loss ?? 0 });
      return actions[action](name);
    },
  };
}
