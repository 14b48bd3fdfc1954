import { describe, expect, it } from 'vitest';
import { k6Recipe, segmentCommands } from './k6Recipe.js';

describe('k6Recipe', () => {
  it('one process: the k6 command, then the merge', () => {
    expect(k6Recipe({ scenario: 'reads', dir: 't1', files: ['data.json', 'script.js'], notJudged: [], segments: 1, sendsTransactions: false })).toEqual([
      'k6 test of reads written to t1: data.json, script.js',
      'run it:',
      '  cd t1 && K6_NO_USAGE_REPORT=true k6 run script.js',
      'then merge what the instances wrote (chainrpc-summary*.json) into one report:',
      '  chainrpc load merge t1/chainrpc-summary*.json',
    ]);
  });

  it('a split with transactions and a TestRun: one command per segment, each with its corpus share, the manifest, the warning', () => {
    const lines = k6Recipe({ scenario: 'send-raw-tx', dir: 'my dir', files: ['script.js'], notJudged: ['inclusion >= 99%'], segments: 2, sendsTransactions: true, testRun: 'my dir/testrun.yaml' });
    expect(lines).toEqual([
      'k6 test of send-raw-tx written to my dir: script.js',
      'not judged by k6 (only the Node engine measures them): inclusion >= 99%',
      'run it as 2 k6 processes (any machines, each with this folder), at the same time:',
      ...segmentCommands(2, true).map((c) => `  cd 'my dir' && ${c}`),
      'k6-operator: my dir/testrun.yaml (a ConfigMap and a TestRun of parallelism 2): kubectl apply -f it',
      'then merge what the instances wrote (chainrpc-summary*.json) into one report:',
      "  chainrpc load merge 'my dir'/chainrpc-summary*.json",
      'the corpus is spent by one run (its nonces are used): make the test again before the next run',
    ]);
    expect(segmentCommands(2, true)).toEqual([
      'K6_NO_USAGE_REPORT=true k6 run --address 127.0.0.1:0 --execution-segment 0:1/2 --execution-segment-sequence 0,1/2,1 -e CHAINRPC_SHARE=1/2 -e CHAINRPC_CORPUS=corpus-0-of-2.json script.js',
      'K6_NO_USAGE_REPORT=true k6 run --address 127.0.0.1:0 --execution-segment 1/2:1 --execution-segment-sequence 0,1/2,1 -e CHAINRPC_SHARE=1/2 -e CHAINRPC_CORPUS=corpus-1-of-2.json script.js',
    ]);
  });
});
