/**
 * A finding's parts as text, the same in every fuzz report: the order findings are shown in (the run's
 * verdict, fuzz/fuzzVerdict.ts: the standing findings first, the flaky sightings apart), a case's request in a line and its body (as text when it is UTF-8, else as a hex dump),
 * an answer in a line and its excerpt, and the commands that replay it. Display only: report.json keeps the
 * exact bytes (base64) and the exact text; the renderers escape what these return.
 */
import { fuzzVerdict } from '../../fuzz/fuzzVerdict.js';
import type { Finding, FoundCase, FuzzAnswer, FuzzRun } from '../../fuzz/model.js';
import { describeHttp, httpOf, SHRUNK_FROM } from '../../fuzz/run/foundCase.js';
import { shellQuote } from '../../suites/runner/shellQuote.js';
import { excerpt } from '../../core/excerpt.js';
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

/**
 * A minimal case's title. A report written before shrunk cases were titled by what they are (describeHttp) kept its
 * original's title with " (shrunk)" after it, which may no longer be true of it ("one param too many", shrunk to
 * none): such a title is made again from the minimal case's bytes, with the original's title after.
 */
export function minimalCaseTitle(f: Finding): string {
  const title = f.minimal.title;
  if (!wasShrunk(f) || title.includes(SHRUNK_FROM)) return title;
  const legacy = title === f.original.title || title.startsWith(`${f.original.title} (shrunk`) || title.startsWith(`${f.original.title} (shrinking`);
  if (!legacy) return title;
  const cut = title.endsWith(' (shrinking cut short by the time budget)');
  return `${describeHttp(httpOf(f.minimal))}${SHRUNK_FROM}${f.original.title})${cut ? ' (shrinking cut short by the time budget)' : ''}`;
}

/**
 * Where a finding's minimal case comes from: its rule, seed and index when it is the case made so; else the case it
 * was shrunk from (the seed and index make that one, not the minimal case, whose rule it may no longer break).
 */
export const minimalOrigin = (f: Finding): string => (wasShrunk(f) ? `shrunk from ${caseOrigin(f.original)}` : caseOrigin(f.minimal));

/**
 * The rule a finding is shown with: the case's rule, or, when the case shrank, the rule of the case that found it
 * (the minimal case may no longer do what the rule made: "one param too many", shrunk to no params).
 */
export const ruleLabel = (f: Finding): string => (wasShrunk(f) ? `found by ${f.rule}, shrunk` : f.rule);

/** A finding's headline: the oracle's words first, then the part of the answer that shows it (readable), if the message quotes one. */
export interface FindingHeadline {
  lead: string;
  /** The answer's text that shows it, widened to whole lines or words, its JSON escapes read (a line break is one); '…' where cut. */
  excerpt?: string;
}

/** How far an excerpt is widened to reach the start or end of its line (or of the string it is in), then of a word. */
const WIDEN_TO_LINE = 100;
const WIDEN_TO_WORD = 30;

/**
 * A finding's message split into the oracle's words and the excerpt of the answer it quotes (`…: "<excerpt>"`, as
 * the leak oracle writes it). The excerpt is a cut of the answer's raw text (often JSON, its line breaks written
 * `\n`), made at no boundary: it is widened in the answer to whole lines (or words) and its escapes are read, so
 * a stack trace reads as one, not as "ddress); got 0\\n    at leakyE".
 */
export function findingHeadline(f: Pick<Finding, 'message' | 'oracle'> & { minimal: Pick<FoundCase, 'answer'> }): FindingHeadline {
  const m = /^([\s\S]*?): ("(?:[^"\\]|\\.)*")$/.exec(f.message);
  if (m === null) return { lead: f.message };
  let raw: unknown;
  try {
    raw = JSON.parse(m[2] ?? '');
  } catch {
    return { lead: f.message };
  }
  if (typeof raw !== 'string' || raw.trim() === '') return { lead: f.message };
  const answer = f.minimal.answer;
  const whole = [answer.text ?? '', ...Object.entries(answer.headers ?? {}).map(([k, v]) => `${k}: ${v}`)].join('\n');
  // A quoted value that is no part of the answer (a param, an id) stays in the sentence; a leak's excerpt may lie past the answer kept.
  if (!whole.includes(raw) && f.oracle !== 'leak') return { lead: f.message };
  return { lead: m[1] ?? f.message, excerpt: readableExcerpt(raw, whole) };
}

/** A line break in raw text: a real one, or one written as JSON writes it (`\n`, `\r\n`) not itself escaped. */
const BREAK = /\r?\n|(?<!\\)(?:\\\\)*\\r\\n|(?<!\\)(?:\\\\)*\\n/g;

/** `raw`, found in `whole`, widened to line (or word) boundaries, its JSON escapes read; '…' marks a cut kept. */
export function readableExcerpt(raw: string, whole: string): string {
  const at = whole.indexOf(raw);
  let start = at;
  let end = at + raw.length;
  let text: string;
  let cutStart: boolean;
  let cutEnd: boolean;
  if (at < 0) {
    // Not in the answer as kept (cut at its cap): its own ends are cut, to the nearest word.
    const words = /^\S*\s+([\s\S]*\S)\s+\S*$/.exec(raw);
    text = words?.[1] ?? raw;
    cutStart = cutEnd = true;
  } else {
    const before = whole.slice(Math.max(0, start - WIDEN_TO_LINE), start);
    const lineStart = lastBoundary(before);
    if (start === 0) cutStart = false;
    else if (lineStart !== undefined) {
      start -= before.length - lineStart;
      cutStart = false;
    } else {
      const space = before.slice(-WIDEN_TO_WORD).search(/\s\S*$/);
      if (space >= 0) start -= Math.min(WIDEN_TO_WORD, before.length) - space - 1;
      cutStart = true;
    }
    const after = whole.slice(end, end + WIDEN_TO_LINE);
    const lineEnd = firstBoundary(after);
    if (end === whole.length) cutEnd = false;
    else if (lineEnd !== undefined) {
      end += lineEnd;
      cutEnd = false;
    } else {
      const space = after.slice(0, WIDEN_TO_WORD).search(/\s/);
      if (space >= 0) end += space;
      cutEnd = true;
    }
    text = whole.slice(start, end);
  }
  const read = text.replace(BREAK, '\n').replace(/\\(["\\/bfrt]|u[0-9a-fA-F]{4})/g, (_, e: string) => (e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : ({ b: '\b', f: '\f', r: '\r', t: '\t' } as Record<string, string>)[e] ?? e));
  const lines = read.split('\n').map((l) => l.trimEnd());
  while (lines.length > 1 && lines[0]?.trim() === '') lines.shift();
  while (lines.length > 1 && lines[lines.length - 1]?.trim() === '') lines.pop();
  return `${cutStart ? '…' : ''}${lines.join('\n')}${cutEnd ? '…' : ''}`;
}

/** Where the last line (or JSON string) in `text` starts: after its last line break or unescaped quote; undefined: none. */
function lastBoundary(text: string): number | undefined {
  let found: number | undefined;
  for (const m of text.matchAll(BREAK)) found = m.index + m[0].length;
  for (const m of text.matchAll(/(?<!\\)(?:\\\\)*"/g)) found = Math.max(found ?? 0, m.index + m[0].length);
  return found;
}

/** Where the first line (or JSON string) in `text` ends: at its first line break or unescaped quote; undefined: none. */
function firstBoundary(text: string): number | undefined {
  // A break matched with the backslashes before it (escaped ones): the line ends where the break's own `\n` (or `\r\n`) begins.
  const found = [...text.matchAll(BREAK)].map((m) => m.index + m[0].length - (/\\r\\n$/.test(m[0]) ? 4 : /\\n$/.test(m[0]) ? 2 : m[0].length));
  const quote = /(?<!\\)(?:\\\\)*"/.exec(text);
  if (quote !== null) found.push(quote.index + quote[0].length - 1);
  return found.length === 0 ? undefined : Math.min(...found);
}

/** A headline in one line (a JUnit message, a console line): the lead, then the excerpt with its line breaks shown as " ⏎ ". */
export function headlineLine(h: FindingHeadline, maxChars = 300): string {
  if (h.excerpt === undefined) return h.lead;
  return `${h.lead}: ${excerpt(h.excerpt.split('\n').map((l) => l.trim()).join(' ⏎ '), maxChars)}`;
}
