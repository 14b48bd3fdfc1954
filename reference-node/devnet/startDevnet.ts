import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createClient } from '../../core/client/index.js';
import type { RpcClient } from '../../core/client/index.js';
import { packageRoot } from '../../core/paths.js';
import { FaultSet } from '../faults/faultCatalogue.js';
import { formatNetworkGenesis, GENESIS_FILE, networkGenesis, readNetworkGenesis, writeNetworkGenesis } from '../node/NetworkGenesis.js';
import { loadOrCreateIdentity } from '../node/NodeIdentity.js';
import { NotOursError } from '../../core/files/ownedFolder.js';
import { claimDevnetDataDir, claimDevnetNodeFolder, DataDirInUseError } from './devnetDataDir.js';
import type { DevnetDataDirLock } from './devnetDataDir.js';
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
import { OPEN_GATE, type PeerGateState } from '../p2p/PeerGate.js';
import { PARENT_PID_ENV } from '../../core/process/parentPid.js';

export interface DevnetOptions {
  mn: number;
  ln: number;
  blockTimeMs: number;
  chainId: bigint;
  dataDir: string;
  /** Keep the data dir of a previous run (resume its chain) instead of starting fresh. */
  keepData: boolean;
  /** Extra arguments for every `chainrpc node` (limits, faucet settings). */
  nodeArgs?: string[];
  /** How long to wait for every node to see every other. */
  readyTimeoutMs?: number;
  log?: (line: string) => void;
  /**
   * Fault injection, TEST-ONLY (docs/faults.md): fault names for every node (`all`) and for nodes
   * by name (`byNode`, e.g. { ln1: ['no-relay'] }); a node gets the union. Unknown fault or node
   * names are refused before any process starts.
   */
  faults?: { all?: readonly string[]; byNode?: Readonly<Record<string, readonly string[]>> };
  /**
   * Stops the start: every node started or starting is stopped (as stop() does) and startDevnet rejects with
   * DevnetStartStopped. A devnet told to stop while it starts (SIGTERM, Ctrl-C) leaves nothing running.
   */
  signal?: AbortSignal;
  /** Each node's process, as soon as it is spawned (before it serves): what a second Ctrl-C must kill. */
  onSpawn?: (name: string, child: ChildProcess) => void;
}

export interface DevnetNode {
  name: string;
  kind: 'MN' | 'LN';
  /** The faults this node runs with (TEST-ONLY); empty for an honest node. */
  faults: string[];
  /** Its JSON-RPC base URL. */
  url: string;
  /** Its peer (p2p) base URL. */
  p2pUrl: string;
  pid: number;
  dataDir: string;
  logFile: string;
  process: ChildProcess;
  /** An MN's id (its address): the proposer its blocks show. */
  id?: string;
  /** Paused (SIGSTOP) by pause(), until resume(). */
  paused: boolean;
}

export interface Devnet {
  nodes: DevnetNode[];
  /** The network's genesis file (chain id, members: the MNs' ids). */
  genesisFile: string;
  /** SIGTERM to every node still running, SIGKILL after a grace period; resolves when all have exited. */
  stop(): Promise<void>;
  /**
   * The faults of a run with faults (docs/chaos.md), on one node by name: kill (SIGKILL), stopNode (SIGTERM, SIGKILL
   * after 5 s), each resolving once it has exited; restart (start it again on its data, on the same ports, its
   * peers the nodes running now), resolving once it serves; pause (SIGSTOP) and resume (SIGCONT).
   */
  kill(name: string): Promise<void>;
  stopNode(name: string): Promise<void>;
  restart(name: string): Promise<void>;
  pause(name: string): void;
  resume(name: string): void;
  /** Sets the node's peer gate (p2p/PeerGate.ts): cut, slowed, or open again (OPEN_GATE). */
  gate(name: string, state: PeerGateState): void;
  /** Whether the node's process runs (paused or not). */
  running(name: string): boolean;
}

/** Each node's peer gate file, in its folder (chainrpc node --p2p-control). */
const PEER_GATE_FILE = 'p2p-control.json';

/** The compiled CLI every node process runs (npm run build makes it). */
export const CLI_PATH = join(packageRoot, 'dist', 'cli', 'chainrpc.js');

/** Whether a process has neither exited nor been ended by a signal. */
const runs = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null;
/** Whether a node's process has neither exited nor been ended by a signal. */
const running = (n: DevnetNode): boolean => runs(n.process);


function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

/**
 * Starts one `chainrpc node` process and resolves with its JSON-RPC and peer URLs, the two lines it prints.
 * The node stops by itself when this process exits (--on-parent-exit stop), even when that is before the node
 * has loaded (PARENT_PID_ENV). It runs in a process group of its own, so a terminal's Ctrl-C (SIGINT to the whole
 * foreground group) reaches this process only, which then stops the node once, cleanly; `onSpawn` is given the
 * process as soon as it exists.
 */
export function spawnNode(args: string[], logFile: string, options: { timeoutMs?: number; onSpawn?: (child: ChildProcess) => void } = {}): Promise<{ url: string; p2pUrl: string; process: ChildProcess }> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: run npm run build first`);
  // A node started here never outlives this process: killed outright, it leaves no node holding its ports.
  // Its log goes straight to the file (not through this process), so it is whole even when this process dies.
  const log = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [CLI_PATH, 'node', '--on-parent-exit', 'stop', ...args], {
      stdio: ['ignore', 'pipe', log],
      env: { ...process.env, [PARENT_PID_ENV]: String(process.pid) },
      // Its own process group (and session, as Node makes it on POSIX): a terminal's signals reach this process only.
      // (On Windows detached would give it a console window of its own, and there is no process group to leave.)
      detached: process.platform !== 'win32',
    });
  } finally {
    closeSync(log);
  }
  options.onSpawn?.(child);
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node did not print its URL within ${timeoutMs} ms (log: ${logFile})`));
    }, timeoutMs);
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const printed: string[] = [];
    lines.on('line', (line) => {
      printed.push(line.trim());
      if (printed.length !== 2) return;
      clearTimeout(timer);
      resolvePromise({ url: printed[0] ?? '', p2pUrl: printed[1] ?? '', process: child });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`node exited (code ${String(code)}, signal ${String(signal)}) before serving; see ${logFile}`));
    });
  });
}

/**
 * A devnet that cannot start as asked, thrown before any process starts: faults assigned to a node it does
 * not have, a data dir that holds another network, or one that holds files a devnet did not make.
 */
export class DevnetPlanError extends ChainrpcError {
  override readonly name = 'DevnetPlanError';
  readonly kind = 'usage';
}

/** startDevnet told to stop (its signal) before the devnet formed: every node it started, or was starting, has exited. */
export class DevnetStartStopped extends ChainrpcError {
  override readonly name = 'DevnetStartStopped';
  readonly kind = 'interrupted';
}

/**
 * A devnet: `mn` MN and `ln` LN nodes, each a separate `chainrpc node` process with a JSON-RPC and a
 * peer port on loopback. The MNs' keys are made first and named as the members in the network's
 * genesis (genesis.json in the data dir), which every node is given. The first MN starts alone;
 * every other node is given its peer URL and learns the rest from the members. Resolves once every
 * node lists every other as a live peer.
 */
export async function startDevnet(options: DevnetOptions): Promise<Devnet> {
  const plan = [
    ...Array.from({ length: options.mn }, (_, i) => ({ name: `mn${i + 1}`, kind: 'MN' as const })),
    ...Array.from({ length: options.ln }, (_, i) => ({ name: `ln${i + 1}`, kind: 'LN' as const })),
  ].map((n) => ({ ...n, faults: devnetFaults(options.faults, n.name) }));
  const unknownNodes = Object.keys(options.faults?.byNode ?? {}).filter((name) => !plan.some((n) => n.name === name));
  if (unknownNodes.length > 0) throw new DevnetPlanError(`--fault: a fault names no node of this devnet: ${unknownNodes.join(', ')} (nodes: ${plan.map((n) => n.name).join(', ')})`);
  const dataDir = resolve(options.dataDir);
  // chainrpc removes only what it made: a fresh start empties only a folder a devnet made, and none that a running
  // devnet or node uses (devnetDataDir.ts). The devnet holds the folder's lock until it stops.
  let lock: DevnetDataDirLock | undefined;
  try {
    lock = await claimDevnetDataDir(dataDir, options.keepData);
    for (const n of plan) claimDevnetNodeFolder(join(dataDir, n.name));
  } catch (err) {
    lock?.release();
    if (err instanceof NotOursError || err instanceof DataDirInUseError) throw new DevnetPlanError(err.message, { cause: err });
    throw err;
  }
  try {
    return await startNodes(options, plan, dataDir, lock);
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** startDevnet once its data dir is claimed and locked: the genesis, then each node; stop() releases the lock. */
async function startNodes(options: DevnetOptions, plan: readonly { name: string; kind: 'MN' | 'LN'; faults: string[] }[], dataDir: string, lock: DevnetDataDirLock): Promise<Devnet> {
  const { signal } = options;
  const genesisFile = join(dataDir, GENESIS_FILE);
  // The MNs' identities first: they are the network's members. A kept devnet keeps its keys and genesis.
  const members = plan.filter((n) => n.kind === 'MN').map((n) => loadOrCreateIdentity(join(dataDir, n.name)).id);
  const genesis = networkGenesis(options.chainId, members, options.blockTimeMs);
  if (existsSync(genesisFile)) {
    const kept = readNetworkGenesis(genesisFile);
    // A genesis kept from before block times were written (chainrpc-genesis/1) is the same network when the rest is.
    const same = formatNetworkGenesis(kept.blockTimeMs === undefined ? { ...kept, blockTimeMs: options.blockTimeMs } : kept) === formatNetworkGenesis(genesis);
    if (!same) {
      const blockTime = kept.blockTimeMs === undefined ? 'no block time' : `block time ${kept.blockTimeMs} ms`;
      throw new DevnetPlanError(`${dataDir} holds another network (${genesisFile}: chain id ${kept.chainId}, ${blockTime}, ${kept.members.length} members); start it as it was, or without --keep-data for a new one`);
    }
  } else {
    writeNetworkGenesis(genesisFile, genesis);
  }
  const nodes: DevnetNode[] = [];
  const argsOf = new Map<string, string[]>();
  // A node still starting (spawned, not yet serving) is stopped too.
  let starting: ChildProcess | undefined;
  const stop = async (): Promise<void> => {
    for (const n of nodes) if (n.paused && running(n)) n.process.kill('SIGCONT');
    const children = [...nodes.map((n) => n.process), ...(starting === undefined ? [] : [starting])];
    for (const c of children) if (runs(c)) c.kill('SIGTERM');
    const grace = setTimeout(() => {
      for (const c of children) if (runs(c)) c.kill('SIGKILL');
    }, 5_000);
    await Promise.all(children.map((c) => exited(c)));
    clearTimeout(grace);
    lock.release();
  };
  // Rejects once the start is told to stop; raced against each wait below.
  const told = new Promise<never>((_, reject) => {
    const tell = (): void => reject(new DevnetStartStopped('the devnet was told to stop while it started'));
    if (signal?.aborted === true) tell();
    else signal?.addEventListener('abort', tell, { once: true });
  });
  told.catch(() => undefined);
  const unlessTold = <T>(work: Promise<T>): Promise<T> => {
    work.catch(() => undefined);
    return Promise.race([work, told]);
  };
  try {
    for (const { name, kind, faults } of plan) {
      if (signal?.aborted === true) await told;
      const nodeDir = join(dataDir, name);
      mkdirSync(nodeDir, { recursive: true });
      const logFile = join(nodeDir, 'node.log');
      const first = nodes[0];
      const args = [
        '--kind', kind, '--port', '0', '--p2p-port', '0', '--data-dir', nodeDir, '--genesis', genesisFile,
        '--block-time', String(options.blockTimeMs),
        // The peer gate a run with faults drives (partition, delay: docs/chaos.md); open until then.
        '--p2p-control', join(nodeDir, PEER_GATE_FILE),
        ...(first ? ['--peers', first.p2pUrl] : []),
        ...(faults.length > 0 ? ['--fault', faults.join(',')] : []),
        ...(options.nodeArgs ?? []),
      ];
      const { url, p2pUrl, process: child } = await unlessTold(spawnNode(args, logFile, {
        onSpawn: (c) => {
          starting = c;
          options.onSpawn?.(name, c);
        },
      }));
      starting = undefined;
      if (child.pid === undefined) throw new Error(`${name} has no pid`);
      argsOf.set(name, args);
      const id = kind === 'MN' ? loadOrCreateIdentity(nodeDir).id : undefined;
      nodes.push({ name, kind, faults, url, p2pUrl, pid: child.pid, dataDir: nodeDir, logFile, process: child, paused: false, ...(id === undefined ? {} : { id }) });
      options.log?.(`${name} ${kind} ${url} pid ${child.pid}${faults.length > 0 ? ` FAULTS (test-only): ${faults.join(', ')}` : ''}`);
    }
    await unlessTold(waitForMesh(nodes, options.readyTimeoutMs ?? 30_000, signal));
    writeFileSync(join(dataDir, 'devnet.json'), JSON.stringify(nodes.map(({ name, kind, faults, url, p2pUrl, pid, dataDir: d, logFile }) => ({ name, kind, url, p2pUrl, pid, dataDir: d, logFile, ...(faults.length > 0 ? { faults } : {}) })), null, 2) + '\n');
  } catch (err) {
    await stop();
    throw err;
  }
  return { nodes, genesisFile, stop, ...nodeControls(nodes, argsOf) };
}

/**
 * The faults a run may do to the devnet's nodes (docs/chaos.md), by name: kill and stop (resolving once the
 * process has exited), restart (its arguments again, on the same ports, its peers the nodes that run now),
 * pause and resume.
 */
function nodeControls(nodes: DevnetNode[], argsOf: ReadonlyMap<string, string[]>): Omit<Devnet, 'nodes' | 'genesisFile' | 'stop'> {
  const nodeNamed = (name: string): DevnetNode => {
    const n = nodes.find((x) => x.name === name);
    if (n === undefined) throw new Error(`the devnet has no node ${name}`);
    return n;
  };
  const ended = async (n: DevnetNode, signal: NodeJS.Signals): Promise<void> => {
    if (!running(n)) throw new Error(`${n.name} is not running`);
    if (n.paused && signal === 'SIGKILL') {
      // SIGKILL ends a stopped process as it is: continued first, a paused node answered the calls it held for a
      // moment before it died (an outside tester's clients saw a success inside a kill).
      n.process.kill(signal);
      n.paused = false;
    } else if (n.paused) {
      // A stopped process takes SIGTERM only once it runs again.
      n.process.kill('SIGCONT');
      n.paused = false;
      n.process.kill(signal);
    } else {
      n.process.kill(signal);
    }
    const grace = signal === 'SIGKILL' ? undefined : setTimeout(() => n.process.kill('SIGKILL'), 5_000);
    await exited(n.process);
    clearTimeout(grace);
  };
  const restart = async (name: string): Promise<void> => {
    const n = nodeNamed(name);
    if (running(n)) throw new Error(`${name} is running (pid ${n.pid}): stop or kill it first`);
    // A node starts with its gate open; the file says so too, for the next SIGUSR2.
    writeFileSync(join(n.dataDir, PEER_GATE_FILE), JSON.stringify(OPEN_GATE));
    const first = argsOf.get(name) ?? [];
    // The same ports (its URL is what the load and its peers know), and as peers the nodes that run now.
    const port = new URL(n.url).port;
    const p2pPort = new URL(n.p2pUrl).port;
    const peers = nodes.filter((x) => x !== n && running(x)).map((x) => x.p2pUrl);
    const args = withOption(withOption(withOption(first, '--port', port), '--p2p-port', p2pPort), '--peers', peers.length > 0 ? peers.join(',') : undefined);
    const { process: child } = await spawnNode(args, n.logFile);
    if (child.pid === undefined) throw new Error(`${name} has no pid`);
    n.process = child;
    n.pid = child.pid;
    n.paused = false;
  };
  const signalled = (name: string, signal: NodeJS.Signals, paused: boolean): void => {
    const n = nodeNamed(name);
    if (!running(n)) throw new Error(`${name} is not running`);
    n.process.kill(signal);
    n.paused = paused;
  };
  return {
    kill: (name) => ended(nodeNamed(name), 'SIGKILL'),
    stopNode: (name) => ended(nodeNamed(name), 'SIGTERM'),
    restart,
    pause: (name) => signalled(name, 'SIGSTOP', true),
    resume: (name) => signalled(name, 'SIGCONT', false),
    running: (name) => running(nodeNamed(name)),
    gate: (name, state) => {
      const n = nodeNamed(name);
      if (!running(n)) throw new Error(`${name} is not running`);
      // Written whole, then the node is told to read it (SIGUSR2).
      const file = join(n.dataDir, PEER_GATE_FILE);
      writeFileSync(`${file}.tmp`, JSON.stringify(state));
      renameSync(`${file}.tmp`, file);
      n.process.kill('SIGUSR2');
    },
  };
}

/** `args` with `option`'s value set to `value` (added when absent; removed when `value` is undefined). */
function withOption(args: readonly string[], option: string, value: string | undefined): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === option) {
      i++;
      continue;
    }
    out.push(args[i] ?? '');
  }
  return value === undefined ? out : [...out, option, value];
}

/**
 * net_peerCount read leniently (any id, jsonrpc member or not, HTTP status aside), so that a node
 * with a transport fault (TEST-ONLY) still joins; -1 when there is no numeric result.
 */
async function peerCount(client: RpcClient): Promise<number> {
  try {
    const answer = await client.raw({ body: '{"jsonrpc":"2.0","id":1,"method":"net_peerCount","params":[]}', headers: { 'content-type': 'application/json' } });
    const value = Array.isArray(answer.json) ? answer.json[0] : answer.json;
    const result = typeof value === 'object' && value !== null && !Array.isArray(value) ? value.result : undefined;
    return typeof result === 'number' ? result : -1;
  } catch {
    return -1;
  }
}

/** A node's faults: the union of `all` and its own entry, validated (UnknownFaultError), in catalogue order. */
function devnetFaults(faults: DevnetOptions['faults'], name: string): string[] {
  return FaultSet.parse([...(faults?.all ?? []), ...(faults?.byNode?.[name] ?? [])]).names;
}

/** Waits until every node counts every other as a live peer (net_peerCount n - 1, or more: see below). */
async function waitForMesh(nodes: DevnetNode[], timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const clients = nodes.map((n) => createClient({ baseUrl: n.url, timeoutMs: 2_000 }));
  // At least, not exactly: no node of n has more than n - 1 live peers, so a higher count is a node that
  // miscounts (a TEST-ONLY fault), and it is as formed as its count can tell.
  const wanted = nodes.length - 1;
  try {
    for (;;) {
      const counts = await Promise.all(clients.map((c) => peerCount(c)));
      if (counts.every((c) => c >= wanted) || signal?.aborted === true) return;
      if (Date.now() > deadline) throw new Error(`devnet did not form within ${timeoutMs} ms: peer counts ${counts.join(', ')} (want ${wanted} each)`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}
