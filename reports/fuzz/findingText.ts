/**
 * A finding's parts as text, the same in every fuzz report: the order findings are shown in (the run's
 * verdict, fuzz/fuzzVerdict.ts: the standing findings first, the flaky sightings apart), a case's request in a line and its body (as text when it is UTF-8, else as a hex dump),
 * an answer in a line and its excerpt, and the commands that replay it. Display only: report.json keeps the
 * exact bytes (base64) and the exact text; the renderers escape what these return.
 */
import { fuzzVerdict } from '../../fuzz/fuzzVerdict.js';
import type { Finding, FoundCase, FuzzAnswer, FuzzRun } from '../../fuzz/model.js';
import { shellQuote } from '../../suites/runner/shellQuote.js';
import { excerpt } from '../shared/excerpt.js';
import { formatDuration } from '../shared/formatDuration.js';
import { formatCount, formatMs } from '../load/formatLoad.js';

/** Where the replay command reads the run back from, unless a renderer is told: the report folder's own file. */
export const DEFAULT_REPORT_PATH = 'report.json';

/** What every fuzz renderer may be told besides the run. */
export interface FuzzReportOptions {
  /** The path of this run's report.json, as the replay command names it (default `report.json`, in the report's folder). */
  reportPath?: string;
  /** The command as it ran (secrets left out), shown with the run's parameters; report.json holds the seed and the options. */
  command?: string;
  /**
   * The profile file the replay commands pass (`--profile <file>`); default: the run's own (options.profileFile,
   * reportOptions). Without it a finding would be judged again by the reference profile, not the rules it was found by.
   */
  profileFile?: string;
  /** The run's --rpc-path and --method-prefix, which the replay commands pass too (reportOptions: the run's options). */
  overrides?: { rpcPath?: string; methodPrefix?: string };
}

/** The options a renderer works with: as given, the profile file and the overrides defaulting to the run's own. */
export function reportOptions(run: FuzzRun, options: FuzzReportOptions): FuzzReportOptions {
  const profileFile = options.profileFile ?? run.options.profileFile;
  const { rpcPath, methodPrefix } = run.options;
  const overrides = options.overrides ?? { ...(rpcPath === undefined ? {} : { rpcPath }), ...(methodPrefix === undefined ? {} : { methodPrefix }) };
  return { ...options, ...(profileFile === undefined ? {} : { profileFile }), overrides };
}

/** A finding's replay command as the reports show it (reportOptions). */
export const findingReplayCommand = (f: Finding, options: FuzzReportOptions): string => replayCommand(f.id, options.reportPath, options.profileFile, options.overrides);

/**
 * Findings to show, as the verdict sorts them: the standing ones (reproduced, or not re-checkable because the
 * node was dead), in the order found, then the flaky sightings apart (seen once, not again: said, never counted).
 */
export function findingsInOrder(run: FuzzRun): { standing: Finding[]; flaky: Finding[] } {
  const { standing, flaky } = fuzzVerdict(run);
  return { standing, flaky };
}

/** A node's findings as a report's node table counts them: the standing ones, and the flaky sightings beside. */
export function nodeFindings(run: FuzzRun, url: string): { standing: number; flaky: number } {
  const { standing, flaky } = findingsInOrder(run);
  return { standing: standing.filter((f) => f.url === url).length, flaky: flaky.filter((f) => f.url === url).length };
}

/** The flaky sightings beside a count, when there are any: " (+1 flaky)". */
export const flakyAside = (flaky: number): string => (flaky === 0 ? '' : ` (+${formatCount(flaky)} flaky)`);

/**
 * The command that sends a finding's minimal case again and judges the answer now, by the profile it was found
 * by when that was a file, with the run's --rpc-path and --method-prefix (`overrides`: the run's options).
 */
export function replayCommand(id: string, reportPath = DEFAULT_REPORT_PATH, profileFile?: string, overrides: { rpcPath?: string; methodPrefix?: string } = {}): string {
  const word = (text: string): string => (/^[\w./@%+=:,-]+$/.test(text) ? text : shellQuote(text));
  const flags = [
    ...(profileFile === undefined ? [] : [`--profile ${word(profileFile)}`]),
    ...(overrides.rpcPath === undefined ? [] : [`--rpc-path ${word(overrides.rpcPath)}`]),
    ...(overrides.methodPrefix === undefined ? [] : [`--method-prefix ${word(overrides.methodPrefix)}`]),
  ];
  return [`chainrpc fuzz --replay ${word(reportPath)} ${/^[\w-]+$/.test(id) ? id : shellQuote(id)}`, ...flags].join(' ');
}

/** What a recheck found, in words. */
export const RECHECK_WORDS: Readonly<Record<Finding['recheck'], string>> = {
  reproduced: 'reproduced when re-sent',
  flaky: 'flaky: not seen again when the minimal case was re-sent, so not counted',
  'not-rechecked': 'not rechecked (the node had stopped answering)',
  'out-of-time': 'not re-sent: the time budget ran out before its re-check, so not counted',
};

/** A case's request in a line: "POST, content-type application/json, 61 bytes", and what is odd about it. */
export function requestLine(c: FoundCase): string {
  const bytes = Buffer.from(c.http.bodyBase64, 'base64').length;
  const parts = [c.http.method, c.http.contentType === undefined ? 'no content-type' : `content-type ${c.http.contentType}`];
  parts.push(c.http.omitContentLength === true ? 'no Content-Length (so no body)' : bytes === 0 ? 'no body' : `${formatCount(bytes)} bytes`);
  if (c.http.bodyText === undefined && bytes > 0) parts.push('not UTF-8 text');
  return parts.join(', ');
}

/** Where a case comes from: its rule, and the seed and index that make it again. */
export const caseOrigin = (c: FoundCase): string => `${c.rule}, seed ${c.seed} case #${c.index}`;

/** The first `maxBytes` bytes as a hex dump: offset, 16 bytes in hex, and the printable ASCII of them. */
export function hexDump(bytes: Uint8Array, maxBytes: number): string {
  const shown = bytes.subarray(0, Math.max(0, maxBytes));
  const lines: string[] = [];
  for (let at = 0; at < shown.length; at += 16) {
    const row = Array.from(shown.subarray(at, at + 16));
    const hex = row.map((b) => b.toString(16).padStart(2, '0'));
    const left = hex.slice(0, 8).join(' ');
    const right = hex.slice(8).join(' ');
    const ascii = row.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${at.toString(16).padStart(8, '0')}  ${left.padEnd(23)}  ${right.padEnd(23)}  |${ascii}|`);
  }
  if (bytes.length > shown.length) lines.push(`… (${formatCount(bytes.length - shown.length)} more bytes)`);
  return lines.join('\n');
}

export interface CaseBody {
  /** text: the body as UTF-8 text; hex: a hex dump (the body is not UTF-8, or holds control characters); none: empty. */
  form: 'text' | 'hex' | 'none';
  text: string;
}

/** A case's body for display: its text cut at `maxChars`, or a hex dump of its first `maxBytes` bytes. */
export function caseBody(c: FoundCase, limits: { maxChars: number; maxBytes: number }): CaseBody {
  if (c.http.bodyText !== undefined) return c.http.bodyText === '' ? { form: 'none', text: '' } : { form: 'text', text: excerpt(c.http.bodyText, limits.maxChars) };
  const bytes = new Uint8Array(Buffer.from(c.http.bodyBase64, 'base64'));
  return bytes.length === 0 ? { form: 'none', text: '' } : { form: 'hex', text: hexDump(bytes, limits.maxBytes) };
}

/** A time as people read it: "2.10 ms", "412 ms", then "5.00 s", "1 min 05 s". */
export const formatTime = (ms: number): string => (ms < 1000 ? formatMs(ms) : formatDuration(ms));

/** An answer in a line: "HTTP 200 in 2.10 ms", or "no answer (ECONNRESET: socket hang up) after 5.00 s". */
export function answerLine(a: FuzzAnswer): string {
  if (a.status === undefined) return `no answer${a.failure === undefined ? '' : ` (${a.failure.code}: ${a.failure.message})`} after ${formatTime(a.ms)}`;
  return `HTTP ${a.status} in ${formatTime(a.ms)}`;
}

/** The start of an answer's body ('' when there was none). */
export const answerExcerpt = (a: FuzzAnswer, maxChars: number): string => (a.text === undefined ? '' : excerpt(a.text, maxChars));

/** A finding's facts in a line: where, how often, when first, and what the recheck said. */
export function findingFacts(f: Finding): string {
  const also = (f.alsoAs ?? []).map((a) => `${a.id} (${a.method === undefined ? '' : `${a.method}, `}${a.rule}, ${a.count === 1 ? 'once' : `${formatCount(a.count)} times`})`);
  const folded = also.length === 0 ? '' : `; one cause: also filed as ${also.join(', ')}, whose cases shrank to this same minimal case`;
  return `on ${f.url}; seen ${f.count === 1 ? 'once' : `${formatCount(f.count)} times`}, first ${formatDuration(f.atMs)} into the run; ${RECHECK_WORDS[f.recheck]}${folded}`;
}

/** Whether shrinking made the case smaller (then both the original and the minimal case are worth showing). */
export const wasShrunk = (f: Finding): boolean =>
  f.original.http.bodyBase64 !== f.minimal.http.bodyBase64 || f.original.http.method !== f.minimal.http.method || f.original.http.contentType !== f.minimal.http.contentType;
