import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createClient } from '../../core/client/index.js';
import { packageRoot } from '../../core/paths.js';

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
}

export interface DevnetNode {
  name: string;
  kind: 'MN' | 'LN';
  url: string;
  pid: number;
  dataDir: string;
  logFile: string;
  process: ChildProcess;
}

export interface Devnet {
  nodes: DevnetNode[];
  /** SIGTERM to every node still running, SIGKILL after a grace period; resolves when all have exited. */
  stop(): Promise<void>;
}

/** The compiled CLI every node process runs (npm run build makes it). */
export const CLI_PATH = join(packageRoot, 'dist', 'cli', 'chainrpc.js');

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

/** Starts one `chainrpc node` process and resolves with its base URL, the first line it prints. */
export function spawnNode(args: string[], logFile: string, timeoutMs = 30_000): Promise<{ url: string; process: ChildProcess }> {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: run npm run build first`);
  const child = spawn(process.execPath, [CLI_PATH, 'node', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(logFile, { flags: 'a' });
  child.stderr?.pipe(log);
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node did not print its URL within ${timeoutMs} ms (log: ${logFile})`));
    }, timeoutMs);
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolvePromise({ url: line.trim(), process: child });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`node exited (code ${String(code)}, signal ${String(signal)}) before serving; see ${logFile}`));
    });
  });
}

/**
 * A devnet: `mn` MN and `ln` LN nodes, each a separate `chainrpc node` process on a loopback port.
 * The first MN starts alone; every other node is given its URL and learns the rest by peer exchange.
 * Resolves once every node lists every other as a live peer.
 */
export async function startDevnet(options: DevnetOptions): Promise<Devnet> {
  const dataDir = resolve(options.dataDir);
  if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const nodes: DevnetNode[] = [];
  const stop = async (): Promise<void> => {
    for (const n of nodes) if (n.process.exitCode === null && n.process.signalCode === null) n.process.kill('SIGTERM');
    const grace = setTimeout(() => {
      for (const n of nodes) if (n.process.exitCode === null && n.process.signalCode === null) n.process.kill('SIGKILL');
    }, 5_000);
    await Promise.all(nodes.map((n) => exited(n.process)));
    clearTimeout(grace);
  };
  const plan = [
    ...Array.from({ length: options.mn }, (_, i) => ({ name: `mn${i + 1}`, kind: 'MN' as const })),
    ...Array.from({ length: options.ln }, (_, i) => ({ name: `ln${i + 1}`, kind: 'LN' as const })),
  ];
  try {
    for (const { name, kind } of plan) {
      const nodeDir = join(dataDir, name);
      mkdirSync(nodeDir, { recursive: true });
      const logFile = join(nodeDir, 'node.log');
      const first = nodes[0];
      const args = [
        '--kind', kind, '--port', '0', '--data-dir', nodeDir,
        '--block-time', String(options.blockTimeMs), '--chain-id', options.chainId.toString(),
        ...(first ? ['--peers', first.url] : []),
        ...(options.nodeArgs ?? []),
      ];
      const { url, process: child } = await spawnNode(args, logFile);
      if (child.pid === undefined) throw new Error(`${name} has no pid`);
      nodes.push({ name, kind, url, pid: child.pid, dataDir: nodeDir, logFile, process: child });
      options.log?.(`${name} ${kind} ${url} pid ${child.pid}`);
    }
    await waitForMesh(nodes, options.readyTimeoutMs ?? 30_000);
    writeFileSync(join(dataDir, 'devnet.json'), JSON.stringify(nodes.map(({ name, kind, url, pid, dataDir: d, logFile }) => ({ name, kind, url, pid, dataDir: d, logFile })), null, 2) + '\n');
  } catch (err) {
    await stop();
    throw err;
  }
  return { nodes, stop };
}

/** Waits until every node counts every other as a live peer (net_peerCount = n - 1). */
async function waitForMesh(nodes: DevnetNode[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const clients = nodes.map((n) => createClient({ baseUrl: n.url, timeoutMs: 2_000 }));
  try {
    for (;;) {
      const counts = await Promise.all(clients.map((c) => c.call<number>('net_peerCount').catch(() => -1)));
      if (counts.every((c) => c === nodes.length - 1)) return;
      if (Date.now() > deadline) throw new Error(`devnet did not form within ${timeoutMs} ms: peer counts ${counts.join(', ')} (want ${nodes.length - 1} each)`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}
