import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import type { Command } from '../Command.js';
import { CliError } from '../CliError.js';
import { ConsoleReporter } from '../../reports/conformance/consoleReporter.js';
import { renderReports } from '../../reports/conformance/writeReports.js';
import { DEFAULT_REPORT_DIR, publishReportFolder } from '../../reports/shared/reportFolder.js';
import { catalogue } from '../../suites/catalogue.js';
import type { Level } from '../../suites/model.js';
import { LEVELS } from '../../suites/model.js';
import { loadProfile, ProfileError } from '../../suites/profile/loadProfile.js';
import { Baseline, BaselineError } from '../../suites/runner/Baseline.js';
import { runSuite } from '../../suites/runner/runSuite.js';
import { selectChecks } from '../../suites/runner/selectChecks.js';
import { shellQuote } from '../../suites/runner/shellQuote.js';
import { packageRoot } from '../../core/paths.js';
import { readFileSync } from 'node:fs';

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

Options:
  --url <base-url>       a node to test (repeatable); the endpoint is {base-url}/rpc
  --profile <file>       profile JSON for a network whose choices differ from the reference
                         profile (see docs/profiles.md; chainrpc profile detect writes a draft)
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
  --report-dir <dir>     where reports go (default ${DEFAULT_REPORT_DIR}/<time>; <dir>/latest
                         points at the newest)
  --private-key <hex>    a funded key for the state checks, where the network has no faucet
  --block-time <ms>      the network's block time (default: the profile's, 1000 for the reference)
  --concurrency <n>      checks running at once (default 8)
  --timeout <ms>         per-check limit (default max(20 s, 20 block times))
  --deadline <s>         the whole run's limit; unfinished checks get an error verdict (default 300)
  --list                 print the checks (id, level, title) and exit
  -h, --help

Levels: MUST is stated by the spec or JSON-RPC 2.0; SHOULD is what any sound node does where the
spec is silent; PROFILE is the profile's exact choice.

Exit codes: 0 passed at the chosen level (certified when it is must); 1 failures (or checks
without a verdict) at or above the chosen level; 2 usage or configuration error; 3 no target
answered JSON-RPC.`;

function parseLevel(text: string | undefined): Level {
  const level = (text ?? 'must').toUpperCase();
  if (!LEVELS.includes(level as Level)) throw new CliError(`test: --level must be must, should or profile; got "${text}"`);
  return level as Level;
}

function positiveInt(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new CliError(`test: ${flag} must be a positive integer; got "${text}"`);
  return n;
}

/** A path relative to the working directory when it lies below it, else absolute: what a user pastes. */
function relativeOrAbsolute(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') ? path : rel;
}

/** A word as one shell word: as it is when nothing in it is special to a shell, else quoted. */
const shellWord = (text: string): string => (/^[\w./@%+=:,-]+$/.test(text) ? text : shellQuote(text));

function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

export const test: Command = {
  name: 'test',
  summary: 'Certify one or several nodes: graded checks, reports, CI exit codes',
  help: HELP,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        url: { type: 'string', multiple: true },
        profile: { type: 'string' },
        only: { type: 'string', multiple: true },
        skip: { type: 'string', multiple: true },
        level: { type: 'string' },
        baseline: { type: 'string' },
        'report-dir': { type: 'string' },
        'private-key': { type: 'string' },
        'block-time': { type: 'string' },
        concurrency: { type: 'string' },
        timeout: { type: 'string' },
        deadline: { type: 'string' },
        'rpc-path': { type: 'string' },
        'method-prefix': { type: 'string' },
        list: { type: 'boolean', default: false },
      },
    });
    const only = values.only ?? [];
    const skip = values.skip ?? [];
    const checks = selectChecks(catalogue(), only, skip);
    if (values.list) {
      for (const c of checks) console.log(`${c.level.padEnd(8)}${c.id.padEnd(52)}${c.title}`);
      console.log(`${checks.length} checks`);
      return 0;
    }
    const urls = (values.url ?? []).map((u) => u.replace(/\/+$/, ''));
    if (urls.length === 0) throw new CliError('test: give at least one --url (the base URL of a node; the endpoint is {url}/rpc)');
    for (const u of urls) {
      let parsed: URL;
      try {
        parsed = new URL(u);
      } catch {
        throw new CliError(`test: --url ${u} is not a URL (e.g. http://127.0.0.1:8545)`);
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new CliError(`test: --url ${u} must be http or https`);
    }
    if (new Set(urls).size !== urls.length) throw new CliError('test: the same --url is given twice');
    if (checks.length === 0) throw new CliError(`test: no check matches --only ${only.join(' ')} ${skip.length ? `--skip ${skip.join(' ')}` : ''} (see chainrpc test --list)`);
    const gate = parseLevel(values.level);
    let profile;
    let baseline;
    try {
      profile = await loadProfile(values.profile);
      baseline = values.baseline === undefined ? undefined : Baseline.load(values.baseline);
    } catch (err) {
      if (err instanceof ProfileError || err instanceof BaselineError) throw new CliError(`test: ${err.message}`);
      throw err;
    }
    if (values['private-key'] !== undefined) {
      if (!/^[0-9a-fA-F]{64}$/.test(values['private-key'])) throw new CliError('test: --private-key must be 64 hex characters');
      profile.privateKey = values['private-key'];
    }
    const blockTime = positiveInt(values['block-time'], '--block-time');
    if (blockTime !== undefined) profile.blockTimeMs = blockTime;
    if (values['rpc-path'] !== undefined) {
      if (!/^\/[^\s?#]*$/.test(values['rpc-path'])) throw new CliError(`test: --rpc-path must be a path such as /rpc, / or /v1/jsonrpc; got "${values['rpc-path']}"`);
      profile.rpcPath = values['rpc-path'];
    }
    if (values['method-prefix'] !== undefined) {
      if (!/^[A-Za-z0-9_.]*$/.test(values['method-prefix'])) throw new CliError('test: --method-prefix must be letters, digits, _ or . (e.g. acme_)');
      profile.methodPrefix = values['method-prefix'];
    }
    const deadlineS = positiveInt(values.deadline, '--deadline') ?? 300;

    const reporter = new ConsoleReporter({ write: (text) => void process.stdout.write(text), live: process.stdout.isTTY && !process.env.CI, targets: urls });
    reporter.announce(checks.length, profile, gate);
    const { run, transcript } = await runSuite({
      targets: urls,
      profile,
      checks,
      only,
      skip,
      gate,
      ...(baseline ? { baseline } : {}),
      ...(positiveInt(values.concurrency, '--concurrency') !== undefined ? { concurrency: positiveInt(values.concurrency, '--concurrency') as number } : {}),
      ...(positiveInt(values.timeout, '--timeout') !== undefined ? { checkTimeoutMs: positiveInt(values.timeout, '--timeout') as number } : {}),
      deadlineMs: deadlineS * 1000,
      version: version(),
      onResult: reporter.onResult,
      rerunArgs: [
        ...(values.profile === undefined ? [] : ['--profile', shellWord(values.profile)]),
        ...(values['rpc-path'] === undefined ? [] : ['--rpc-path', shellWord(values['rpc-path'])]),
        ...(values['method-prefix'] === undefined ? [] : ['--method-prefix', shellWord(values['method-prefix'])]),
        ...(values['block-time'] === undefined ? [] : ['--block-time', shellWord(values['block-time'])]),
        ...(values.level === undefined ? [] : ['--level', shellWord(values.level)]),
      ],
    });
    reporter.endProgress();

    const written = await publishReportFolder(values['report-dir'] ?? DEFAULT_REPORT_DIR, run.startedAt, renderReports(run, transcript));
    reporter.summarize(run, {
      folder: relativeOrAbsolute(written.dir),
      html: written.files.html,
      replayReport: values['report-dir'] === undefined ? '' : ` --report ${shellWord(relativeOrAbsolute(written.files.json))}`,
    });
    return run.summary.exitCode;
  },
};
