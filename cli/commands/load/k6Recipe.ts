/** What `chainrpc load k6` prints once the test is written: the k6 commands that run it, and the merge after. */
import { shellWord } from '../commandText.js';

/** The k6 commands of an N-way split: one k6 process per execution segment. */
export function segmentCommands(n: number, sendsTransactions = false, script = 'script.js'): string[] {
  const at = (i: number): string => (i === 0 ? '0' : i === n ? '1' : `${i}/${n}`);
  const sequence = Array.from({ length: n + 1 }, (_, i) => at(i)).join(',');
  // --address 127.0.0.1:0: each instance's REST API on a port of its own, so several can share a machine.
  // Each instance judges its share of the drop limits (-e CHAINRPC_SHARE: k6 tells a script's init nothing of
  // its segment); with transactions, it reads only its own senders' lanes (-e CHAINRPC_CORPUS).
  const corpus = (i: number): string => (sendsTransactions ? ` -e CHAINRPC_CORPUS=corpus-${i}-of-${n}.json` : '');
  return Array.from({ length: n }, (_, i) => `K6_NO_USAGE_REPORT=true k6 run --address 127.0.0.1:0 --execution-segment ${at(i)}:${at(i + 1)} --execution-segment-sequence ${sequence} -e CHAINRPC_SHARE=1/${n}${corpus(i)} ${script}`);
}

export interface K6Written {
  /** The scenario's name. */
  scenario: string;
  /** The test's folder, as the user would type it. */
  dir: string;
  files: readonly string[];
  /** The thresholds k6 does not judge. */
  notJudged: readonly string[];
  /** k6 processes to run at once (1: one, no segments). */
  segments: number;
  /** Whether the scenario sends transactions (each instance then reads its own share of the corpus). */
  sendsTransactions: boolean;
  /** The k6-operator manifest written beside the test (testrun.yaml), if any. */
  testRun?: string | undefined;
  /** Why k6 leaves `notJudged` out (default: only the Node engine measures them). */
  notJudgedWhy?: string;
}

/** The lines printed after the test is written: what it is, how to run it, and how to merge what it writes. */
export function k6Recipe(w: K6Written): string[] {
  const lines = [`k6 test of ${w.scenario} written to ${w.dir}: ${w.files.join(', ')}`];
  if (w.notJudged.length > 0) lines.push(`not judged by k6 (${w.notJudgedWhy ?? 'only the Node engine measures them'}): ${w.notJudged.join('; ')}`);
  if (w.segments === 1) lines.push('run it:', `  cd ${shellWord(w.dir)} && K6_NO_USAGE_REPORT=true k6 run script.js`);
  else lines.push(`run it as ${w.segments} k6 processes (any machines, each with this folder), at the same time:`, ...segmentCommands(w.segments, w.sendsTransactions).map((c) => `  cd ${shellWord(w.dir)} && ${c}`));
  if (w.testRun !== undefined) lines.push(`k6-operator: ${w.testRun} (a ConfigMap and a TestRun of parallelism ${w.segments}): kubectl apply -f it`);
  lines.push(`then merge what the instances wrote (chainrpc-summary*.json) into one report:`, `  chainrpc load merge ${shellWord(w.dir)}/chainrpc-summary*.json`);
  if (w.sendsTransactions) lines.push('the corpus is spent by one run (its nonces are used): make the test again before the next run');
  return lines;
}
