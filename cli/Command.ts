import type { CommandLine, OptionTable } from './CommandLine.js';
import type { ExitCode } from '../core/errors/exitCodes.js';

/** One chainrpc subcommand: its name, a one-line summary for `chainrpc --help`, its own help and its run. */
export interface Command {
  name: string;
  summary: string;
  /** `chainrpc <name> --help`: its usage, options and exit codes; where it has subcommands, it lists them. */
  help: string;
  /** What the words after the name are parsed with, where no subcommand is named; the help names every option in them. */
  commandLines: readonly CommandLine<OptionTable>[];
  /** Its subcommands (load k6, tx sign, profile detect), each with a help of its own. */
  subcommands?: readonly Subcommand[];
  /** Runs with the arguments after the subcommand name; resolves to the exit code. */
  run(argv: string[]): Promise<number>;
}

/** A command's subcommand: `chainrpc <command> <name> --help` prints its own help, not the command's page. */
export interface Subcommand {
  /** The word after the command's name: "k6" in `chainrpc load k6`. */
  readonly name: string;
  /** Only its usage, what it does, its options and its exit codes (a subset of the command's). */
  readonly help: string;
  /** What it parses its arguments with; the help names every option in it. */
  readonly commandLine: CommandLine<OptionTable>;
}

/**
 * A command as the dispatcher knows it before loading it (cli/commandList.ts). `name` and `summary`
 * are copies of the module's own, kept here so `chainrpc --help` can list every command without
 * importing any of them: their modules pull in undici, ajv, the codec and the reference node,
 * which cost far more start-up time than the help itself. cli/commandList.test.ts keeps the copies
 * equal to the modules'.
 */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  /**
   * Every exit code the command can end with, in order: what `chainrpc --help` lists, what its own help
   * explains, and what README.md's table shows (test/docs.test.ts and cli/commandList.test.ts hold both to it);
   * each one of the one table, EXIT in core/errors/exitCodes.ts.
   */
  readonly exits: readonly ExitCode[];
  /** Imports the command's module; called only when the command runs or prints its own help. */
  load(): Promise<Command>;
}
