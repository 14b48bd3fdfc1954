/**
 * `chainrpc load`: the command, its page, and the dispatch to its subcommands, one file each beside this one
 * (run.ts when no subcommand is named: sweep.ts, corpus.ts, list.ts, k6.ts, merge.ts). What they share is
 * named for what it does: target.ts (the node and its profile), scenarioOptions.ts, measure.ts (run and
 * sweep), interrupt.ts (Ctrl-C), k6Recipe.ts, publishLoadReport.ts.
 */
import type { Command } from '../../Command.js';
import { CORPUS_HELP, corpusCommand, corpusLine } from './corpus.js';
import { K6_HELP, k6Command, k6Line } from './k6.js';
import { LIST_HELP, listCommand, listLine } from './list.js';
import { MERGE_HELP, mergeCommand, mergeLine } from './merge.js';
import { REPLAY_HELP, replayCommand, replayLine } from './replay.js';
import { RUN_ABOUT, RUN_OPTIONS, RUN_USAGE, runCommand, runLine } from './run.js';
import { SWEEP_HELP, sweepCommand, sweepLine } from './sweep.js';

/** The `load` page: a run's usage, what it does and its options, with the subcommands between. */
const HELP = `${RUN_USAGE}
       chainrpc load <subcommand> ...   (sweep, corpus, list, k6, merge, replay: below)

${RUN_ABOUT}

Subcommands (each with its own --help, e.g. chainrpc load k6 --help):
  sweep <scenario>         the scenario at rising rates, and the knee: the highest rate whose SLO holds
  corpus                   pre-signs transfers for chain_sendRawTransaction into a file (k6 reads it)
  list                     the built-in scenarios
  k6 <scenario>            writes the scenario as a k6 test (and a k6-operator TestRun)
  merge <summary.json>...  adds up what the instances of such a k6 test wrote into one report
  replay <capture>         sends a recorded capture again (chainrpc record) at its pacing or faster

${RUN_OPTIONS}`;

const SUBCOMMANDS = [
  { name: 'sweep', help: SWEEP_HELP, commandLine: sweepLine, run: sweepCommand },
  { name: 'corpus', help: CORPUS_HELP, commandLine: corpusLine, run: corpusCommand },
  { name: 'list', help: LIST_HELP, commandLine: listLine, run: listCommand },
  { name: 'k6', help: K6_HELP, commandLine: k6Line, run: k6Command },
  { name: 'merge', help: MERGE_HELP, commandLine: mergeLine, run: mergeCommand },
  { name: 'replay', help: REPLAY_HELP, commandLine: replayLine, run: replayCommand },
] as const;

export const load: Command = {
  name: 'load',
  summary: 'Load-test nodes: open-model scenarios, batches, signed transactions, the knee, a CI gate',
  help: HELP,
  commandLines: [runLine],
  subcommands: SUBCOMMANDS.map(({ name, help, commandLine }) => ({ name, help, commandLine })),
  async run(argv) {
    const [sub, ...rest] = argv;
    const subcommand = SUBCOMMANDS.find((s) => s.name === sub);
    return subcommand === undefined ? runCommand(argv) : subcommand.run(rest);
  },
};
