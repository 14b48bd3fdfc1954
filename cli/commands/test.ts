import { relative } from 'node:path';
import type { Command } from '../Command.js';
import { CliError } from '../CliError.js';
import { CommandLine } from '../CommandLine.js';
import { METHOD_PREFIX, RPC_PATH, nodeUrlProblem } from '../commonOptions.js';
import { baseUrls } from '../nodeUrls.js';
import { interruptible } from './load/interrupt.js';
import { packageVersion } from '../../core/packageVersion.js';
import { ConsoleReporter } from '../../reports/conformance/consoleReporter.js';
import { CONFORMANCE_REPORT_KIND, renderReports } from '../../reports/conformance/writeReports.js';
import { checkReportRoot, DEFAULT_REPORT_DIR, publishReportFolder } from '../../reports/shared/reportFolder.js';
import { catalogue } from '../../suites/catalogue.js';
import type { Level } from '../../suites/model.js';
import { loadProfile, ProfileError } from '../../profile/loadProfile.js';
import { Baseline, BaselineError } from '../../suites/runner/Baseline.js';
import { runSuite } from '../../suites/runner/runSuite.js';
import { selectChecks } from '../../suites/runner/selectChecks.js';
import { shellQuote } from '../../suites/runner/shellQuote.js';
import { DETECTED_PROFILE_FILE } from '../../reports/fuzz/writeFuzzReports.js';
import { DETECT, detectTargetProfile } from './load/target.js';

const HELP = `Usage: chainrpc test --url <base-url> [--url <base-url> ...] [options]

Certifies one or several nodes through their JSON-RPC 2.0 interface (POST {base-url}/rpc, or the
profile's path): every check of the catalogue (chainrpc test --list) runs against every --url, plus
checks across all of them when there are several. Each check yields pass, fail (the node is
wrong), error (the tool, the network or the node's availability is wrong) or skip, with evidence.
Reports go to a folder whose path is printed: report.json, junit.xml, summary.md, report.html,
transcript.ndjson.

A node whose choices differ from the reference profile (method names, key names, encodings, error
codes, limits, ...) is described by a profile; \`chainrpc profile detect --url <base-url>\` writes a
draft of one. MUST and SHOULD checks accept every choice the spec leaves open.

A --url that already ends in the endpoint path (http://127.0.0.1:8545/rpc) is taken as the
endpoint's own URL: its base URL is what comes before the path, and a line on stderr says so.

Options:
  --url <base-url>       a node to test (repeatable); the endpoint is {base-url}/rpc
  --profile <file|detect>
                         profile JSON for a network whose choices differ from the reference
                         profile (see docs/profiles.md; chainrpc profile detect writes a draft);
                         detect: detected from the first --url before the checks, and written
                         beside the reports (profile.json). PROFILE checks then judge the node by
                         its own detected choices: certify against a reviewed profile file
  --rpc-path <path>      the endpoint's path under each base URL (default /rpc, or the
                         profile's rpcPath; / posts to the base URL itself)
  --method-prefix <p>    the prefix the node's methods carry in place of the spec's chain_
                         (e.g. acme_; the profile's methodPrefix)
  --only <pattern>       run only checks whose id matches (repeatable; * is a wildcard:
                         'transport/*', '*nonce*')
  --skip <pattern>       leave out checks whose id matches (repeatable)
  --level <level>        the lowest level whose failures fail the run: must (default), should, or
                         profile (gates on every level)
  --baseline <file>      expected failures: {"expectedFailures":[{"id","reason","expires"?,"node"?}]}
  --report-dir <dir>     where reports go: a new folder <dir>/<time> per run (default dir
                         ${DEFAULT_REPORT_DIR}); <dir>/latest (the newest run of any kind) and
                         <dir>/latest-conformance point at it. Nothing else in <dir> is touched;
                         a latest or latest-conformance that is not chainrpc's link is refused
  --private-key <hex>    a funded key for the state checks, where the network has no faucet
  --block-time <ms>      the network's block time (default: the profile's, 1000 for the reference)
  --concurrency <n>      checks running at once (default 16 per --url; those that wait for blocks start first)
  --timeout <ms>         per-check limit (default max(20 s, 20 block times))
  --deadline <s>         the whole run's limit; unfinished checks get an error verdict (default 300)
  --max-rate <n>         most requests per second to each node (default: no limit). A node that
                         answers HTTP 429 is asked again after its Retry-After (up to 4 times);
                         one that still refuses gives that check an error, never a failure
  --list                 print the checks (id, level, title) and exit
  -h, --help

Levels: MUST is stated by the spec or JSON-RPC 2.0; SHOULD is what any sound node does where the
spec is silent; PROFILE is the profile's exact choice.

Verdict: PASSED when nothing failed or lacked a verdict at the chosen level or above; CERTIFIED
when, besides, every MUST check ran and passed: none skipped, none excused by --baseline, none
left out by --only/--skip.

Exit codes: 0 passed (certified or not); 1 failures (or checks without a verdict) at or above
the chosen level; 2 usage or configuration error; 3 no target answered JSON-RPC; 4 internal error
(a bug in chainrpc: please report it); 130 interrupted (Ctrl-C): the report of what ran is
written, the checks it stopped are errors saying so (a second Ctrl-C quits at once).`;

const commandLine = new CommandLine('test', {
  url: { kind: 'list', value: '<base-url>', check: nodeUrlProblem },
  profile: { kind: 'text', value: '<file|detect>' },
  'rpc-path': RPC_PATH,
  'method-prefix': METHOD_PREFIX,
  only: { kind: 'list', value: '<pattern>' },
  skip: { kind: 'list', value: '<pattern>' },
  level: { kind: 'choice', value: '<level>', choices: ['must', 'should', 'profile'] },
  baseline: { kind: 'text', value: '<file>' },
  'report-dir': { kind: 'text', value: '<dir>' },
  // Never echoed in a message: it is a key.
  'private-key': { kind: 'text', value: '<hex>', check: (text) => (/^[0-9a-fA-F]{64}$/.test(text) ? undefined : 'must be 64 hex characters') },
  'block-time': { kind: 'integer', value: '<ms>', min: 1 },
  concurrency: { kind: 'integer', value: '<n>', min: 1 },
  timeout: { kind: 'integer', value: '<ms>', min: 1 },
  deadline: { kind: 'integer', value: '<s>', min: 1, default: 300 },
  'max-rate': { kind: 'integer', value: '<n>', min: 1 },
  list: { kind: 'flag' },
});

/** A path relative to the working directory when it lies below it, else absolute: what a user pastes. */
function relativeOrAbsolute(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') ? path : rel;
}

/** A word as one shell word: as it is when nothing in it is special to a shell, else quoted. */
const shellWord = (text: string): string => (/^[\w./@%+=:,-]+$/.test(text) ? text : shellQuote(text));

export const test: Command = {
  name: 'test',
  summary: 'Certify one or several nodes: graded checks, reports, CI exit codes',
  help: HELP,
  commandLines: [commandLine],
  async run(argv) {
    const { values } = commandLine.parse(argv);
    const { only, skip } = values;
    const all = catalogue();
    const checks = selectChecks(all, only, skip);
    if (values.list) {
      for (const c of checks) console.log(`${c.level.padEnd(8)}${c.id.padEnd(52)}${c.title}`);
      console.log(`${checks.length} checks`);
      return 0;
    }
    if (values.url.length === 0) throw new CliError('test: give at least one --url (the base URL of a node; the endpoint is {url}/rpc)');
    if (checks.length === 0) throw new CliError(`test: no check matches --only ${only.join(' ')} ${skip.length ? `--skip ${skip.join(' ')}` : ''} (see chainrpc test --list)`);
    const gate = (values.level ?? 'must').toUpperCase() as Level;
    let profile;
    let baseline;
    try {
      baseline = values.baseline === undefined ? undefined : Baseline.load(values.baseline);
      if (values.profile !== DETECT) profile = await loadProfile(values.profile);
    } catch (err) {
      if (err instanceof ProfileError || err instanceof BaselineError) throw CliError.within('test', err);
      throw err;
    }
    // --profile detect: what `chainrpc profile detect` would write for the first --url, said on stderr step by step.
    const detected = profile === undefined ? await detectTargetProfile('test', values) : undefined;
    profile ??= detected?.profile ?? (await loadProfile(undefined));
    if (values['private-key'] !== undefined) profile.privateKey = values['private-key'];
    if (values['block-time'] !== undefined) profile.blockTimeMs = values['block-time'];
    if (values['rpc-path'] !== undefined) profile.rpcPath = values['rpc-path'];
    if (values['method-prefix'] !== undefined) profile.methodPrefix = values['method-prefix'];
    // The endpoint path is known now: a --url that already ends in it is the endpoint's own URL (core/client/baseUrl.ts).
    const urls = baseUrls('test', values.url, profile.rpcPath);

    // Before the run: a report folder whose `latest` is a user's file or folder is refused (exit 2), not replaced.
    const reportDir = values['report-dir'] ?? DEFAULT_REPORT_DIR;
    checkReportRoot(reportDir, CONFORMANCE_REPORT_KIND);

    const reporter = new ConsoleReporter({ write: (text) => void process.stdout.write(text), live: process.stdout.isTTY && !process.env.CI, targets: urls });
    reporter.announce(checks.length, profile, gate);
    // Ctrl-C: the checks under way stop, the rest are not started, and the report of what ran is written (exit 130).
    const stop = interruptible('test: interrupted: stopping the checks, then writing the report of what ran');
    const { run, transcript } = await runSuite({
      signal: stop.signal,
      targets: urls,
      profile,
      checks,
      only,
      skip,
      mustLeftOut: all.filter((c) => c.level === 'MUST' && !checks.includes(c)).length,
      gate,
      ...(baseline ? { baseline } : {}),
      ...(values.concurrency !== undefined ? { concurrency: values.concurrency } : {}),
      ...(values.timeout !== undefined ? { checkTimeoutMs: values.timeout } : {}),
      ...(values['max-rate'] !== undefined ? { maxRatePerNode: values['max-rate'] } : {}),
      deadlineMs: values.deadline * 1000,
      version: packageVersion(),
      onResult: reporter.onResult,
      rerunArgs: [
        ...(values.profile === undefined ? [] : ['--profile', shellWord(values.profile)]),
        ...(values['rpc-path'] === undefined ? [] : ['--rpc-path', shellWord(values['rpc-path'])]),
        ...(values['method-prefix'] === undefined ? [] : ['--method-prefix', shellWord(values['method-prefix'])]),
        ...(values['block-time'] === undefined ? [] : ['--block-time', String(values['block-time'])]),
        ...(values.level === undefined ? [] : ['--level', shellWord(values.level)]),
        ...(values['max-rate'] === undefined ? [] : ['--max-rate', String(values['max-rate'])]),
      ],
    });
    stop.dispose();
    reporter.endProgress();

    const reports = renderReports(run, transcript);
    // A detected profile is kept beside the reports: what the run judged by, to review and to reuse (--profile <it>).
    const files = detected === undefined ? reports : { ...reports, profile: { name: DETECTED_PROFILE_FILE, text: `${JSON.stringify(detected.json, null, 2)}\n` } };
    const written = await publishReportFolder(reportDir, run.startedAt, files, CONFORMANCE_REPORT_KIND);
    reporter.summarize(run, {
      folder: relativeOrAbsolute(written.dir),
      html: written.files.html,
      replayReport: values['report-dir'] === undefined ? '' : ` --report ${shellWord(relativeOrAbsolute(written.files.json))}`,
    });
    return run.summary.exitCode;
  },
};
