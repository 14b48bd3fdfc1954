/**
 * `chainrpc fuzz --replay <report.json> <finding-id>`: a finding's minimal case sent again, byte for byte, to
 * the node it was found on (or another), judged by the same oracles, and whether it still shows said plainly:
 * the fix of a node team is proven by this command turning from "shows again" to "no longer shows". So that
 * can only mean a node that answered: the node must answer a known-good call before the case is sent (else
 * nothing it does after could be told from what it did before), a liveness finding is judged by the same probe
 * after the case as in the run, and a case that gets no answer at all is never said to no longer show.
 */
import { readFileSync } from 'node:fs';
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
import { EXIT } from '../../core/errors/exitCodes.js';
import type { Profile } from '../../profile/Profile.js';
import type { Finding, FuzzAnswer, FuzzHttp } from '../model.js';
import { SLOW_FLOOR_MS } from '../oracles/slowBound.js';
import { judgeAnswer } from './judgeAnswer.js';
import { showsFinding } from './FindingBook.js';
import { httpOf } from './foundCase.js';
import { FuzzTarget, LIVENESS_PROBE, type LivenessOptions } from './FuzzTarget.js';
import { sendCase } from './sendCase.js';

/** The report or the finding cannot be read (exit 2). */
export class FuzzReplayError extends ChainrpcError {
  readonly kind = 'usage';
}

/** The node does not answer a known-good call before the replay (exit 3): start it, then replay. */
export class FuzzReplayUnreachableError extends ChainrpcError {
  readonly kind = 'target';
}

/** What a replay reads of a fuzz report: its findings, and the profile the run judged them by. */
export interface FuzzReportRead {
  findings: Finding[];
  /** The profile's name (`options.profile`), when the report says it. */
  profileName?: string;
  /** The profile's file as an absolute path (`options.profileFile`), when the run's profile came from a file. */
  profileFile?: string;
  /** --rpc-path and --method-prefix as the run was given them over its profile (`options.rpcPath`, `options.methodPrefix`). */
  rpcPath?: string;
  methodPrefix?: string;
}

export interface ReplayOptions {
  /** The report's path, as the user gave it (for messages). */
  reportPath: string;
  report: FuzzReportRead;
  findingId: string;
  /** Another node than the one the finding was found on. */
  url?: string;
  profile: Profile;
  timeoutMs: number;
  out: (line: string) => void;
  /**
   * A finding's message as the console shows it (the CLI gives the reports' readable headline: a quoted answer's
   * escapes read, its lines joined); default: the message as it is.
   */
  headline?: (f: Pick<Finding, 'message' | 'oracle'> & { minimal: { answer: FuzzAnswer } }) => string;
}

const field = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null && key in value ? (value as Record<string, unknown>)[key] : undefined);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A fuzz report's findings and profile, or a FuzzReplayError saying what the file is instead. */
export function readFuzzReport(path: string): FuzzReportRead {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new FuzzReplayError(`--replay ${path}: cannot read it as JSON (${(err as Error).message})`);
  }
  const findings = field(value, 'findings');
  const format = field(value, 'format') === undefined ? '' : String(field(value, 'format'));
  if (!Array.isArray(findings) || (format !== '' && !format.startsWith('chainrpc-fuzz/'))) throw new FuzzReplayError(`--replay ${path}: not a chainrpc fuzz report (no findings list${format === '' ? '' : `; its format is ${format}`})`);
  const options = field(value, 'options');
  const read: FuzzReportRead = { findings: findings as Finding[] };
  for (const key of ['profileName', 'profileFile', 'rpcPath'] as const) {
    const value = text(field(options, key === 'profileName' ? 'profile' : key));
    if (value !== undefined) read[key] = value;
  }
  // A prefix may be empty: methods named without one.
  const methodPrefix = field(options, 'methodPrefix');
  if (typeof methodPrefix === 'string') read.methodPrefix = methodPrefix;
  return read;
}

/**
 * The finding a replay names: by its id, or by an id that was folded into it (one cause filed under two
 * signatures: report.json lists the later in the earlier's alsoAs, and that id is never another finding's).
 */
export function findingOf(report: FuzzReportRead, id: string, reportPath: string, out: (line: string) => void): Finding {
  const same = (other: string): boolean => other.toLowerCase() === id.toLowerCase();
  const own = report.findings.find((f) => same(f.id));
  if (own !== undefined) return own;
  const holder = report.findings.find((f) => (f.alsoAs ?? []).some((a) => same(a.id)));
  if (holder === undefined) throw new FuzzReplayError(`--replay ${reportPath}: no finding ${id} (it has ${report.findings.map((f) => f.id).join(', ') || 'none'})`);
  out(`${id.toUpperCase()} was folded into ${holder.id} (one cause: its cases shrank to ${holder.id}'s minimal case): replaying ${holder.id}`);
  return holder;
}

/** Sends the finding's minimal case again; resolves 1 when it still shows (or the case got no answer at all), 0 when it no longer does. */
export async function replayFinding(o: ReplayOptions): Promise<number> {
  const finding = findingOf(o.report, o.findingId, o.reportPath, o.out);
  const target = new FuzzTarget(o.url ?? finding.url, o.profile, 2);
  try {
    // Before the case: a node that does not answer now would make any verdict after it meaningless.
    if (!(await target.alive({ ...LIVENESS_PROBE, timeoutMs: o.timeoutMs }))) {
      throw new FuzzReplayUnreachableError(`--replay: ${target.sender.url} does not answer a known-good call (chain_blockNumber); start the node (or give --url), then replay ${finding.id}`);
    }
    const http = httpOf(finding.minimal);
    const headline = o.headline ?? ((f) => f.message);
    o.out(`${finding.id} ${finding.oracle}${finding.method === undefined ? '' : ` ${finding.method}`}: ${headline(finding)}`);
    o.out(`sending its minimal case (${http.body.length} bytes) to ${target.sender.url}`);
    const answer = await sendCase(target.sender, http, o.timeoutMs, o.profile.maxBodyBytes);
    o.out(answer.failure === undefined ? `answer: HTTP ${answer.status ?? '?'} in ${answer.ms.toFixed(1)} ms: ${(answer.text ?? '').slice(0, 300)}` : `no answer: ${answer.failure.message}`);
    const now = await verdictNow(finding, http, answer, { target, profile: o.profile, timeoutMs: o.timeoutMs, headline });
    o.out(`now: ${now.line}`);
    return now.exit;
  } finally {
    await target.close();
  }
}

interface Now {
  line: string;
  exit: number;
}

/**
 * What the replay shows now. A liveness finding: the run's probe after the case (the node still answering
 * is the only sign it no longer dies of it). A disagreement: the answer is printed for comparing, the other
 * node not being here. Any other: the answer judged by the finding's oracle. In every case, no answer at
 * all is never "no longer shows": a request left unanswered is a bug of its own, and hides whether this one
 * still shows.
 */
async function verdictNow(finding: Finding, http: FuzzHttp, answer: FuzzAnswer, ctx: { target: FuzzTarget; profile: Profile; timeoutMs: number; headline: NonNullable<ReplayOptions['headline']> }): Promise<Now> {
  const probe = { ...LIVENESS_PROBE, timeoutMs: ctx.timeoutMs };
  if (finding.oracle === 'liveness') {
    if (!(await aliveAfter(ctx.target, probe))) return died();
    // Not the named case: the run's other candidates (sent to the node since its last good probe), each in turn.
    for (const [i, candidate] of (finding.candidates ?? []).entries()) {
      const other = httpOf(candidate);
      const got = await sendCase(ctx.target.sender, other, ctx.timeoutMs, ctx.profile.maxBodyBytes);
      if (!(await aliveAfter(ctx.target, probe))) return died(`its candidate #${candidate.index} (${i + 2} of ${(finding.candidates?.length ?? 0) + 1} sent, ${got.failure === undefined ? `answered HTTP ${got.status ?? '?'}` : 'unanswered'}; ${curlExcerpt(candidate.curl, finding.id)})`);
    }
    const also = finding.candidates === undefined ? '' : `, nor after its ${finding.candidates.length} other candidate(s)`;
    return answer.failure === undefined ? gone(`liveness: the node still answers a known-good call after it${also}`) : unanswered(answer, `the node still answers a known-good call after it${also}`);
  }
  // Slowness by the oracle's default floor: the run's median is not the replay's.
  const shown = finding.oracle === 'disagreement' ? [] : judgeAnswer(http, answer, { profile: ctx.profile, slowBoundMs: SLOW_FLOOR_MS });
  const again = shown.find((v) => showsFinding(v, http, finding, ctx.profile));
  // Another violation of the same oracle (the finding's fixed, another bug still there): said, not taken for this one.
  const other = again === undefined ? shown.find((v) => v.oracle === finding.oracle) : undefined;
  if (again !== undefined) return { line: `SHOWS AGAIN: ${ctx.headline({ message: again.message, oracle: again.oracle, minimal: { answer } })}`, exit: EXIT.nodeError };
  if (answer.failure !== undefined) return (await ctx.target.alive(probe)) ? unanswered(answer, 'the node still answers a known-good call') : died();
  if (finding.oracle === 'disagreement') return { line: 'compare with the other node\'s answer in the report (a disagreement is between two nodes: send the case to both with --url)', exit: EXIT.ok };
  if (other !== undefined) return { line: `NO LONGER SHOWS (${finding.oracle}: ${finding.kind ?? finding.source}); but the answer shows another ${finding.oracle} violation: ${ctx.headline({ message: other.message, oracle: other.oracle, minimal: { answer } })}`, exit: EXIT.ok };
  return gone(finding.oracle);
}

/** Characters of a curl command a verdict line quotes at most: a 5 KB case's whole command belongs in the report. */
export const CURL_IN_LINE = 200;

/** A candidate's curl command for a verdict line: whole when short, else its start and where the whole one is. */
export function curlExcerpt(curl: string, findingId: string): string {
  if (curl.length <= CURL_IN_LINE) return curl;
  return `${curl.slice(0, CURL_IN_LINE)}… (${curl.length.toLocaleString('en-US')} characters: the whole command is in the report, finding ${findingId}'s candidates)`;
}

const died = (after = 'this request'): Now => ({
  line: `SHOWS AGAIN: the node stopped answering after ${after}: a known-good chain_blockNumber went unanswered twice, ${LIVENESS_PROBE.retryAfterMs} ms apart; restart it`,
  exit: EXIT.nodeError,
});

/** How long a replay waits after a case before its liveness probe: a node can die just after answering (an exception thrown once the answer is out). */
export const REPLAY_SETTLE_MS = 300;

async function aliveAfter(target: FuzzTarget, probe: LivenessOptions): Promise<boolean> {
  await new Promise((r) => setTimeout(r, REPLAY_SETTLE_MS));
  return target.alive(probe);
}

const gone = (what: string): Now => ({ line: `NO LONGER SHOWS (${what})`, exit: EXIT.ok });

const unanswered = (answer: FuzzAnswer, alive: string): Now => ({
  line: `NO ANSWER: the request got no answer (${answer.failure?.code ?? '?'}: ${answer.failure?.message ?? ''}), though ${alive}: whether the finding still shows cannot be told, and a request left unanswered is a bug of its own`,
  exit: EXIT.nodeError,
});
