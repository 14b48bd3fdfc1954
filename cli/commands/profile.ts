import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { Command } from '../Command.js';
import { CliError, EXIT } from '../CliError.js';
import { CommandLine } from '../CommandLine.js';
import { METHOD_PREFIX, RPC_PATH, nodeUrlProblem } from '../commonOptions.js';
import { baseUrl, unreachable } from '../nodeUrls.js';
import { DEFAULT_RPC_PATH } from '../../core/client/baseUrl.js';
import { writeFileAtomically } from '../../core/files/AtomicFile.js';
import { claimFile, jsonFileIs } from '../../core/files/ownedFolder.js';
import { ProfileError } from '../../profile/loadProfile.js';
import type { TxCodec } from '../../profile/TxCodec.js';
import { DEFAULT_DEADLINE_MS, detectProfile } from '../../profile/detect/detectProfile.js';
import { detectSummary, formatFindings } from '../../profile/detect/formatFindings.js';
import { loadCodecModule } from '../../profile/detect/loadCodecModule.js';
import { NoRpcEndpointError } from '../../profile/detect/NoRpcEndpointError.js';
import { MAX_REQUESTS, REQUEST_TIMEOUT_MS } from '../../profile/detect/Prober.js';
import { RISES, RISES_SPAN_MS, SAMPLE_EVERY_MS, SAMPLE_FOR_MS } from '../../profile/detect/sampleHeights.js';

const HELP = `Usage: chainrpc profile detect --url <base-url> [--out <file>] [options]

Subcommands (each with its own --help):
  detect    probes a node from outside and writes a DRAFT profile (docs/profiles.md) for it: for
            every choice the spec leaves open, the value found, its evidence and a confidence
            (chainrpc profile detect --help)

Options:
  -h, --help

Exit codes: 0 a draft was written; 2 usage error; 3 nothing answered JSON-RPC at the URL; 4 internal
error (a bug in chainrpc); 130 interrupted (Ctrl-C): no draft written.`;

/**
 * The requests a detection makes against a reference node besides the height reads (DetectResult's
 * requests less heightReads), as measured; test/docs.test.ts measures it again and holds the help to it.
 */
export const DETECT_REQUESTS = 100;

const DETECT_HELP = `Usage: chainrpc profile detect --url <base-url> [--out <file>] [options]

Probes a node from outside and writes a DRAFT profile (docs/profiles.md) for it: for every choice
the spec leaves open (endpoint path, method names, result keys, integer and hex encodings, unknown
heights and accounts, error codes, HTTP statuses, param leniency, faucet, transactions, block time,
batch and body limits) the value it found, the evidence that decided it and a confidence (high,
medium, low). Keys nothing from outside can show (fee, privateKey, the codes of an internal error,
a full mempool, an empty faucet, an unavailable node) keep the reference profile's values and are
listed as such. Review the draft, then test the node against it. See docs/profile-detect.md.

What it sends, besides reads: up to 5 faucet claims for one fresh address (--no-faucet to skip);
transactions from fresh keys: a free transfer (value 0, fee 0), its follow-ups and deliberately bad
ones (--no-transactions to skip; a node that refuses free transfers gets one funded by the faucet
claim, with a fee of 10^15 base units); request bodies of up to 16 MiB and batches of up to 4096
calls to find the limits (--no-limits to skip).

Against the reference node it sends about ${DETECT_REQUESTS} requests, plus the reads of the height that sample
the block time: one every ${SAMPLE_EVERY_MS} ms until the height has risen ${RISES} times over at least ${RISES_SPAN_MS} ms, at
most ${SAMPLE_FOR_MS / 1000} s (about 3 block times: some 60 reads on a chain of 1 s blocks, so about 160 requests in
all). Never more than ${MAX_REQUESTS} requests; each is limited to ${REQUEST_TIMEOUT_MS / 1000} s and the whole detection to --deadline.
A server that answers neither of the first two endpoint paths in time is given up on (exit 3).

A --url that already ends in the endpoint path (--rpc-path, or /rpc when none is given) is taken as
the endpoint's own URL: its base URL is what comes before the path, and a line on stderr says so.

Options:
  --url <base-url>       the node's base URL (required)
  --out <file>           write the profile JSON there and print the findings table to stdout;
                         without it the JSON goes to stdout and the table to stderr. A new file,
                         or a draft chainrpc wrote; any other file is refused before any probe
  --rpc-path <path>      the endpoint's path, when known (default: the first of /rpc, /,
                         /v1/jsonrpc, /jsonrpc, /api, /json-rpc, /rpc/v1 that answers JSON-RPC)
  --method-prefix <p>    the method prefix, when known (default: matched from the node's listing
                         of its methods, rpc.discover, rpc_methods, system.listMethods or
                         rpc_modules, else the spec's chain_); a node that lists none needs it
  --chain-id <n>         the chain id to sign transactions for (default: chain_health's chain_id,
                         else 1)
  --codec <module>       the transaction codec module, as a profile's codec key (default: the
                         reference codec); written into the profile, relative to --out
  --no-transactions      send no transactions
  --no-faucet            make no faucet claims
  --no-limits            do not probe the batch and body size limits
  --deadline <s>         the whole detection's limit (default ${DEFAULT_DEADLINE_MS / 1000}); what is not probed by then
                         keeps the reference default, low confidence
  -h, --help

Progress goes to stderr. Exit codes: 0 a draft was written (warnings, if any, are printed with
it); 2 usage error (an --out file of yours included); 3 nothing answered at the URL (is the node
running?), or no JSON-RPC endpoint answered under it (what each path answered is listed); 4
internal error (a bug in chainrpc); 130 interrupted (Ctrl-C): no draft written.`;


const detectLine = new CommandLine('profile detect', {
  url: { kind: 'text', value: '<base-url>', required: true, check: nodeUrlProblem },
  out: { kind: 'text', value: '<file>' },
  'rpc-path': RPC_PATH,
  'method-prefix': METHOD_PREFIX,
  'chain-id': { kind: 'uint', value: '<n>' },
  codec: { kind: 'text', value: '<module>' },
  'no-transactions': { kind: 'flag' },
  'no-faucet': { kind: 'flag' },
  'no-limits': { kind: 'flag' },
  deadline: { kind: 'integer', value: '<s>', min: 1, max: 3600, default: DEFAULT_DEADLINE_MS / 1000 },
});

/** The codec module as the profile file names it: relative to the file (how loadProfile resolves it), or absolute for stdout. */
function codecKey(module: string, out: string | undefined): string {
  const absolute = resolve(module);
  if (out === undefined) return absolute;
  const rel = relative(dirname(resolve(out)), absolute);
  return isAbsolute(rel) ? rel : rel.startsWith('.') ? rel : `./${rel}`;
}

/** A profile file chainrpc profile detect wrote: its `$detect` member names chainrpc as the tool. */
const isDetectedProfile = (path: string): boolean =>
  jsonFileIs(path, (value) => {
    const detected = value.$detect;
    return typeof detected === 'object' && detected !== null && String((detected as { tool?: unknown }).tool).startsWith('chainrpc ');
  });

/** What a command says when detection found no JSON-RPC endpoint at `url` (exit 3); any other error as it is. */
export function detectFailure(command: string, url: string, rpcPath: string | undefined, err: unknown): unknown {
  if (!(err instanceof NoRpcEndpointError)) return err;
  if (err.unreachable) return unreachable(command, url, err.answers[0]?.answer.replace(/^no answer \((.*)\)$/, '$1'));
  const fix = rpcPath === undefined ? 'If the node serves JSON-RPC at another path, give it with --rpc-path.' : `Is --rpc-path ${rpcPath} right? Without it, the usual paths are tried.`;
  return new CliError(`${command}: ${err.message}\n${fix}`, err.kind, { cause: err });
}

async function detect(argv: string[]): Promise<number> {
  const { values } = detectLine.parse(argv);
  const rpcPath = values['rpc-path'];
  // The one rule for a base URL (core/client/baseUrl.ts), with the spec's /rpc where no --rpc-path is given.
  const url = baseUrl('profile detect', values.url, rpcPath ?? DEFAULT_RPC_PATH);
  const methodPrefix = values['method-prefix'];
  const chainId = values['chain-id'];
  const deadlineS = values.deadline;
  let codec: TxCodec | undefined;
  if (values.codec !== undefined) {
    try {
      codec = await loadCodecModule(values.codec);
    } catch (err) {
      if (err instanceof ProfileError) throw CliError.within('profile detect', err);
      throw err;
    }
  }
  const out = values.out;
  // Before ~110 requests: --out may be a new file or a draft chainrpc wrote (its $detect names chainrpc), never a file of the user's.
  if (out !== undefined) claimFile(out, 'a draft profile', isDetectedProfile, 'give --out a new file, or a draft chainrpc profile detect wrote');
  const live = process.stderr.isTTY && !process.env.CI;
  let result;
  try {
    result = await detectProfile({
      url,
      rpcPath,
      methodPrefix,
      chainId,
      codec,
      codecModule: values.codec === undefined ? undefined : codecKey(values.codec, out),
      transactions: !values['no-transactions'],
      faucet: !values['no-faucet'],
      limits: !values['no-limits'],
      deadlineMs: deadlineS * 1000,
      // Bisection steps come by the dozen: on a terminal they overwrite one line.
      onProgress: (line) => {
        const step = /^(maxBodyBytes|maxBatch|transactions): /.test(line);
        if (live && step) process.stderr.write(`\r\x1b[K  ${line.slice(0, (process.stderr.columns || 100) - 3)}`);
        else process.stderr.write(`${live ? '\r\x1b[K' : ''}detect: ${line}\n`);
      },
    });
  } catch (err) {
    throw detectFailure('profile detect', url, rpcPath, err);
  }
  if (live) process.stderr.write('\r\x1b[K');
  const json = `${JSON.stringify(result.profile, null, 2)}\n`;
  const table = formatFindings(result.findings, Math.max(120, process.stdout.columns || 200));
  const warnings = result.warnings.length === 0 ? '' : `\nWarnings:\n${result.warnings.map((w) => `  - ${w}`).join('\n')}\n`;
  const summary = detectSummary(result);
  if (out === undefined) {
    process.stdout.write(json);
    process.stderr.write(`${table}\n${warnings}\n${summary}\n`);
    return EXIT.ok;
  }
  mkdirSync(dirname(resolve(out)), { recursive: true });
  // Whole or not at all: a Ctrl-C or a full disk leaves the draft that was there (or none), never half of one.
  writeFileAtomically(out, json);
  console.log(table);
  if (warnings !== '') console.log(warnings);
  console.log(`\n${summary}`);
  console.log(`profile written to ${out} (a draft: check the medium and low confidence rows)`);
  console.log(`next: chainrpc test --url ${url} --profile ${out} --level profile`);
  return EXIT.ok;
}

export const profile: Command = {
  name: 'profile',
  summary: 'Detect a node\'s profile from outside: a draft with evidence and confidence per key',
  help: HELP,
  commandLines: [],
  subcommands: [{ name: 'detect', help: DETECT_HELP, commandLine: detectLine }],
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === 'detect') return detect(rest);
    throw new CliError(sub === undefined ? 'profile: name a subcommand: chainrpc profile detect --url <base-url> (see chainrpc profile --help)' : `profile: unknown subcommand "${sub}"; the one there is: detect`);
  },
};
