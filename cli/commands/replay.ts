import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from '../Command.js';
import { CliError } from '../CliError.js';
import { CommandLine } from '../CommandLine.js';
import { createClient } from '../../core/client/index.js';
import type { CheckResult, RunResult } from '../../suites/model.js';
import { DEFAULT_REPORT_DIR } from '../../reports/shared/reportFolder.js';

const HELP = `Usage: chainrpc replay <check-id> [--report <report.json>] [--node <base-url>] [--all]

Sends the last exchange of a check from a previous chainrpc test run again (the one that showed
the failure; --all: every exchange), byte for byte, and prints
what the node answers now: the quickest way to see whether a fix works. Reads the newest report
(${DEFAULT_REPORT_DIR}/latest/report.json) unless --report names another.

Options:
  --report <file>    the report.json to read
  --node <base-url>  which node's result to replay when the check ran on several (default: the
                     first that failed), or another node to send the same bytes to
  --all              replay every exchange of the check, not only the last
  -h, --help

Exit codes: 0 the request was sent again and the answer is shown (whatever it says); 2 usage error
(no such report or check); 3 the node is unreachable; 4 internal error (a bug in chainrpc).`;

const commandLine = new CommandLine(
  'replay',
  {
    report: { kind: 'text', value: '<file>' },
    node: { kind: 'text', value: '<base-url>' },
    all: { kind: 'flag' },
  },
  true,
);

export const replay: Command = {
  name: 'replay',
  summary: "Send a check's recorded requests again and show the node's answers",
  help: HELP,
  commandLines: [commandLine],
  async run(argv) {
    const { values, positionals } = commandLine.parse(argv);
    const [id] = positionals;
    if (id === undefined || positionals.length > 1) throw new CliError('replay: name one check id (see the report, or chainrpc test --list)');
    const path = values.report ?? join(DEFAULT_REPORT_DIR, 'latest', 'report.json');
    if (!existsSync(path)) throw new CliError(`replay: no report at ${path}; run chainrpc test first or give --report`);
    let run: RunResult;
    try {
      run = JSON.parse(readFileSync(path, 'utf8')) as RunResult;
    } catch (err) {
      throw new CliError(`replay: ${path} is not a report: ${(err as Error).message}`);
    }
    // The report folder and its latest link are shared by every kind of run: only a conformance report has checks to replay.
    const format: unknown = (run as { format?: unknown }).format;
    if (typeof format !== 'string' || !format.startsWith('chainrpc-report/')) throw new CliError(`replay: ${path} is not the report of a chainrpc test run (format ${JSON.stringify(format) ?? 'missing'}); give --report <report.json>`);
    const results = (run.results ?? []).filter((r: CheckResult) => r.id === id);
    if (results.length === 0) throw new CliError(`replay: the report has no check ${id}`);
    const target = values.node?.replace(/\/+$/, '');
    const result = results.find((r) => r.node === target) ?? results.find((r) => r.status === 'fail' || r.status === 'error') ?? results[0];
    if (!result) throw new CliError(`replay: the report has no check ${id}`);
    const exchanges = values.all ? result.evidence.exchanges : result.evidence.exchanges.slice(-1);
    if (exchanges.length === 0) throw new CliError(`replay: ${id} recorded no exchange to replay`);
    const cut = exchanges.find((ex) => ex.request.truncated === true);
    if (cut !== undefined) {
      const rerun = result.reproduce?.startsWith('chainrpc test') === true ? result.reproduce : `chainrpc test --url ${result.node} --only ${id}`;
      throw new CliError(`replay: the report keeps only the first 4 KiB of ${id}'s request body, so replay cannot send the same bytes again; run the check again instead: ${rerun}`);
    }
    console.log(`${id} was ${result.status.toUpperCase()} on ${result.node}: ${result.evidence.message}`);
    for (const ex of exchanges) {
      const url = new URL(ex.request.url);
      const base = target && target !== result.node ? target : url.origin;
      const client = createClient({ baseUrl: base, timeoutMs: 10_000 });
      try {
        console.log(`\n> ${ex.request.method} ${base}${url.pathname}`);
        for (const [k, v] of Object.entries(ex.request.headers)) console.log(`> ${k}: ${v}`);
        if (ex.request.body !== '') console.log(`>\n${ex.request.body}`);
        const res = await client.raw({ method: ex.request.method, path: url.pathname, headers: ex.request.headers, ...(ex.request.body === '' ? {} : { body: ex.request.body }) });
        console.log(`\n< HTTP ${res.status}`);
        for (const [k, v] of Object.entries(res.headers)) console.log(`< ${k}: ${v}`);
        console.log(`<\n${res.text.slice(0, 4096)}${res.truncated ? '\n(truncated)' : ''}`);
        if (ex.response) console.log(`\nrecorded answer then: HTTP ${ex.response.status} ${ex.response.body.slice(0, 300)}`);
      } finally {
        await client.close();
      }
    }
    return 0;
  },
};
