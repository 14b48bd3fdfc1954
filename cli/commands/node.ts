import { resolve } from 'node:path';
import type { Command } from '../Command.js';
import { CliError } from '../CliError.js';
import { CommandLine } from '../CommandLine.js';
import { parseAmount } from '../parseAmount.js';
import { defaultOnParentExit, ON_PARENT_EXIT, stopBounded, untilStopped } from '../untilStopped.js';
import { PeerGate, readPeerGateFile } from '../../reference-node/p2p/PeerGate.js';
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
import { EXIT } from '../../core/errors/exitCodes.js';
import { withFaults } from '../../reference-node/faults/applyFaults.js';
import { FAULT_CATALOGUE, FaultSet, UnknownFaultError } from '../../reference-node/faults/faultCatalogue.js';
import { keptNetworkGenesis, readNetworkGenesis } from '../../reference-node/node/NetworkGenesis.js';
import type { NetworkGenesis } from '../../reference-node/node/NetworkGenesis.js';
import { loadOrCreateIdentity } from '../../reference-node/node/NodeIdentity.js';
import { ReferenceNode } from '../../reference-node/node/ReferenceNode.js';
import { NODE_DEFAULTS } from '../../reference-node/node/nodeDefaults.js';

const HELP = `Usage: chainrpc node [options]

Runs one reference node: every method of the reference profile on POST {base}/rpc, blocks every
--block-time while it leads, and the peer protocol (/p2p/) on a listener of its own, so exposing
the JSON-RPC port exposes only JSON-RPC. Prints two lines on stdout once it serves: its JSON-RPC
base URL (http://HOST:PORT), then its peer URL. Logs go to stderr; the line saying it serves names its pid.

It stops cleanly (store closed, ports freed) on SIGINT or SIGTERM to its pid, and, when npm
started it (npx chainrpc node), when npm's shell exits: a kill of the pid of \`npx chainrpc node &\`
stops it too. See --on-parent-exit.

A node belongs to one network, fixed by its genesis: the chain id, the block time and the members,
the MN keys that may lead and propose. Without --genesis a node uses the genesis.json in its data
dir; an MN without one starts a one-member network of its own and writes it there, for others to
join.

Options:
  --port <n>              JSON-RPC port; 0 picks a free one (default ${NODE_DEFAULTS.port})
  --host <addr>           JSON-RPC address to bind (default ${NODE_DEFAULTS.host})
  --p2p-port <n>          peer port; 0 picks a free one (default ${NODE_DEFAULTS.p2pPort})
  --p2p-host <addr>       peer address to bind (default ${NODE_DEFAULTS.p2pHost}: loopback only)
  --p2p-url <url>         the peer URL to announce, when peers reach this node by another address
                          (default: http://P2P-HOST:P2P-PORT)
  --p2p-control <file>    the peer gate's state, read again on SIGUSR2: {"partitioned":true} cuts every
                          peer message both ways, {"delayMs":200,"loss":0.1} slows them and loses some,
                          {} opens it (chainrpc load --chaos partition|delay drives it: docs/chaos.md)
  --kind <MN|LN>          MN: may be elected and propose blocks when it is a member; LN: follows the
                          chain, serves reads, passes transactions on (default MN)
  --data-dir <dir>        node key, genesis and chain store (default ${NODE_DEFAULTS.dataDir}); a node resumes from it.
                          It must be new, empty, chainrpc's (marked .chainrpc-owned) or hold a node's own
                          files; a folder of your files is refused. A node never removes anything there
  --genesis <file>        the network's genesis (chainrpc devnet writes one); required for an LN
  --show-id               print this node's id (its public key; the key is made if the data dir has
                          none) and exit: what a network's genesis names as a member
  --block-time <ms>       time between blocks; a genesis fixes its network's (default: the
                          genesis's, else ${NODE_DEFAULTS.blockTimeMs})
  --peers <url,...>       peer URLs of other nodes to join; the rest are learned from the members
  --chain-id <n>          chain id of a new network of its own (default ${NODE_DEFAULTS.chainId}; a genesis fixes its own)
  --faucet-amount <amt>   amount per faucet claim, base units or "<n>token" (default 10token)
  --faucet-limit <n>      faucet claims per address (default ${NODE_DEFAULTS.faucetLimit})
  --no-faucet             answer chain_faucetClaim with FaucetUnavailable
  --max-body-bytes <n>    largest request body; larger gets HTTP 413 (default ${NODE_DEFAULTS.maxBodyBytes})
  --max-batch <n>         most calls in one batch; more gets one -32013 error (default ${NODE_DEFAULTS.maxBatch})
  --max-block-txs <n>     most transactions in a block (default ${NODE_DEFAULTS.maxBlockTransactions})
  --max-pending <n>       most transactions waiting for a block (default ${NODE_DEFAULTS.maxPending})
  --request-timeout <ms>  a client must send its whole request within this (default ${NODE_DEFAULTS.requestTimeoutMs})
  --on-parent-exit <stop|run>
                          when the process that started it exits: stop cleanly, or run on (default:
                          stop when npm started it, as npx does; run when a shell did, as & does)
  -h, --help

Fault injection (TEST-ONLY):
  --fault <name,...>      makes the node deliberately wrong: one deviation from the spec or the
                          reference profile per fault (repeatable, or comma-separated). TEST-ONLY:
                          never use it for anything but proving the conformance suite. The node
                          logs a warning naming the active faults. Catalogue: docs/faults.md.
                          A fault that kills the node (dies-on-huge-height) ends this process at
                          once: a panic line on stderr, exit code 1
  --list-faults           print every fault (name, category, scope, what it breaks) and exit

The faucet key is the well-known devnet key (seed "chainrpc-devnet-faucet"): never use this node
to hold value.

Exit codes: 0 stopped by SIGINT or SIGTERM, or its parent exited; 1 a TEST-ONLY fault made it die
(dies-on-huge-height: the fuzzer's proof); 2 usage or configuration error (a
busy port, a data dir of another network or of files not a node's, a damaged or locked store); 4 internal error (a bug in
chainrpc; also a stop that did not finish in 20 s); 130 a second signal while stopping (it exits at once).`;

const commandLine = new CommandLine('node', {
  port: { kind: 'integer', value: '<n>', min: 0, max: 65_535, default: NODE_DEFAULTS.port },
  host: { kind: 'text', value: '<addr>', default: NODE_DEFAULTS.host },
  'p2p-port': { kind: 'integer', value: '<n>', min: 0, max: 65_535, default: NODE_DEFAULTS.p2pPort },
  'p2p-host': { kind: 'text', value: '<addr>', default: NODE_DEFAULTS.p2pHost },
  'p2p-url': { kind: 'text', value: '<url>' },
  'p2p-control': { kind: 'text', value: '<file>' },
  genesis: { kind: 'text', value: '<file>' },
  'show-id': { kind: 'flag' },
  kind: { kind: 'choice', value: '<MN|LN>', choices: ['MN', 'LN'], default: 'MN' },
  'data-dir': { kind: 'text', value: '<dir>', default: NODE_DEFAULTS.dataDir },
  'block-time': { kind: 'integer', value: '<ms>', min: 10, default: NODE_DEFAULTS.blockTimeMs },
  peers: { kind: 'text', value: '<url,...>' },
  'chain-id': { kind: 'uint', value: '<n>', default: NODE_DEFAULTS.chainId },
  'faucet-amount': { kind: 'text', value: '<amt>', default: '10token' },
  'faucet-limit': { kind: 'integer', value: '<n>', min: 1, default: NODE_DEFAULTS.faucetLimit },
  'no-faucet': { kind: 'flag' },
  'max-body-bytes': { kind: 'integer', value: '<n>', min: 1, default: NODE_DEFAULTS.maxBodyBytes },
  'max-batch': { kind: 'integer', value: '<n>', min: 1, default: NODE_DEFAULTS.maxBatch },
  'max-block-txs': { kind: 'integer', value: '<n>', min: 1, default: NODE_DEFAULTS.maxBlockTransactions },
  'max-pending': { kind: 'integer', value: '<n>', min: 1, default: NODE_DEFAULTS.maxPending },
  'request-timeout': { kind: 'integer', value: '<ms>', min: 1, default: NODE_DEFAULTS.requestTimeoutMs },
  fault: { kind: 'list', value: '<name,...>' },
  'list-faults': { kind: 'flag' },
  'on-parent-exit': { kind: 'choice', value: '<stop|run>', choices: ON_PARENT_EXIT },
});

export const node: Command = {
  name: 'node',
  summary: 'Run a reference node (one process; see devnet for several)',
  help: HELP,
  commandLines: [commandLine],
  async run(argv) {
    const { values } = commandLine.parse(argv);
    if (values['list-faults']) {
      const width = Math.max(...FAULT_CATALOGUE.map((f) => f.name.length));
      console.log('Fault injection, TEST-ONLY: each fault makes the node deliberately wrong (docs/faults.md).\n');
      for (const f of FAULT_CATALOGUE) console.log(`${f.name.padEnd(width)}  ${f.category.padEnd(10)}  ${f.scope.padEnd(7)}  ${f.level.padEnd(7)}  ${f.description}`);
      return 0;
    }
    if (values['show-id']) {
      console.log(loadOrCreateIdentity(resolve(values['data-dir'])).id);
      return 0;
    }
    let faults: FaultSet;
    try {
      faults = FaultSet.parse(values.fault ?? []);
    } catch (err) {
      if (err instanceof UnknownFaultError) throw CliError.within('node: --fault', err);
      throw err;
    }
    const kind = values.kind;
    const chainId = values['chain-id'];
    const peers = (values.peers ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '');
    for (const p of peers) if (!/^https?:\/\/[^/\s]+\/?$/.test(p)) throw new CliError(`node: --peers takes peer base URLs such as http://127.0.0.1:${NODE_DEFAULTS.p2pPort}; got "${p}"`);
    const p2pUrl = values['p2p-url'];
    if (p2pUrl !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(p2pUrl)) throw new CliError(`node: --p2p-url takes a base URL such as http://10.0.0.5:${NODE_DEFAULTS.p2pPort}; got "${p2pUrl}"`);
    let genesis: NetworkGenesis | undefined;
    if (values.genesis !== undefined) {
      try {
        genesis = readNetworkGenesis(resolve(values.genesis));
      } catch (err) {
        throw new CliError(`node: --genesis: ${(err as Error).message}`);
      }
      if (argv.some((a) => a === '--chain-id' || a.startsWith('--chain-id=')) && genesis.chainId !== chainId) {
        throw new CliError(`node: --chain-id ${chainId} disagrees with the genesis (${values.genesis}: chain id ${genesis.chainId}); leave --chain-id out`);
      }
    }
    // The block time: as given, else the network's (its genesis, given or kept in the data dir), else the default.
    let network = genesis;
    if (network === undefined) {
      try {
        network = keptNetworkGenesis(resolve(values['data-dir']));
      } catch (err) {
        throw new CliError(`node: ${(err as Error).message}`);
      }
    }
    const givenBlockTime = argv.some((a) => a === '--block-time' || a.startsWith('--block-time='));
    const blockTimeMs = givenBlockTime ? values['block-time'] : (network?.blockTimeMs ?? values['block-time']);
    const log = (line: string): void => void process.stderr.write(`${new Date().toISOString()} ${line}\n`);
    // A fault that kills its node (TEST-ONLY) ends the process as a crash would: its last words, then exit 1.
    const crash = (line: string): void => {
      process.stderr.write(`${line}\n`);
      process.exit(EXIT.nodeError);
    };
    const control = values['p2p-control'];
    const peerGate = control === undefined ? undefined : new PeerGate();
    if (peerGate !== undefined && control !== undefined) {
      // Read again on each SIGUSR2 (SIGUSR1 is Node's debugger): a state that does not read leaves the gate as it was.
      process.on('SIGUSR2', () => {
        try {
          peerGate.state = readPeerGateFile(control);
          log(`peer gate: ${JSON.stringify(peerGate.state)}`);
        } catch (err) {
          log(`peer gate: ${control} not taken: ${err instanceof Error ? err.message : String(err)}`);
        }
      });
    }
    // Listening from before the node starts: a signal (or its parent's exit) while it starts must find the handler
    // in place, not the default action (which would end the process without stopping the node cleanly); the node
    // then stops as soon as it has started. A devnet that dies while this node starts is seen too (untilStopped.ts).
    const stopped = untilStopped({
      watchParent: (values['on-parent-exit'] ?? defaultOnParentExit()) === 'stop',
      onSecondSignal: (signal) => {
        log(`${signal} again: exiting now`);
        process.exit(130);
      },
    });
    const started = await ReferenceNode.start(withFaults({
      ...(peerGate === undefined ? {} : { peerGate }),
      host: values.host,
      port: values.port,
      p2pHost: values['p2p-host'],
      p2pPort: values['p2p-port'],
      p2pUrl,
      genesis,
      kind,
      dataDir: resolve(values['data-dir']),
      blockTimeMs,
      peers,
      chainId: genesis?.chainId ?? chainId,
      faucet: values['no-faucet'] ? false : { amount: parseAmount(values['faucet-amount'], 'faucet amount'), limit: values['faucet-limit'] },
      maxBodyBytes: values['max-body-bytes'],
      maxBatch: values['max-batch'],
      requestTimeoutMs: values['request-timeout'],
      chain: {
        maxBlockTransactions: values['max-block-txs'],
        maxPending: values['max-pending'],
      },
      log,
    }, faults, { crash })).catch((err: unknown) => {
      // What a user can fix (a busy port, a damaged or locked store) is a config error, not a crash.
      const code = (err as { code?: unknown }).code;
      if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new CliError(`node: cannot listen: ${(err as Error).message}; pick another --port or --p2p-port (0 picks a free one)`);
      // The data directory or the settings do not fit (StoreDamagedError, StoreLockedError, GenesisMismatchError, NodeConfigError).
      if (err instanceof ChainrpcError && err.kind === 'configuration') throw CliError.within('node', err);
      throw err;
    });
    console.log(started.url);
    console.log(started.p2pUrl);
    const members = started.network.members.length;
    const role = !started.network.members.includes(started.id) ? 'not a member' : members === 1 ? 'the only member' : `one of ${members} members`;
    log(`node ${kind} ${started.id} (${role}, pid ${process.pid}) serving ${started.url}/rpc, peers at ${started.p2pUrl}, blocks every ${blockTimeMs} ms (data: ${resolve(values['data-dir'])}, height ${started.chain.height()})`);
    const reason = await stopped;
    log(`${reason}: stopping`);
    // Said once the store is closed: a log that ends without this line is of a node that did not stop cleanly.
    return stopBounded(() => started.stop().then(() => log('stopped cleanly: store closed, ports freed')), 0, log);
  },
};
