/**
 * The exit codes of every chainrpc command, in one table. Stable: CI pipelines branch on them. Which codes
 * each command can end with is listed per command (`exits` in cli/commandList.ts, shown by `--help` and in
 * the README's table); what an error's kind exits with is decided here (exitCodeOfKind), and only here.
 *
 *     0  success (`test`: passed at the chosen level; `load`: every threshold kept)
 *     1  the node is wrong: a JSON-RPC error answer, a failed check, a refused funding; (load) the figures
 *        cannot be trusted (the generator fell behind, a node stopped answering mid-run)
 *     2  usage or configuration error: fix the command line, the config file, the profile or the scenario
 *     3  the target could not be reached (refused, timed out, not JSON-RPC)
 *     4  internal error: a bug in chainrpc itself (the message asks for a report)
 *    99  (load) a threshold broken, a regression against the baseline, a sweep without a knee (as k6 has it)
 *   130  interrupted (Ctrl-C)
 */
/** What kind of thing stopped a command (ChainrpcError.kind); its exit code follows from it (exitCodeOfKind). */
export type ErrorKind = 'usage' | 'configuration' | 'target' | 'node' | 'interrupted' | 'internal';

export const EXIT = {
  ok: 0,
  nodeError: 1,
  /** The same code as nodeError, as a load verdict says it: the figures cannot be trusted. */
  untrusted: 1,
  usage: 2,
  unreachable: 3,
  internal: 4,
  thresholds: 99,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What each code means, in a few words, whatever the command (`chainrpc --help` prints these). */
export const EXIT_MEANING: Readonly<Record<ExitCode, string>> = {
  0: 'success',
  1: 'the node answered with an error, a check failed, or (load) the figures cannot be trusted',
  2: 'usage or configuration error',
  3: 'target unreachable',
  4: 'internal error (a bug: please report it)',
  99: '(load) a threshold broken, a regression against the baseline, or a sweep without a knee',
  130: 'interrupted',
};

const BY_KIND: Readonly<Record<ErrorKind, ExitCode>> = {
  usage: EXIT.usage,
  configuration: EXIT.usage,
  target: EXIT.unreachable,
  node: EXIT.nodeError,
  interrupted: EXIT.interrupted,
  internal: EXIT.internal,
};

/** The exit code a command ends with when an error of this kind stops it. */
export const exitCodeOfKind = (kind: ErrorKind): ExitCode => BY_KIND[kind];
