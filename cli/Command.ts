/** One chainrpc subcommand: its name, a one-line summary for `chainrpc --help`, its own help and its run. */
export interface Command {
  name: string;
  summary: string;
  help: string;
  /** Runs with the arguments after the subcommand name; resolves to the exit code. */
  run(argv: string[]): Promise<number>;
}
