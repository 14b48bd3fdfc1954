/**
 * `chainrpc fuzz`: looks for the one request that breaks a node (fuzz/): cases from the schemas and the
 * profile, oracles that know JSON-RPC 2.0, liveness after every blow, findings shrunk and replayable; with
 * several --url, valid cases compared across the nodes. `--replay <report.json> <finding-id>` sends a
 * finding's minimal case again. docs/fuzz.md.
 */
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from '../CliError.js';
import { CommandLine, type OptionValues } from '../CommandLine.js';
import type { Command } from '../Command.js';
import { positiveNumberProblem } from '../commonOptions.js';
import { baseUrls } from '../nodeUrls.js';
import { recordedCommand, relativeOrAbsolute } from './commandText.js';
import { interruptible } from './load/interrupt.js';
import { duration } from './load/scenarioOptions.js';
import { DETECT, detectTargetProfile, TARGET, needUrls, targetOptions, targetProfileAndSource, URL_RULE } from './load/target.js';
import { packageVersion } from '../../core/packageVersion.js';
import type { ProfileSource } from '../../profile/loadProfile.js';
import type { Profile } from '../../profile/Profile.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { parseDuration } from '../../load/scenario/parseDuration.js';
import { fuzzVerdict } from '../../fuzz/fuzzVerdict.js';
import type { Finding, FuzzRun } from '../../fuzz/model.js';
import { unknownOnly } from '../../fuzz/cases/CaseContext.js';
import { unobservedCodes, withoutUnobserved } from '../../fuzz/unobserved.js';
import type { DetectedProfileJson } from '../../profile/detect/buildProfileJson.js';
import { readFuzzReport, replayFinding, type FuzzReportRead } from '../../fuzz/run/replayFinding.js';
import { FuzzUnreachableError, runFuzz } from '../../fuzz/run/runFuzz.js';
import { findingHeadline, headlineLine, replayCommand } from '../../reports/fuzz/findingText.js';
import { fuzzHeadline } from '../../reports/fuzz/fuzzHeadline.js';
import { FuzzProgressLine } from '../../reports/fuzz/fuzzProgress.js';
import { FUZZ_REPORT_KIND, writeFuzzReports } from '../../reports/fuzz/writeFuzzReports.js';
import { checkReportRoot, DEFAULT_REPORT_DIR } from '../../reports/shared/reportFolder.js';

const DEFAULT_CASES = 10_000;

const HELP = `Usage: chainrpc fuzz --url <base-url> [--url <base-url> ...] [options]
       chainrpc fuzz --replay <report.json> <finding-id> [--url <base-url>]

Looks for the requests that break a node: cases drawn from the method schemas and the profile (valid
calls with params from the live chain, each param rule broken one at a time, envelope and body
mutations, HTTP variations), every answer judged by oracles that know JSON-RPC 2.0 (the envelope and
the id echo, an error for every invalid call, results valid under the profile, no stack trace or file
path in any answer, an answer in time), and the node's liveness probed after every case that could
hurt it. A finding is deduplicated (oracle, method, rule; a broken answer envelope by method and
kind, whatever the request's id or params), re-checked, shrunk to its minimal case keeping the same
violation, and saved with its seed, its exact bytes, a curl command and the replay command. A node
that stops answering is sent nothing more: its finding (liveness) names the request after which it
died, as sent (not shrunk: a dead node is sent nothing more), with the other candidates.

Several --url send every case to each node; valid cases' answers are also compared across them (a
disagreement the profile cannot excuse is a finding). Reports (report.json, report.html, summary.md,
junit.xml) go to a folder whose path is printed. docs/fuzz.md says what is generated and judged.

${URL_RULE}

Options:
${targetOptions('a node (repeatable: several are compared)')}
  --cases <n>              cases to send (default ${DEFAULT_CASES.toLocaleString('en-US')}; with --duration, whichever ends first)
  --duration <d>           time budget: 30s, 5m (without --cases: the only budget)
  --seed <n>               makes the run again case for case (default: random, printed)
  --only <what>            a method (chain_getAccount) or a family (valid, invalid-params, envelope,
                           http) to fuzz; repeatable (default: all)
  --concurrency <n>        cases in flight at once (default 4; 1: a probe after every case, so a
                           killing request is named exactly)
  --max-rate <n>           cases per second at most (default 5000): a fuzz run is not a load test
  --threads <1|2>          2: cases are made and answers judged on a second thread, beside the one
                           that sends: for long runs (50,000 cases and more) with a core to spare
                           beyond the node's (default 1; docs/fuzz.md, "Figures")
  --max-body <bytes>       request bodies stay under this (default: the profile's limit, else 1 MiB)
  --timeout <ms>           a case unanswered after this long is a finding (default 5000)
  --slow <ms>              the slow oracle's floor: an answer slower than max(this, 50x the median
                           answer) is a finding (default 1000)
  --liveness-every <n>     a liveness probe at least every n cases per node (default 100)
  --max-findings <n>       stop once n findings are filed (1: stop at the first; default: no limit)
  --seek slow              steer toward the inputs that cost the node the most time per request byte
                           (every other case grows one of the costliest so far) and report the top
                           ones against the median answer: the one-request denial-of-service search;
                           a case's cost is its own (sent again alone before it is ranked; unanswered
                           within --timeout: the costliest)
  --report-dir <dir>       where report folders go (default .chainrpc/reports)
  --replay <report.json>   send a finding's minimal case again (give its id, e.g. F1, after it);
                           to the node it was found on, or to --url; judged by the run's profile
                           file, which the report names (--profile <file> judges by another).
                           Exit 0: it no longer shows; 1: it shows again, or got no answer at all;
                           3: the node did not answer a known-good call before it
  -h, --help

Exit codes: 0 no finding (a flaky sighting, seen once and not when sent again, is said, not counted);
1 findings; 2 usage or configuration
error; 3 no node answered at the start; 4 internal error (a bug in chainrpc); 130 interrupted
(Ctrl-C): the report of what ran is written first.`;

const OPTIONS = {
  ...TARGET,
  cases: { kind: 'integer', value: '<n>', min: 1 },
  duration: { kind: 'text', value: '<d>', check: duration },
  seed: { kind: 'integer', value: '<n>', min: 0, max: 2 ** 32 - 1 },
  only: { kind: 'list', value: '<what>' },
  concurrency: { kind: 'integer', value: '<n>', min: 1, max: 256, default: 4 },
  'max-rate': { kind: 'text', value: '<n>', default: '5000', check: (t: string) => positiveNumberProblem(t, 'cases/s', 1_000_000) },
  'max-body': { kind: 'integer', value: '<bytes>', min: 16 },
  timeout: { kind: 'integer', value: '<ms>', min: 10, default: 5_000 },
  slow: { kind: 'integer', value: '<ms>', min: 1, default: 1_000 },
  'liveness-every': { kind: 'integer', value: '<n>', min: 1, default: 100 },
  'max-findings': { kind: 'integer', value: '<n>', min: 1 },
  seek: { kind: 'choice', value: '<what>', choices: ['none', 'slow'], default: 'none' },
  threads: { kind: 'integer', value: '<1|2>', min: 1, max: 2, default: 1 },
  'report-dir': { kind: 'text', value: '<dir>' },
  replay: { kind: 'text', value: '<report.json>' },
} as const;


const line = new CommandLine('fuzz', OPTIONS, true);

type FuzzValues = OptionValues<typeof OPTIONS>;

const COMMAND = 'fuzz';

export const fuzz: Command = {
  name: 'fuzz',
  summary: 'Find the requests that break a node: schema-driven cases, JSON-RPC oracles, shrunk findings',
  help: HELP,
  commandLines: [line],
  async run(argv) {
    const { values, positionals } = line.parse(argv);
    if (values.replay !== undefined) return replay(values, values.replay, positionals);
    if (positionals.length > 0) throw new CliError(`${COMMAND}: unexpected argument "${positionals[0] ?? ''}" (see chainrpc fuzz --help)`);
    return fuzzRun(argv, values);
  },
};

/** `--replay <report.json> <id>`: the finding's minimal case sent again, judged by the run's profile unless --profile names another. */
async function replay(values: FuzzValues, reportPath: string, positionals: readonly string[]): Promise<number> {
  const [id, ...extra] = positionals;
  if (id === undefined || extra.length > 0) throw new CliError(`${COMMAND}: --replay takes a report and one finding id: chainrpc fuzz --replay <report.json> F1`);
  const report = readFuzzReport(reportPath);
  const { profile } = await targetProfileAndSource(COMMAND, { ...values, profile: replayProfile(values.profile, report, reportPath), ...replayOverrides(values, report) });
  const urls = values.url.length > 0 ? baseUrls(COMMAND, values.url, profile.rpcPath) : [];
  return replayFinding({ reportPath, report, findingId: id, ...(urls[0] === undefined ? {} : { url: urls[0] }), profile, timeoutMs: values.timeout, out: (l) => console.log(l), headline: (f) => headlineLine(findingHeadline(f)) });
}

/**
 * The profile a replay judges by: --profile when given (it wins); else the file the run's report names
 * (options.profileFile), said on stderr, and a usage error (exit 2) when it is gone: judged by another
 * profile, a finding could seem fixed when nothing changed. Else the reference profile, with a warning when
 * the report names another profile without its file (a report written before it kept the file).
 */
export function replayProfile(given: string | undefined, report: FuzzReportRead, reportPath: string): string | undefined {
  if (given !== undefined) return given;
  const file = report.profileFile;
  if (file !== undefined) {
    if (!existsSync(file)) throw new CliError(`${COMMAND}: --replay ${reportPath}: its findings were judged by the profile ${file}, which is gone: give the same profile with --profile <file> (judged by another, a finding can seem fixed when nothing changed)`);
    console.error(`${COMMAND}: --replay: judging by the run's profile, ${file} (named in the report; --profile <file> judges by another)`);
    return file;
  }
  const reference = referenceProfile().name;
  if (report.profileName !== undefined && report.profileName !== reference) console.error(`${COMMAND}: --replay: the run was judged by the profile "${report.profileName}", whose file the report does not name: judging by the reference profile; give --profile <file> to judge by the run's`);
  return undefined;
}

/**
 * The run's --rpc-path and --method-prefix (the report keeps them; a profile's file does not hold them), said on
 * stderr when they apply; the replay's own, when given, win.
 */
function replayOverrides(values: FuzzValues, report: FuzzReportRead): { 'rpc-path'?: string; 'method-prefix'?: string } {
  const taken: { 'rpc-path'?: string; 'method-prefix'?: string } = {};
  if (values['rpc-path'] === undefined && report.rpcPath !== undefined) taken['rpc-path'] = report.rpcPath;
  if (values['method-prefix'] === undefined && report.methodPrefix !== undefined) taken['method-prefix'] = report.methodPrefix;
  const said = Object.entries(taken).map(([k, v]) => `--${k} ${v}`);
  if (said.length > 0) console.error(`${COMMAND}: --replay: with the run's ${said.join(' and ')} (named in the report)`);
  return taken;
}

/** A fuzz run: the profile (detected, a file, or the reference), the run, its reports, and what the console says of them. */
async function fuzzRun(argv: readonly string[], values: FuzzValues): Promise<number> {
  const detected = values.profile === DETECT ? notObserved(await detectTargetProfile(COMMAND, values)) : undefined;
  const chosen = detected === undefined ? await targetProfileAndSource(COMMAND, values) : { profile: detected.profile, source: { json: detected.json, name: 'the detected profile' } };
  const profile = chosen.profile;
  needUrls(COMMAND, values.url);
  const urls = baseUrls(COMMAND, values.url, profile.rpcPath);
  const unknown = unknownOnly(values.only);
  if (unknown.length > 0) throw new CliError(`${COMMAND}: --only ${unknown.join(', ')}: give a method of the interface (chain_getAccount; chainrpc methods lists them) or a family (valid, invalid-params, envelope, http)`);
  // A folder that cannot take the report is said now, not after a long run.
  checkReportRoot(values['report-dir'] ?? DEFAULT_REPORT_DIR, FUZZ_REPORT_KIND);
  // Judged by the reference profile, another team's node would show its own limits and codes as findings.
  if (values.profile === undefined) console.error(`${COMMAND}: judging by the reference profile (its limits: batches of ${profile.maxBatch ?? 'any size'}, bodies of ${profile.maxBodyBytes ?? 'any size'} bytes; its error codes); for a node of another network, --profile <file> or --profile detect`);
  const run = await runOnce(values, urls, chosen, detected?.unobserved ?? []);
  const written = await writeFuzzReports(run, { ...(values['report-dir'] === undefined ? {} : { dir: values['report-dir'] }), command: recordedCommand(COMMAND, argv), ...(detected === undefined ? {} : { detectedProfile: detected.json }) });
  const verdict = fuzzVerdict(run);
  console.log(fuzzHeadline(run).line);
  const said = (f: Finding): string => `  ${f.id} ${f.oracle}${f.method === undefined ? '' : ` ${f.method}`}: ${headlineLine(findingHeadline(f))}`;
  for (const f of verdict.standing) console.log(said(f));
  if (verdict.flaky.length > 0) console.log('flaky sightings (seen once, not when sent again; not counted):');
  for (const f of verdict.flaky) console.log(said(f));
  console.log(`reports: ${relativeOrAbsolute(written.dir)}`);
  console.log(`HTML report: ${written.files.html}`);
  // The detected profile beside the report: the run's findings are judged by it, and a replay loads it.
  if (detected !== undefined && written.profileFile !== undefined) console.log(`profile detected (${detected.summary}): ${relativeOrAbsolute(written.profileFile)}`);
  for (const [i, k] of (run.costly ?? []).slice(0, 3).entries()) console.log(`${i === 0 ? 'most costly (--seek slow; each timed alone):\n' : ''}  ${k.case.answer.failure === undefined ? `${k.case.answer.ms.toFixed(1)} ms, ${k.costRatio}x the median answer` : `no answer within ${Math.round(k.case.answer.ms)} ms (over ${k.costRatio}x the median answer)`}, ${Buffer.from(k.case.http.bodyBase64, 'base64').length} bytes: ${k.case.title}`);
  const first = verdict.standing[0];
  if (first !== undefined) console.log(`replay one: ${replayCommand(first.id, relativeOrAbsolute(written.files.json), written.profileFile === undefined ? undefined : relativeOrAbsolute(written.profileFile), run.options)}`);
  return verdict.exitCode;
}

/**
 * A detected profile judged only by what detection observed: the error codes it left to the reference defaults
 * (fuzz/unobserved.ts) are not compared (null), in the profile the run judges by and in the file written beside its
 * report (what --replay judges by), and said on stderr and in the report (options.unobserved).
 */
function notObserved<D extends { profile: Profile; json: DetectedProfileJson; summary: string }>(detected: D): D & { unobserved: string[] } {
  const unobserved = unobservedCodes(detected.json);
  if (unobserved.length === 0) return { ...detected, unobserved };
  console.error(`${COMMAND}: detect did not observe ${unobserved.join(', ')} (left to the reference defaults): not compared in this run (their codes null)`);
  const errorCodes = { ...detected.profile.errorCodes };
  for (const key of unobserved) errorCodes[key.slice('errorCodes.'.length)] = null;
  return { ...detected, profile: { ...detected.profile, errorCodes }, json: withoutUnobserved(detected.json, unobserved), unobserved };
}

/** The run itself, under the progress line and Ctrl-C; no node answering at the start is exit 3. */
async function runOnce(values: FuzzValues, urls: string[], chosen: { profile: Profile; source: ProfileSource }, unobserved: readonly string[]): Promise<FuzzRun> {
  const { profile } = chosen;
  const durationMs = values.duration === undefined ? null : parseDuration(values.duration);
  const seed = values.seed ?? randomInt(0, 2 ** 32 - 1);
  const progress = new FuzzProgressLine(process.stderr);
  const stop = interruptible('fuzz: interrupted: stopping, then writing the report of what ran');
  console.error(`${COMMAND}: seed ${seed} (--seed ${seed} makes this run again), ${urls.join(', ')}`);
  try {
    return await runFuzz({
      urls,
      profile,
      profileSource: chosen.source,
      // The file as the user gave it, made absolute: the report is read back from anywhere.
      ...(typeof chosen.source === 'string' ? { profileFile: resolve(chosen.source) } : {}),
      overrides: {
        ...(values['rpc-path'] === undefined ? {} : { rpcPath: values['rpc-path'] }),
        ...(values['method-prefix'] === undefined ? {} : { methodPrefix: values['method-prefix'] }),
      },
      ...(unobserved.length === 0 ? {} : { unobserved }),
      seed,
      cases: values.cases ?? (durationMs === null ? DEFAULT_CASES : null),
      durationMs,
      only: values.only,
      concurrency: values.concurrency,
      maxRate: Number(values['max-rate']),
      maxBodyBytes: values['max-body'] ?? Math.min(profile.maxBodyBytes ?? 1024 * 1024, 1024 * 1024),
      timeoutMs: values.timeout,
      slowFloorMs: values.slow,
      livenessEvery: values['liveness-every'],
      ...(values['max-findings'] === undefined ? {} : { maxFindings: values['max-findings'] }),
      seek: values.seek,
      threads: values.threads === 2 ? 2 : 1,
      version: packageVersion(),
      signal: stop.signal,
      onProgress: (p) => progress.update(p),
      onFinding: (f) => progress.finding(f),
    });
  } catch (err) {
    if (err instanceof FuzzUnreachableError) throw CliError.within(COMMAND, err);
    throw err;
  } finally {
    stop.dispose();
    progress.done();
  }
}
