/**
 * `chainrpc record`: a recording proxy in front of a node (load/capture/RecordingProxy.ts): clients send to it,
 * it passes every request and answer through unchanged, and writes the capture (load/capture/captureFormat.ts).
 * docs/replay.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { nodeUrlProblem } from '../commonOptions.js';
import { CliError } from '../CliError.js';
import { CommandLine } from '../CommandLine.js';
import type { Command } from '../Command.js';
import { relativeOrAbsolute } from './commandText.js';
import { interruptible } from './load/interrupt.js';
import { duration } from './load/scenarioOptions.js';
import { parseOrigin } from '../../core/client/exactHttpParts.js';
import { packageVersion } from '../../core/packageVersion.js';
import { CAPTURE_FORMAT } from '../../load/capture/captureFormat.js';
import { CaptureWriter } from '../../load/capture/CaptureWriter.js';
import { RecordingProxy } from '../../load/capture/RecordingProxy.js';
import { detectImport, importCapture } from '../../load/capture/importCapture.js';
import { CaptureError } from '../../load/capture/readCapture.js';
import { parseDuration } from '../../load/scenario/parseDuration.js';
import { formatDuration } from '../../reports/shared/formatDuration.js';
import { CLEAR_LINE, fitLine } from '../../reports/shared/terminalLine.js';

const DEFAULT_MAX_SIZE = 1024 ** 3;

const IMPORT_HELP = `Usage: chainrpc record import <file> --out <capture.ndjson> [--from bodies|transcript] [--node <base-url>]

Makes a capture (format ${CAPTURE_FORMAT}) of what you already have, without a proxy:
  bodies       a file of request bodies, one per line, each kept exactly (no timing: replay it at a
               rate; no answers)
  transcript   the transcript.ndjson a chainrpc test run writes beside its report: each exchange's
               request, answer and start (exchanges with one node only: --node picks it when there are
               several; a body longer than the 4 KiB a transcript keeps is left out, and said)
--from is found from the file when it is not given. docs/replay.md, "Imports".

Options:
  --out <file>            the capture to write (refused if it exists)
  --from <what>           bodies or transcript (default: what the file's first line shows)
  --node <base-url>       the node whose exchanges a transcript of several nodes gives
  -h, --help

Exit codes: 0 written; 2 usage error (--out exists, a file that is neither, a chainrpc capture already: replay
it directly, no exchange to take);
4 internal error (a bug in chainrpc).`;

const HELP = `Usage: chainrpc record --upstream <base-url> --out <capture.ndjson> [options]
       chainrpc record import <file> --out <capture.ndjson> [--from bodies|transcript]

A recording proxy: point clients at the URL it prints, and it passes every request to --upstream and
every answer back unchanged (method, request target, body bytes, headers but those of one hop; a
malformed body goes on as it came), while it writes each exchange to --out: when it came, the request's
bytes, the answer's status, bytes (unless --no-answers) and time, and the JSON-RPC calls it held (methods,
batch size, ids). The capture (NDJSON, format ${CAPTURE_FORMAT}, schemas/load/capture.schema.json) is
readable while it grows, up to its last whole line. An upstream that gives no answer gets the client a
502 from the proxy, recorded as a failure. Runs until --duration or Ctrl-C; then the end line is
written and the file synced to disk. docs/replay.md.

Options:
  --upstream <base-url>   the node the traffic goes to (http(s)://host:port[/path]: the clients'
                          request targets are put under its path; the root, /, is the path itself)
  --out <file>            the capture to write (refused if it exists: nothing is overwritten)
  --listen <port>         the proxy's port (default: a free one, printed)
  --host <addr>           the proxy's address (default 127.0.0.1; 0.0.0.0 takes other machines' clients)
  --duration <d>          how long to record: 30s, 10m (default: until Ctrl-C)
  --max-size <bytes>      the capture's bound (default ${DEFAULT_MAX_SIZE}, 1 GiB): past it the recording
                          stops (said once, and in the end line) and the proxy goes on passing traffic
  --max-body <bytes>      a request body over this gets a 413 from the proxy (default 67108864, 64 MiB)
  --timeout <ms>          an upstream answer not complete after this long gets a 502 (default 60000)
  --no-answers            keep no answer bodies (their status and time still)
  -h, --help

Subcommand:
  import <file>           a capture of request bodies (one per line) or of a chainrpc test transcript

Exit codes: 0 recorded (for its duration, or until Ctrl-C); 2 usage error (--out exists, a bad
option, a --listen port in use: nothing written); 3 the upstream cannot be reached at the start (nothing
written); 4 internal error (a bug in chainrpc).`;

const OPTIONS = {
  upstream: { kind: 'text', value: '<base-url>', check: nodeUrlProblem },
  out: { kind: 'text', value: '<file>' },
  listen: { kind: 'integer', value: '<port>', min: 0, max: 65_535, default: 0 },
  host: { kind: 'text', value: '<addr>', default: '127.0.0.1' },
  duration: { kind: 'text', value: '<d>', check: duration },
  'max-size': { kind: 'integer', value: '<bytes>', min: 1_024, default: DEFAULT_MAX_SIZE },
  'max-body': { kind: 'integer', value: '<bytes>', min: 1, default: 64 * 1024 * 1024 },
  timeout: { kind: 'integer', value: '<ms>', min: 1, default: 60_000 },
  'no-answers': { kind: 'flag' },
} as const;

const line = new CommandLine('record', OPTIONS);
const importLine = new CommandLine('record import', {
  out: { kind: 'text', value: '<file>' },
  from: { kind: 'choice', value: '<what>', choices: ['bodies', 'transcript'] },
  node: { kind: 'text', value: '<base-url>' },
} as const, true);

export const record: Command = {
  name: 'record',
  summary: "Record a node's traffic through a proxy that passes it on unchanged: the capture to replay",
  help: HELP,
  commandLines: [line],
  subcommands: [{ name: 'import', help: IMPORT_HELP, commandLine: importLine }],
  async run(argv) {
    if (argv[0] === 'import') return importRun(argv.slice(1));
    const command = 'record';
    const { values, positionals } = line.parse(argv);
    if (positionals.length > 0) throw new CliError(`${command}: unexpected argument "${positionals[0] ?? ''}" (see chainrpc record --help)`);
    if (values.upstream === undefined) throw new CliError(`${command}: give --upstream <base-url>: the node the traffic goes to`);
    if (values.out === undefined) throw new CliError(`${command}: give --out <file>: the capture to write`);
    // An http(s) URL: checked as the option was parsed (httpUrlProblem).
    const upstream = new URL(values.upstream);
    if (existsSync(values.out)) throw new CliError(`${command}: ${values.out} exists; give another --out (a capture is never overwritten)`);
    const { hostname, port } = parseOrigin(upstream.origin);
    const reachable = await tcpReachable(hostname, port);
    if (reachable !== true) {
      process.stderr.write(`chainrpc: ${command}: the upstream ${upstream.origin} cannot be reached (${reachable}); is the node running there?\n`);
      return 3;
    }
    const durationMs = values.duration === undefined ? null : parseDuration(values.duration);
    // Every t counts from here, as the header's startedAt says. The capture is made only once the proxy listens:
    // a port in use leaves nothing behind, and a retry with the same --out is not refused.
    const originMs = performance.now();
    const startedAt = new Date().toISOString();
    const out = values.out;
    const upstreamUrl = values.upstream;
    let listening = false;
    const makeCapture = (): CaptureWriter => {
      listening = true;
      return new CaptureWriter(out, { format: CAPTURE_FORMAT, startedAt, upstream: upstreamUrl, answers: values['no-answers'] !== true, tool: { name: 'chainrpc', version: packageVersion() } }, {
        maxBytes: values['max-size'],
        onFull: () => process.stderr.write(`${command}: the capture reached --max-size (${values['max-size']} bytes): recording stopped; the proxy goes on passing traffic\n`),
      });
    };
    let proxy: RecordingProxy;
    try {
      proxy = await RecordingProxy.start({ upstream: values.upstream, host: values.host, port: values.listen, writer: makeCapture, answers: values['no-answers'] !== true, maxBodyBytes: values['max-body'], timeoutMs: values.timeout, originMs });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new CliError(listening ? `${command}: cannot write the capture ${values.out}: ${message}` : `${command}: cannot listen on ${values.host}:${values.listen}: ${message}`);
    }
    const writer = proxy.writer;
    const stop = interruptible(`${command}: stopping: the exchanges under way finish, then the capture is closed`);
    console.log(`recording: ${proxy.url} → ${values.upstream}${durationMs === null ? ', until Ctrl-C' : `, for ${formatDuration(durationMs)}`}; capture: ${relativeOrAbsolute(values.out)}`);
    // Progress: a live line on a terminal, a line every 10 s elsewhere (CI logs).
    const tty = process.stderr.isTTY === true;
    let last = { atMs: 0, exchanges: 0 };
    const progress = setInterval(() => {
      const atMs = performance.now() - originMs;
      if (!tty && atMs - last.atMs < 10_000) return;
      const rate = ((writer.exchanges - last.exchanges) * 1_000) / Math.max(1, atMs - last.atMs);
      last = { atMs, exchanges: writer.exchanges };
      const text = recordStatusLine(atMs, writer.exchanges, rate, writer.bytes, proxy.passed, writer.full);
      process.stderr.write(tty ? `${CLEAR_LINE}${fitLine(text, process.stderr.columns)}` : `${text}\n`);
    }, 1_000);
    const reason = await new Promise<'duration' | 'interrupted'>((resolve) => {
      const timer = durationMs === null ? undefined : setTimeout(() => resolve('duration'), durationMs);
      stop.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve('interrupted');
      }, { once: true });
    });
    clearInterval(progress);
    if (tty) process.stderr.write(CLEAR_LINE);
    stop.dispose();
    await proxy.close();
    writer.close(reason);
    console.log(`recorded ${writer.exchanges.toLocaleString('en-US')} exchange(s) of ${proxy.passed.toLocaleString('en-US')} passed on${writer.full ? ' (stopped at --max-size)' : ''}: ${relativeOrAbsolute(values.out)}`);
    return 0;
  },
};

/** `chainrpc record import`: a capture of request bodies or of a test transcript. */
function importRun(argv: string[]): number {
  const command = 'record import';
  const { values, positionals } = importLine.parse(argv);
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) throw new CliError(`${command}: give one file to import: chainrpc record import <file> --out <capture.ndjson>`);
  if (values.out === undefined) throw new CliError(`${command}: give --out <file>: the capture to write`);
  if (existsSync(values.out)) throw new CliError(`${command}: ${values.out} exists; give another --out (a capture is never overwritten)`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`${command}: cannot read ${file}: ${(err as Error).message}`);
  }
  const from = values.from ?? detectImport(text);
  let imported;
  try {
    imported = importCapture(text, from, { file, version: packageVersion(), ...(values.node === undefined ? {} : { node: values.node }) });
  } catch (err) {
    if (err instanceof CaptureError) throw CliError.within(command, err);
    throw err;
  }
  let writer: CaptureWriter;
  try {
    writer = new CaptureWriter(values.out, imported.header, { maxBytes: Number.MAX_SAFE_INTEGER });
  } catch (err) {
    // Made between the check above and now (the writer never overwrites), or a folder that cannot be written.
    throw new CliError(`${command}: cannot write the capture ${values.out}: ${(err as Error).message}`);
  }
  for (const e of imported.exchanges) writer.add(e);
  writer.close('imported');
  const left = Object.entries(imported.skipped).map(([why, n]) => `${n.toLocaleString('en-US')} ${why}`);
  console.log(`imported ${imported.exchanges.length.toLocaleString('en-US')} exchange(s) of ${from === 'bodies' ? 'request bodies' : 'a chainrpc test transcript'}${left.length === 0 ? '' : `; left out: ${left.join('; ')}`}: ${relativeOrAbsolute(values.out)}`);
  return 0;
}

/** One progress line: how long, how many exchanges (and how many a second lately), the capture's size. */
export function recordStatusLine(atMs: number, exchanges: number, perSecond: number, bytes: number, passed: number, full: boolean): string {
  const size = bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MiB` : `${(bytes / 1_024).toFixed(1)} KiB`;
  const stopped = full ? `; recording stopped at --max-size, ${passed.toLocaleString('en-US')} passed on` : '';
  return `record: ${formatDuration(atMs)}, ${exchanges.toLocaleString('en-US')} exchange(s) (${Math.round(perSecond).toLocaleString('en-US')}/s), capture ${size}${stopped}`;
}

/** True when a TCP connection to host:port opens within 3 s, else why not. */
function tcpReachable(host: string, port: number): Promise<true | string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (result: true | string): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(3_000, () => done('no connection within 3 s'));
    socket.once('connect', () => done(true));
    socket.once('error', (e: NodeJS.ErrnoException) => done(e.code ?? e.message));
  });
}
