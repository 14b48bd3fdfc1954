import type { Command } from '../Command.js';
import { CliError } from '../CliError.js';
import { CommandLine } from '../CommandLine.js';
import { defaultOnParentExit, ON_PARENT_EXIT, stopBounded, untilStopped } from '../untilStopped.js';
import { DEFAULT_DEVNET_DIR } from '../../reference-node/devnet/devnetDataDir.js';
import type { ChildProcess } from 'node:child_process';
import { DevnetPlanError, DevnetStartStopped, startDevnet } from '../../reference-node/devnet/startDevnet.js';
import type { DevnetOptions } from '../../reference-node/devnet/startDevnet.js';
import { UnknownFaultError } from '../../reference-node/faults/faultCatalogue.js';

const HELP = `Usage: chainrpc devnet [--mn 3] [--ln 2] [options]

Starts a local devnet: each node a separate \`chainrpc node\` process with a JSON-RPC port and a
peer port, both free loopback ports. The MNs' keys are made first and are the network's members,
named in its genesis (genesis.json in --data-dir, given to every node): only they can be elected
and propose blocks. The leader proposes a block every --block-time; LNs follow the chain, serve
reads and pass transactions on. Prints its own pid first (stderr), then a table of the nodes (name,
kind, JSON-RPC URL, peer URL, pid) once every node sees every other, and runs until SIGINT (Ctrl-C)
or SIGTERM to that pid (or, when npm started it, until npm's shell exits: a kill of the pid of
\`npx chainrpc devnet &\` works too); then it stops every node cleanly. A signal while it is still
starting stops every node started or starting, the same way. Its nodes run in process groups of
their own, so a terminal's Ctrl-C reaches the devnet only, which stops each node once. Its nodes
stop by themselves within a second when the devnet is gone, even killed with SIGKILL (one still
starting too).

Options:
  --mn <n>            MN nodes, at least 1 (default 3)
  --ln <n>            LN nodes (default 2)
  --block-time <ms>   time between blocks (default 1000)
  --chain-id <n>      network id (default 1)
  --data-dir <dir>    the genesis, and one folder per node with its key, store and node.log
                      (default ${DEFAULT_DEVNET_DIR}). Starting fresh empties it first, so it must be
                      new, empty, or a devnet's data dir holding nothing else (chainrpc marks the
                      folders it makes with .chainrpc-owned); a folder of your files is refused.
                      A data dir that a running devnet (its devnet.lock) or node (its store's lock)
                      uses is refused, naming its pid, before anything in it is touched
  --keep-data         resume the chain, keys and genesis in --data-dir instead of starting fresh
                      (refused unless --data-dir is new, empty, or a devnet's: nothing is removed)
  --on-parent-exit <stop|run>
                      when the process that started it exits: stop every node, or run on
                      (default: stop when npm started it, as npx does; run when a shell did)
  -h, --help

Fault injection (TEST-ONLY, catalogue: docs/faults.md and chainrpc node --list-faults):
  --fault <[node:]name,...>
                      runs nodes deliberately wrong: a bare fault name applies to every node,
                      node:name to one node (mn1, ln2, ...); repeatable or comma-separated. The
                      table shows each node's faults. Never use it but to prove the suite.

Stop a node with kill <pid> to watch another MN take over as leader.

Exit codes: 0 stopped by SIGINT or SIGTERM, or its parent exited (every node stopped); 2 usage or
configuration error (a data dir of files a devnet did not make, another network's data, a data dir a
running devnet or node uses);
4 internal error (a bug in chainrpc; also a stop that did not finish in 20 s: the nodes are killed);
130 a second signal while stopping (the nodes are killed and it exits at once).`;

const commandLine = new CommandLine('devnet', {
  mn: { kind: 'integer', value: '<n>', min: 1, max: 32, default: 3 },
  ln: { kind: 'integer', value: '<n>', min: 0, max: 32, default: 2 },
  'block-time': { kind: 'integer', value: '<ms>', min: 10, max: 600_000, default: 1000 },
  'chain-id': { kind: 'uint', value: '<n>', default: 1n },
  'data-dir': { kind: 'text', value: '<dir>', default: DEFAULT_DEVNET_DIR },
  'keep-data': { kind: 'flag' },
  fault: { kind: 'list', value: '<[node:]name,...>' },
  'on-parent-exit': { kind: 'choice', value: '<stop|run>', choices: ON_PARENT_EXIT },
});

export const devnet: Command = {
  name: 'devnet',
  summary: 'Start several MN/LN reference nodes as local processes that form one chain',
  help: HELP,
  commandLines: [commandLine],
  async run(argv) {
    const { values } = commandLine.parse(argv);
    const { mn, ln } = values;
    const blockTimeMs = values['block-time'];
    const chainId = values['chain-id'];
    const dataDir = values['data-dir'];
    const faults = parseFaults(values.fault);
    // Every node process, from the moment it is spawned: what a second signal kills.
    const children: ChildProcess[] = [];
    const killAll = (): void => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    };
    // Listening before the pid is printed: a signal sent as soon as the pid is read, the devnet still starting,
    // must find the handler in place, not the default action (which would end the devnet, exit 143, with a node
    // it was starting left running). A stop while starting stops every node started or starting.
    const stopped = untilStopped({
      watchParent: (values['on-parent-exit'] ?? defaultOnParentExit()) === 'stop',
      onSecondSignal: (signal) => {
        process.stderr.write(`devnet: ${signal} again: killing every node (SIGKILL) and exiting now\n`);
        killAll();
        process.exit(130);
      },
    });
    const stopStarting = new AbortController();
    void stopped.then((reason) => {
      process.stderr.write(`devnet: ${reason}: stopping every node\n`);
      stopStarting.abort();
    });
    const exitKillingAll = (code: number): void => {
      killAll();
      process.exit(code);
    };
    const logLine = (line: string): void => void process.stderr.write(`devnet: ${line}\n`);
    process.stderr.write(`devnet: pid ${process.pid}: starting ${mn} MN + ${ln} LN (block time ${blockTimeMs} ms, data in ${dataDir})\n`);
    let net: Awaited<ReturnType<typeof startDevnet>>;
    try {
      net = await startDevnet({
        mn, ln, blockTimeMs, chainId, dataDir, keepData: values['keep-data'], faults, log: logLine, signal: stopStarting.signal,
        onSpawn: (name, child) => {
          children.push(child);
          child.once('exit', (code, signal) => logLine(`${name} (pid ${String(child.pid)}) exited (${signal ?? `code ${String(code)}`})`));
        },
      });
    } catch (err) {
      // Told to stop while starting: startDevnet has stopped every node it started or was starting.
      if (err instanceof DevnetStartStopped) return stopBounded(() => Promise.resolve(), 0, logLine, exitKillingAll);
      // Fault and node names are checked before any process starts.
      if (err instanceof UnknownFaultError) throw CliError.within('devnet: --fault', err);
      if (err instanceof DevnetPlanError) throw CliError.within('devnet', err);
      throw err;
    }
    const width = Math.max(...net.nodes.map((n) => n.url.length));
    const p2pWidth = Math.max(...net.nodes.map((n) => n.p2pUrl.length));
    const withFaults = net.nodes.some((n) => n.faults.length > 0);
    console.log(`${'name'.padEnd(6)}${'kind'.padEnd(6)}${'url'.padEnd(width + 2)}${'p2p'.padEnd(p2pWidth + 2)}pid${withFaults ? '      faults (TEST-ONLY)' : ''}`);
    for (const n of net.nodes) console.log(`${n.name.padEnd(6)}${n.kind.padEnd(6)}${n.url.padEnd(width + 2)}${n.p2pUrl.padEnd(p2pWidth + 2)}${withFaults ? `${String(n.pid).padEnd(9)}${n.faults.join(',') || '-'}` : n.pid}`);
    console.log(`devnet ready: ${net.nodes.length} nodes. Ctrl-C or kill ${process.pid} stops every node; genesis in ${net.genesisFile}; logs in ${dataDir}/<name>/node.log`);
    await stopped;
    return stopBounded(() => net.stop(), 0, logLine, exitKillingAll);
  },
};

/** `--fault` entries: `name` for every node, `node:name` for one; each may be a comma-separated list. */
function parseFaults(entries: readonly string[]): NonNullable<DevnetOptions['faults']> {
  const all: string[] = [];
  const byNode: Record<string, string[]> = {};
  for (const entry of entries) {
    for (const part of entry.split(',').map((p) => p.trim())) {
      if (part === '') continue;
      const colon = part.indexOf(':');
      if (colon === -1) {
        all.push(part);
      } else {
        const node = part.slice(0, colon);
        const name = part.slice(colon + 1);
        if (node === '' || name.length === 0) throw new CliError(`devnet: --fault: "${part}" is not <name> or <node>:<name> (nodes are mn1, mn2, ..., ln1, ...)`);
        (byNode[node] ??= []).push(name);
      }
    }
  }
  return { all, byNode };
}
