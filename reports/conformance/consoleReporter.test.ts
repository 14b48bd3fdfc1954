import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../suites/model.js';
import { NODE_A, NODE_B, fixtureRun } from '../../test/support/fixtureRun.js';
import { ConsoleReporter } from './consoleReporter.js';
import type { ConsoleReporterOptions } from './consoleReporter.js';

/** A reporter writing into a string, on a clock that moves 100 ms a reading. */
function reporter(options: Partial<ConsoleReporterOptions> = {}): { reporter: ConsoleReporter; out: () => string } {
  let text = '';
  let clock = 0;
  const r = new ConsoleReporter({ write: (t) => void (text += t), live: false, targets: [NODE_A, NODE_B], now: () => (clock += 100), ...options });
  return { reporter: r, out: () => text };
}
const shown = { folder: 'reports/2025-03-01T12-00-00-000Z', html: '/abs/reports/report.html', replayReport: " --report 'reports/x y/report.json'" };
const down = (id: string, node: string): CheckResult => ({ ...fixtureRun().results[0]!, id, node, status: 'error', evidence: { message: `${node} is unreachable: ECONNREFUSED`, exchanges: [] } });

describe('ConsoleReporter', () => {
  it('announces the run: the checks, the targets, the profile and the gate', () => {
    const { reporter: r, out } = reporter({ targets: [NODE_A, NODE_B] });
    r.announce(97, { name: 'reference', rpcPath: '/rpc' }, 'MUST');
    expect(out()).toBe(`chainrpc test: 97 checks against ${NODE_A}, ${NODE_B} (profile reference, gate MUST)\n`);
  });

  it('in CI prints a line per result, naming the node when there are several, and an error already shown only once', () => {
    const { reporter: r, out } = reporter();
    const [pass, , , fail] = fixtureRun().results;
    r.onResult(pass!, 1, 4);
    r.onResult(fail!, 2, 4);
    r.onResult(down('a/x', NODE_B), 3, 4);
    r.onResult(down('a/y', NODE_B), 4, 4);
    expect(out().split('\n')).toEqual([
      `PASS  MUST    transport/content-type-json @ ${NODE_A}`,
      `FAIL  MUST    transport/empty-batch @ ${NODE_B}: an empty batch was answered with an empty array, not with one Invalid Request error object`,
      `ERROR MUST    a/x @ ${NODE_B}: ${NODE_B} is unreachable: ECONNREFUSED`,
      '',
    ]);
  });

  it('on a terminal keeps one progress line, prints failures above it, and clears it at the end', () => {
    const { reporter: r, out } = reporter({ live: true, targets: [NODE_A] });
    const [pass, , , fail] = fixtureRun().results;
    r.onResult(pass!, 1, 2);
    r.onResult(fail!, 2, 2);
    r.endProgress();
    expect(out()).toBe(
      '\r\x1b[K  1/2  pass 1  fail 0  error 0  skip 0  0.1 s' +
        `\r\x1b[KFAIL MUST transport/empty-batch: ${fail!.evidence.message}\n` +
        '\r\x1b[K  2/2  pass 1  fail 1  error 0  skip 0  0.2 s' +
        '\r\x1b[K',
    );
  });

  it('ends with the counts, each failure with how to reproduce it, the hints, the reports and the verdict', () => {
    const { reporter: r, out } = reporter();
    const run = fixtureRun();
    const long = run.results.find((x) => x.id === 'chain_getAccount/balance-is-u128-string' && x.status === 'fail')!;
    long.reproduce = `curl ${'x'.repeat(300)}`;
    r.summarize(run, shown);
    const text = out();
    expect(text.startsWith('\nlevel      pass  fail  error  skip\nMUST          5     3      1     0\nSHOULD        2     2      0     0\nPROFILE       0     2      0     2\n')).toBe(true);
    expect(text).toContain('\n8 check result(s) failed or had no verdict:\n');
    expect(text).toContain(`  FAIL MUST transport/empty-batch @ ${NODE_B}\n      an empty batch was answered with an empty array, not with one Invalid Request error object\n      expected: {"jsonrpc":"2.0","error":{"code":-32600,...},"id":null}\n      actual:   []\n      reproduce: curl -sS -X POST '${NODE_B}/rpc'`);
    // Too long to paste: the replay command that sends it, with the node and the report it needs.
    expect(text).toContain(`      reproduce: chainrpc replay chain_getAccount/balance-is-u128-string --node ${NODE_A} --report 'reports/x y/report.json'\n`);
    expect(text).toContain(`  FAIL SHOULD chain_sendRawTransaction/rejects-bad-signature @ ${NODE_A} [baseline: expected-fail]\n`);
    expect(text).toContain(`\nFirst, fix this:\n  hint: --url ${NODE_B}/rpc already ends in /rpc`);
    expect(text).toContain('\nnow passing (remove from the baseline): net_peerCount/is-u64\n');
    expect(text.endsWith('\nreports: reports/2025-03-01T12-00-00-000Z\nHTML report: /abs/reports/report.html\nFAILED at gate MUST: 4 check result(s) at MUST level failed or could not be verified  (6.23 s)\n')).toBe(true);
  });

  it('puts results with the same status and message on one line with a count', () => {
    const { reporter: r, out } = reporter();
    const run = fixtureRun();
    run.results = Array.from({ length: 8 }, (_, i) => down(`state/check-${i}`, NODE_B));
    r.summarize(run, { ...shown, replayReport: '' });
    expect(out()).toContain(
      `\n8 check result(s) failed or had no verdict:\n  ERROR ×8: ${NODE_B} is unreachable: ECONNREFUSED\n      ${[0, 1, 2, 3, 4, 5].map((i) => `state/check-${i} @ ${NODE_B}`).join(', ')}, and 2 more\n`,
    );
  });
});
