import { parseArgs } from 'node:util';
import type { Command } from '../Command.js';
import { CliError } from '../CliError.js';
import { startDevnet } from '../../reference-node/devnet/startDevnet.js';

const HELP = `Usage: chainrpc devnet [--mn 3] [--ln 2] [options]

Starts a local devnet: each node a separate \`chainrpc node\` process on a free loopback port. The
MNs elect a leader that proposes a block every --block-time; LNs follow the chain, serve reads and
pass transactions on. Prints a table of the nodes (name, kind, base URL, pid) once every node sees
every other, and runs until Ctrl-C (or SIGTERM), which stops every node.

Options:
  --mn <n>            MN nodes, at least 1 (default 3)
  --ln <n>            LN nodes (default 2)
  --block-time <ms>   time between blocks (default 1000)
  --chain-id <n>      network id (default 1)
  --data-dir <dir>    one folder per node, with its store and node.log (default .chainrpc/devnet)
  --keep-data         resume the chain in --data-dir instead of starting fresh
  -h, --help

Stop a node with kill <pid> to watch another MN take over as leader.`;

export const devnet: Command = {
  name: 'devnet',
  summary: 'Start several MN/LN reference nodes as local processes that form one chain',
  help: HELP,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        mn: { type: 'string' },
        ln: { type: 'string' },
        'block-time': { type: 'string' },
        'chain-id': { type: 'string' },
        'data-dir': { type: 'string' },
        'keep-data': { type: 'boolean', default: false },
      },
    });
    const count = (text: string | undefined, fallback: number, flag: string, min: number, max: number): number => {
      const n = text === undefined ? fallback : Number(text);
      if (!Number.isInteger(n) || n < min || n > max) throw new CliError(`devnet: ${flag} must be an integer from ${min} to ${max}; got "${text}"`);
      return n;
    };
    const mn = count(values.mn, 3, '--mn', 1, 32);
    const ln = count(values.ln, 2, '--ln', 0, 32);
    const blockTimeMs = count(values['block-time'], 1000, '--block-time', 10, 600_000);
    const chainId = values['chain-id'] ?? '1';
    if (!/^\d{1,20}$/.test(chainId)) throw new CliError(`devnet: --chain-id must be a non-negative integer; got "${chainId}"`);
    const dataDir = values['data-dir'] ?? '.chainrpc/devnet';
    process.stderr.write(`devnet: starting ${mn} MN + ${ln} LN (block time ${blockTimeMs} ms, data in ${dataDir})\n`);
    const net = await startDevnet({ mn, ln, blockTimeMs, chainId: BigInt(chainId), dataDir, keepData: values['keep-data'], log: (l) => process.stderr.write(`devnet: ${l}\n`) });
    const width = Math.max(...net.nodes.map((n) => n.url.length));
    console.log(`${'name'.padEnd(6)}${'kind'.padEnd(6)}${'url'.padEnd(width + 2)}pid`);
    for (const n of net.nodes) console.log(`${n.name.padEnd(6)}${n.kind.padEnd(6)}${n.url.padEnd(width + 2)}${n.pid}`);
    console.log(`devnet ready: ${net.nodes.length} nodes. Ctrl-C stops every node; logs in ${dataDir}/<name>/node.log`);
    for (const n of net.nodes) {
      n.process.once('exit', (code, signal) => process.stderr.write(`devnet: ${n.name} (pid ${n.pid}) exited (${signal ?? `code ${String(code)}`})\n`));
    }
    await new Promise<void>((done) => {
      const stop = (signal: string): void => {
        process.stderr.write(`devnet: ${signal}: stopping every node\n`);
        net.stop().then(done, done);
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    return 0;
  },
};
