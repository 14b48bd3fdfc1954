/**
 * `chainrpc load k6 <scenario>`: the scenario written as a k6 test (load/k6/writeK6Script.ts), with data drawn
 * from the node's chain, and optionally a k6-operator TestRun; then the commands that run it (k6Recipe.ts).
 */
import { JsonRpcError } from '../../../core/client/index.js';
import { existsSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CliError } from '../../CliError.js';
import { CommandLine } from '../../CommandLine.js';
import { baseUrls } from '../../nodeUrls.js';
import { packageVersion } from '../../../core/packageVersion.js';
import { claimFolder, NotOursError, OWNED_MARKER, removeFolder } from '../../../core/files/ownedFolder.js';
import { CorpusError, FundingError } from '../../../load/corpus/CorpusError.js';
import { operatorManifest, OperatorManifestError } from '../../../load/k6/operatorManifest.js';
import { checkK6Scenario, K6_FOLDER, K6_WORK_FOLDER, K6Unsupported, writeK6Script } from '../../../load/k6/writeK6Script.js';
import { prepareTarget } from '../../../load/runLoad.js';
import type { Profile } from '../../../profile/Profile.js';
import { referenceProfile } from '../../../profile/referenceProfile.js';
import { relativeOrAbsolute } from '../commandText.js';
import { interruptible } from './interrupt.js';
import { k6Recipe } from './k6Recipe.js';
import { overridesOf, SCENARIO_OPTIONS, SCENARIO_OVERRIDES, scenarioName, scenarioOf, SEED } from './scenarioOptions.js';
import { DETECT, needUrls, PRIVATE_KEY, TARGET, targetFailure, targetOptions, targetProfileAndSource, URL_RULE } from './target.js';

/** Where `chainrpc load k6` writes a scenario's k6 test unless told (git-ignored, like the reports). */
export const DEFAULT_K6_DIR = '.chainrpc/k6';

export const K6_HELP = `Usage: chainrpc load k6 <scenario> --url <base-url> [--out <dir>] [--segments <n>]
                        [--operator <name>] [options]

Writes the scenario as a k6 test (script.js, its runtime and data, the corpus) for k6 0.48 or later,
drawing params from --url's chain as the Node engine does, and prints the commands that run it. Each
k6 instance writes a chainrpc-summary*.json that chainrpc load merge adds up exactly into one report
like chainrpc load's (docs/load.md, "Running distributed"). What k6 cannot express (Poisson arrivals,
transactions in batches, ...) is refused before the node is touched; a command that fails before the
test is written leaves --out as it found it (a folder it made is removed).

${URL_RULE}

Options:
${targetOptions('the node whose chain the data is drawn from (one)')}
${SCENARIO_OPTIONS}
  --out <dir>              where the test goes (default ${DEFAULT_K6_DIR}/<scenario>): a new or empty
                           folder, or one chainrpc load k6 made (its files are replaced, k6's
                           summaries kept); a folder holding anything else is refused (exit 2)
  --segments <n>           print the k6 commands of an n-way split (execution segments)
  --operator <name>        also write testrun.yaml: a ConfigMap and a k6-operator TestRun of n runners
  --summary-claim <pvc>    the TestRun's runners write their summaries to this PersistentVolumeClaim
  -h, --help

Exit codes: 0 the test written; 1 setup could not fund its senders; 2 usage error, or a scenario k6
cannot run; 3 the node did not answer; 4 internal error (a bug in chainrpc); 130 interrupted
(Ctrl-C): nothing is written.`;

export const k6Line = new CommandLine('load k6', {
  ...TARGET,
  ...SCENARIO_OVERRIDES,
  seed: SEED,
  'private-key': PRIVATE_KEY,
  out: { kind: 'text', value: '<dir>' },
  segments: { kind: 'integer', value: '<n>', min: 1, max: 1000 },
  operator: { kind: 'text', value: '<name>', check: (t: string) => (/^[a-z0-9]([-a-z0-9]{0,50}[a-z0-9])?$/.test(t) ? undefined : 'must be a Kubernetes name: lower-case letters, digits and -, at most 52') },
  'summary-claim': { kind: 'text', value: '<pvc>' },
} as const, true);

/** Runs `chainrpc load k6 <scenario>`; resolves to 0 when the test is written. */
export async function k6Command(argv: string[]): Promise<number> {
  const command = 'load k6';
  const { values, positionals } = k6Line.parse(argv);
  const name = scenarioName(command, positionals);
  needUrls(command, values.url);
  if (values.url.length > 1) throw new CliError(`${command}: give one --url (the node whose chain the data is drawn from; run the script once per node)`);
  const scenario = scenarioOf(command, name, overridesOf(values));
  // What k6 cannot express is refused before the node is touched: before --profile detect too (the refusals do
  // not depend on the profile's names).
  if (values.profile === DETECT) refuseUnsupported(command, scenario, referenceProfile());
  const { profile, source: profileSource } = await targetProfileAndSource(command, values);
  const [url] = baseUrls(command, values.url, profile.rpcPath) as [string];
  const out = values.out ?? join(DEFAULT_K6_DIR, scenario.name);
  refuseUnsupported(command, scenario, profile);
  let written;
  // A folder of the user's is refused before the node is touched (exit 2); a test chainrpc made is made again.
  const folder = claimTestFolder(out);
  const stop = interruptible(`${command}: interrupted: stopping; nothing will be written`);
  try {
    const prepared = await prepareTarget(url, { scenario, profile, profileSource, signal: stop.signal, log: (line) => process.stdout.write(`${line}\n`) }, join(out, K6_WORK_FOLDER));
    stop.signal.throwIfAborted();
    written = writeK6Script({ scenario, url, profile, prepared, out, version: packageVersion(), ...(values.segments === undefined ? {} : { segments: values.segments }) });
    // The corpus was copied beside the script; the setup's own copy is not part of the test.
    rmSync(join(out, K6_WORK_FOLDER), { recursive: true, force: true });
  } catch (err) {
    // Nothing half made is left, whatever stopped it (Ctrl-C, a node that does not answer, funding refused).
    folder.undo();
    if (stop.interrupted()) throw new CliError(`${command}: interrupted: nothing was written`, 'interrupted');
    const failure = targetFailure(command, url, err);
    if (failure !== undefined) throw failure;
    // A JSON-RPC error the node gave to the setup's own calls (an account read, a faucet claim): said as this command's.
    if (err instanceof FundingError || err instanceof CorpusError || err instanceof JsonRpcError) throw CliError.within(command, err);
    if (err instanceof K6Unsupported) throw CliError.within(`${command}: k6 cannot run this scenario`, err);
    throw err;
  } finally {
    stop.dispose();
  }
  const dir = relativeOrAbsolute(written.dir);
  const segments = values.segments ?? 1;
  const testRun = values.operator === undefined ? undefined : writeTestRun(command, written, dir, { name: values.operator, parallelism: segments, summaryClaim: values['summary-claim'] });
  const lines = k6Recipe({ scenario: scenario.name, dir, files: written.files, notJudged: written.notJudged, segments, sendsTransactions: scenario.transactions !== undefined, testRun });
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** What k6 cannot run in the scenario (checkK6Scenario): a usage error naming the feature (exit 2). */
function refuseUnsupported(command: string, scenario: Parameters<typeof checkK6Scenario>[0], profile: Profile): void {
  try {
    checkK6Scenario(scenario, profile);
  } catch (err) {
    if (err instanceof K6Unsupported) throw CliError.within(`${command}: k6 cannot run this scenario`, err);
    throw err;
  }
}

/**
 * --out claimed for the test (claimFolder), and `undo`, for a failure before the test is written: it puts back
 * what was there. A folder this run made goes, with the parents it made when nothing else is in them; a folder
 * that was there loses only what this run put into it (the setup's .work, and the marker it added to an empty
 * folder or an unmarked test of before markers).
 */
export function claimTestFolder(out: string): { undo: () => void } {
  const made: string[] = [];
  for (let at = resolve(out); !existsSync(at) && dirname(at) !== at; at = dirname(at)) made.push(at);
  const claim = claimFolder(out, K6_FOLDER);
  const undo = (): void => {
    try {
      if (claim === 'made') {
        removeFolder(out, K6_FOLDER);
        for (const parent of made.slice(1)) rmdirSync(parent);
        return;
      }
      rmSync(join(out, K6_WORK_FOLDER), { recursive: true, force: true });
      if (claim !== 'marked') rmSync(join(out, OWNED_MARKER), { force: true });
    } catch (err) {
      // A parent that now holds something else stays; so does a folder whose marker someone removed meanwhile.
      const code = (err as NodeJS.ErrnoException).code;
      if (!(err instanceof NotOursError) && code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOENT') throw err;
    }
  };
  return { undo };
}

/** Writes testrun.yaml beside the test (a ConfigMap of its files and a k6-operator TestRun); returns its path as printed. */
function writeTestRun(command: string, written: { dir: string; files: readonly string[] }, dir: string, run: { name: string; parallelism: number; summaryClaim: string | undefined }): string {
  // The runners of a TestRun get no instance of their own to pick a corpus share by: they read the whole corpus.
  const files = Object.fromEntries(written.files.filter((f) => !/^corpus-\d+-of-\d+\.json$/.test(f)).map((f) => [f, readFileSync(join(written.dir, f), 'utf8')]));
  let manifest: string;
  try {
    manifest = operatorManifest({ name: run.name, parallelism: run.parallelism, files, script: 'script.js', ...(run.summaryClaim === undefined ? {} : { summaryClaim: run.summaryClaim }) });
  } catch (err) {
    // Too large for a ConfigMap, a name Kubernetes refuses: the test itself is written, the manifest is not.
    if (err instanceof OperatorManifestError) throw CliError.within(`${command}: the test is in ${dir}, but no testrun.yaml`, err);
    throw err;
  }
  writeFileSync(join(written.dir, 'testrun.yaml'), manifest);
  return join(dir, 'testrun.yaml');
}
