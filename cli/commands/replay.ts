import { existsSync, readFileSync } from 'node:fs';
import type { Command } from '../Command.js';
import { CliError } from '../CliError.js';
import { CommandLine } from '../CommandLine.js';
import { nodeUrlProblem, METHOD_PREFIX, RPC_PATH } from '../commonOptions.js';
import { baseUrl, unreachable } from '../nodeUrls.js';
import { DEFAULT_RPC_PATH, isUnreachable } from '../../core/client/baseUrl.js';
import { createClient } from '../../core/client/index.js';
import type { CheckResult, RunResult } from '../../suites/model.js';
import { DEFAULT_REPORT_DIR, LATEST_LINK, latestLinkOf } from '../../reports/shared/reportFolder.js';
import { CONFORMANCE_REPORT_KIND } from '../../reports/conformance/writeReports.js';
import { isConformanceFormat, newestConformanceReport, planCheckAgain } from './replayCheck.js';

const HELP = `Usage: chainrpc replay <check-id> [--report <report.json>] [--node <base-url>] [--all] [options]

Sends the last exchange of a check from a previous chainrpc test run again (the one that showed
the failure; --all: every exchange), byte for byte, and prints what the node answers now; then
runs the check itself again against the node, alone (as chainrpc test --only <check-id> would),
and prints its verdict now in one line: "now: PASS <check-id> on <node>: <what it showed>" (or
FAIL, ERROR, SKIP, with the check's own message): the quickest way to see whether a fix works.

Reads the newest conformance report unless --report names another: that of the newest
chainrpc test run in ${DEFAULT_REPORT_DIR}
(${DEFAULT_REPORT_DIR}/${latestLinkOf(CONFORMANCE_REPORT_KIND)}/report.json), whatever load runs came after
it (they move ${LATEST_LINK}, not ${latestLinkOf(CONFORMANCE_REPORT_KIND)}). The check is judged by the run's
profile (the report names its file, or the reference profile) at the endpoint path the run posted
to; give the run's other settings (--method-prefix, --block-time, --private-key) again, as to
test. replay writes nothing.

Options:
  --report <file>    the report.json to read
  --node <base-url>  which node's result to replay when the check ran on several (default: the
                     first that failed), or another node to send the same bytes to (a URL that
                     ends in the run's endpoint path is taken as the endpoint's own, as by test)
  --all              replay every exchange of the check, not only the last
  --profile <file>   judge the check by this profile instead of the run's
  --rpc-path <path>  the endpoint's path (default: the one the run posted to)
  --method-prefix <p>
  --block-time <ms>
  --private-key <hex>
                     as given to chainrpc test for the run: the report does not keep them
  -h, --help

Exit codes: 0 the request was sent again, the answer and the check's verdict now are shown (whatever
they say); 2 usage error (no such report or check, the run's profile unreadable); 3 the node is
unreachable; 4 internal error (a bug in chainrpc).`;

const commandLine = new CommandLine(
  'replay',
  {
    report: { kind: 'text', value: '<file>' },
    node: { kind: 'text', value: '<base-url>', check: nodeUrlProblem },
    all: { kind: 'flag' },
    profile: { kind: 'text', value: '<file>' },
    'rpc-path': RPC_PATH,
    'method-prefix': METHOD_PREFIX,
    'block-time': { kind: 'integer', value: '<ms>', min: 1 },
    // Never echoed in a message: it is a key.
    'private-key': { kind: 'text', value: '<hex>', check: (text) => (/^[0-9a-fA-F]{64}$/.test(text) ? undefined : 'must be 64 hex characters') },
  },
  true,
);

/** An exchange's path under the base URL of the run's target it went to (the whole path when none matches). */
function pathUnder(run: RunResult, requestUrl: string): string {
  const node = (run.targets ?? []).filter((t) => requestUrl.startsWith(`${t}/`) || requestUrl === t).sort((a, b) => b.length - a.length)[0];
  const path = node === undefined ? new URL(requestUrl).pathname : requestUrl.slice(node.length).replace(/[?#].*$/, '');
  return path === '' ? '/' : path;
}

/** The endpoint path the run posted to (its profile's rpcPath): the path most of its exchanges had under their node. */
function endpointPathOf(run: RunResult): string {
  const counts = new Map<string, number>();
  for (const r of run.results ?? []) {
    for (const ex of r.evidence.exchanges) {
      const path = pathUnder(run, ex.request.url);
      counts.set(path, (counts.get(path) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? DEFAULT_RPC_PATH;
}

export const replay: Command = {
  name: 'replay',
  summary: "Send a check's recorded requests again and show the node's answers",
  help: HELP,
  commandLines: [commandLine],
  async run(argv) {
    const { values, positionals } = commandLine.parse(argv);
    const [id] = positionals;
    if (id === undefined || positionals.length > 1) throw new CliError('replay: name one check id (see the report, or chainrpc test --list)');
    // The newest chainrpc test run's report, whatever load runs wrote to the same report folder since.
    const path = values.report ?? newestConformanceReport(DEFAULT_REPORT_DIR);
    if (path === undefined) throw new CliError(`replay: no report of a chainrpc test run in ${DEFAULT_REPORT_DIR}; run chainrpc test first or give --report`);
    if (!existsSync(path)) throw new CliError(`replay: no report at ${path}; run chainrpc test first or give --report`);
    let run: RunResult;
    try {
      run = JSON.parse(readFileSync(path, 'utf8')) as RunResult;
    } catch (err) {
      throw new CliError(`replay: ${path} is not a report: ${(err as Error).message}`);
    }
    // The report folder and its latest link are shared by every kind of run: only a conformance report has checks to replay.
    const format: unknown = (run as { format?: unknown }).format;
    if (!isConformanceFormat(format)) throw new CliError(`replay: ${path} is not the report of a chainrpc test run (format ${JSON.stringify(format) ?? 'missing'}); give --report <report.json>`);
    const results = (run.results ?? []).filter((r: CheckResult) => r.id === id);
    if (results.length === 0) throw new CliError(`replay: the report has no check ${id}`);
    // The one rule for a base URL (core/client/baseUrl.ts), under the endpoint path the run posted to.
    const target = values.node === undefined ? undefined : baseUrl('replay', values.node, values['rpc-path'] ?? endpointPathOf(run), '--node');
    const result = results.find((r) => r.node === target) ?? results.find((r) => r.status === 'fail' || r.status === 'error') ?? results[0];
    if (!result) throw new CliError(`replay: the report has no check ${id}`);
    const exchanges = values.all ? result.evidence.exchanges : result.evidence.exchanges.slice(-1);
    if (exchanges.length === 0) throw new CliError(`replay: ${id} recorded no exchange to replay`);
    const cut = exchanges.find((ex) => ex.request.truncated === true);
    if (cut !== undefined) {
      const rerun = result.reproduce?.startsWith('chainrpc test') === true ? result.reproduce : `chainrpc test --url ${result.node} --only ${id}`;
      throw new CliError(`replay: the report keeps only the first 4 KiB of ${id}'s request body, so replay cannot send the same bytes again; run the check again instead: ${rerun}`);
    }
    // The profile is read before anything is sent: the check is judged again after the exchanges.
    const judge = await planCheckAgain(run, id, {
      profile: values.profile,
      rpcPath: values['rpc-path'] ?? endpointPathOf(run),
      methodPrefix: values['method-prefix'],
      blockTimeMs: values['block-time'],
      privateKey: values['private-key'],
    });
    console.log(`${id} was ${result.status.toUpperCase()} on ${result.node}: ${result.evidence.message}`);
    for (const ex of exchanges) {
      const url = new URL(ex.request.url);
      // To another node: the same path under its base URL as under the base URL of the node it went to.
      const elsewhere = target !== undefined && target !== result.node;
      const base = elsewhere ? target : url.origin;
      const path = elsewhere ? pathUnder(run, ex.request.url) : url.pathname;
      const client = createClient({ baseUrl: base, timeoutMs: 10_000 });
      try {
        console.log(`\n> ${ex.request.method} ${base}${path}`);
        for (const [k, v] of Object.entries(ex.request.headers)) console.log(`> ${k}: ${v}`);
        if (ex.request.body !== '') console.log(`>\n${ex.request.body}`);
        const res = await client.raw({ method: ex.request.method, path, headers: ex.request.headers, ...(ex.request.body === '' ? {} : { body: ex.request.body }) }).catch((err: unknown) => {
          throw isUnreachable(err) ? unreachable('replay', base, err.message) : err;
        });
        console.log(`\n< HTTP ${res.status}`);
        for (const [k, v] of Object.entries(res.headers)) console.log(`< ${k}: ${v}`);
        console.log(`<\n${res.text.slice(0, 4096)}${res.truncated ? '\n(truncated)' : ''}`);
        if (ex.response) console.log(`\nrecorded answer then: HTTP ${ex.response.status} ${ex.response.body.slice(0, 300)}`);
      } finally {
        await client.close();
      }
    }
    const now = await judge(target !== undefined && target !== result.node ? target : result.node);
    console.log(`\n${now.line}`);
    return 0;
  },
};
