import type { Command } from '../Command.js';
import { CommandLine } from '../CommandLine.js';
import { bytesToHex, generateKeypair, keypairFromSeed } from '../../core/codec/index.js';

const commandLine = new CommandLine('keygen', { seed: { kind: 'text', value: '<text>' } });

export const keygen: Command = {
  name: 'keygen',
  summary: 'Make an ed25519 key pair and print its address',
  help: `Usage: chainrpc keygen [--seed <text>]

Prints a new ed25519 key pair as JSON: private_key (keep it secret), address (the hex of the
public key, the spec's 64-character account address).

Options:
  --seed <text>   derive the key from a seed (reproducible; for tests and devnets only,
                  never for keys that hold value)
  -h, --help

Exit codes: 0 a key pair printed; 2 usage error; 4 internal error (a bug in chainrpc).`,
  commandLines: [commandLine],
  run(argv) {
    const { values } = commandLine.parse(argv);
    const pair = values.seed === undefined ? generateKeypair() : keypairFromSeed(values.seed);
    console.log(JSON.stringify({ private_key: bytesToHex(pair.privateKey), address: pair.address }, null, 2));
    return Promise.resolve(0);
  },
};
