/**
 * Exit codes of every chainrpc command. Stable: CI pipelines branch on them.
 *
 *   0  success (for `test`: passed at the chosen level)
 *   1  the node is wrong: a JSON-RPC error answer, or a failed check
 *   2  usage or configuration error: fix the command line or the config file
 *   3  the target could not be reached (refused, timed out, not JSON-RPC)
 *   4  internal error: a bug in chainrpc itself (the message asks for a report)
 */
export const EXIT = { ok: 0, nodeError: 1, usage: 2, unreachable: 3, internal: 4, interrupted: 130 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the user can fix; printed without a stack trace, with the exit code it maps to. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.usage,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
