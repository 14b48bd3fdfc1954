/**
 * `chainrpc fuzz --replay <report.json> <finding-id>`: a finding's minimal case sent again, byte for byte, to
 * the node it was found on (or another), judged by the same oracles, and whether it still shows said plainly:
 * the fix of a node team is proven by this command turning from "shows again" to "no longer shows".
 */
import { readFileSync } from 'node:fs';
import { rpcEndpoint } from '../../core/client/baseUrl.js';
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
import { EXIT } from '../../core/errors/exitCodes.js';
import type { Profile } from '../../profile/Profile.js';
import type { Finding } from '../model.js';
import { SLOW_FLOOR_MS } from '../oracles/slowBound.js';
import { judgeAnswer } from './judgeAnswer.js';
import { httpOf } from './foundCase.js';
import { CaseSender, sendCase } from './sendCase.js';

/** The report or the finding cannot be read (exit 2). */
export class FuzzReplayError extends ChainrpcError {
  readonly kind = 'usage';
}

export interface ReplayOptions {
  reportPath: string;
  findingId: string;
  /** Another node than the one the finding was found on. */
  url?: string;
  profile: Profile;
  timeoutMs: number;
  out: (line: string) => void;
}

/** The findings of a fuzz report (its `findings`), or a FuzzReplayError saying what the file is instead. */
export function readFindings(path: string): Finding[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new FuzzReplayError(`--replay ${path}: cannot read it as JSON (${(err as Error).message})`);
  }
  const findings = typeof value === 'object' && value !== null && 'findings' in value ? (value).findings : undefined;
  const format = typeof value === 'object' && value !== null && 'format' in value ? String((value).format) : '';
  if (!Array.isArray(findings) || (format !== '' && !format.startsWith('chainrpc-fuzz/'))) throw new FuzzReplayError(`--replay ${path}: not a chainrpc fuzz report (no findings list${format === '' ? '' : `; its format is ${format}`})`);
  return findings as Finding[];
}

/** Sends the finding's minimal case again; resolves 1 when it still shows, 0 when it no longer does. */
export async function replayFinding(o: ReplayOptions): Promise<number> {
  const findings = readFindings(o.reportPath);
  const finding = findings.find((f) => f.id.toLowerCase() === o.findingId.toLowerCase());
  if (finding === undefined) throw new FuzzReplayError(`--replay ${o.reportPath}: no finding ${o.findingId} (it has ${findings.map((f) => f.id).join(', ') || 'none'})`);
  const url = o.url ?? finding.url;
  const sender = new CaseSender(rpcEndpoint(url, o.profile.rpcPath), 1);
  try {
    const http = httpOf(finding.minimal);
    o.out(`${finding.id} ${finding.oracle}${finding.method === undefined ? '' : ` ${finding.method}`}: ${finding.message}`);
    o.out(`sending its minimal case (${http.body.length} bytes) to ${sender.url}`);
    const answer = await sendCase(sender, http, o.timeoutMs, o.profile.maxBodyBytes);
    if (finding.oracle === 'liveness' || finding.oracle === 'disagreement') {
      o.out(answer.failure === undefined ? `answered: HTTP ${answer.status ?? '?'} in ${answer.ms.toFixed(1)} ms: ${(answer.text ?? '').slice(0, 300)}` : `no answer: ${answer.failure.message}`);
      o.out(finding.oracle === 'liveness' ? 'now: check that the node still answers (chainrpc call --url … chain_blockNumber): a dead node is the finding' : 'now: compare with the other node\'s answer in the report');
      return EXIT.ok;
    }
    // Slowness by the oracle's default floor: the run's median is not the replay's.
    const violations = judgeAnswer(http, answer, { profile: o.profile, slowBoundMs: SLOW_FLOOR_MS });
    const again = violations.find((v) => v.oracle === finding.oracle);
    o.out(answer.failure === undefined ? `answer: HTTP ${answer.status ?? '?'} in ${answer.ms.toFixed(1)} ms: ${(answer.text ?? '').slice(0, 300)}` : `no answer: ${answer.failure.message}`);
    o.out(again === undefined ? `now: NO LONGER SHOWS (${finding.oracle})` : `now: SHOWS AGAIN: ${again.message}`);
    return again === undefined ? EXIT.ok : EXIT.nodeError;
  } finally {
    sender.close();
  }
}
