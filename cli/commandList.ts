/**
 * Every chainrpc command, in the order `chainrpc --help` lists them. Adding a command is one entry
 * here: its name and summary exactly as in its module (cli/commandList.test.ts checks), and a load
 * that imports the module. Keep the imports dynamic: a static import here would put the command's
 * dependencies back on the path of every `chainrpc` start, `--help` included.
 */
import type { CommandEntry } from './Command.js';

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'test',
    summary: 'Certify one or several nodes: graded checks, reports, CI exit codes',
    exits: [0, 1, 2, 3, 4, 130],
    load: async () => (await import('./commands/test.js')).test,
  },
  {
    name: 'load',
    summary: 'Load-test nodes: open-model scenarios, batches, signed transactions, the knee, a CI gate',
    exits: [0, 1, 2, 3, 4, 99, 130],
    load: async () => (await import('./commands/load/index.js')).load,
  },
  {
    name: 'fuzz',
    summary: 'Find the requests that break a node: schema-driven cases, JSON-RPC oracles, shrunk findings',
    exits: [0, 1, 2, 3, 4, 130],
    load: async () => (await import('./commands/fuzz.js')).fuzz,
  },
  {
    name: 'watch',
    summary: 'Watch nodes without load: head lag, stalls, heights gone backwards, CPU and memory',
    exits: [0, 2, 3, 4],
    load: async () => (await import('./commands/watch.js')).watch,
  },
  {
    name: 'profile',
    summary: "Detect a node's profile from outside: a draft with evidence and confidence per key",
    exits: [0, 2, 3, 4, 130],
    load: async () => (await import('./commands/profile.js')).profile,
  },
  {
    name: 'record',
    summary: "Record a node's traffic through a proxy that passes it on unchanged: the capture to replay",
    exits: [0, 2, 3, 4],
    load: async () => (await import('./commands/record.js')).record,
  },
  {
    name: 'replay',
    summary: "Send a check's recorded requests again and show the node's answers",
    exits: [0, 2, 3, 4],
    load: async () => (await import('./commands/replay.js')).replay,
  },
  {
    name: 'node',
    summary: 'Run a reference node (one process; see devnet for several)',
    exits: [0, 1, 2, 4, 130],
    load: async () => (await import('./commands/node.js')).node,
  },
  {
    name: 'devnet',
    summary: 'Start several MN/LN reference nodes as local processes that form one chain',
    exits: [0, 2, 4, 130],
    load: async () => (await import('./commands/devnet.js')).devnet,
  },
  {
    name: 'call',
    summary: 'Send one JSON-RPC call to a node and print the result',
    exits: [0, 1, 2, 3, 4],
    load: async () => (await import('./commands/call.js')).call,
  },
  {
    name: 'methods',
    summary: 'List the interface methods with their params and error codes (from schemas/)',
    exits: [0, 2, 4],
    load: async () => (await import('./commands/methods.js')).methods,
  },
  {
    name: 'tx',
    summary: 'Sign a transfer, or decode and strictly verify a signed transaction',
    exits: [0, 1, 2, 4],
    load: async () => (await import('./commands/tx.js')).tx,
  },
  {
    name: 'keygen',
    summary: 'Make an ed25519 key pair and print its address',
    exits: [0, 2, 4],
    load: async () => (await import('./commands/keygen.js')).keygen,
  },
];
