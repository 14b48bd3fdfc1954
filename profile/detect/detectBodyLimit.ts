import { stringifyJson } from '../../core/json/index.js';
import { referenceProfile } from '../referenceProfile.js';
import { bisectLimit } from './bisectLimit.js';
import type { Verdict } from './bisectLimit.js';
import { bytesText, describeAnswer } from './describe.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { DeadlineReached, isObject, readResponse } from './Prober.js';
import type { Prober } from './Prober.js';

/** The body sizes tried: doubling from 64 KiB up to 16 MiB (no node needs a larger call), then bisected. */
export const BODY_START = 64 * 1024;
export const BODY_CAP = 16 * 1024 * 1024;
/** 9 doublings reach the cap; 24 halvings pin any gap below it to the byte. */
const MAX_BODY_PROBES = 34;

/**
 * The node's request body limit (the spec shows none: Limits) and the status it refuses a larger body
 * with. Each probe is a valid call of `method` (one that takes no params) padded with JSON whitespace
 * (RFC 8259 §2 allows it between tokens) to exactly n bytes: served means the node answered the call;
 * anything else is a refusal, whose HTTP status becomes http.bodyTooLarge (a transport failure without a status is a
 * refusal whose status is unknown: a node may close the connection on a body it will not read).
 */
export async function detectBodyLimit(prober: Prober, method: string): Promise<{ findings: Finding[]; maxBodyBytes: number | undefined }> {
  const reference = referenceProfile();
  const call = stringifyJson({ jsonrpc: '2.0', method, params: [], id: 1 });
  const statuses = new Map<number, string>();
  const probe = async (n: number): Promise<Verdict> => {
    // Built per probe and dropped after it: at most BODY_CAP bytes are held at a time.
    const body = Buffer.alloc(n, 0x20);
    body.write(call, 0, 'utf8');
    let answer;
    try {
      answer = await prober.post(body, { exact: true, maxResponseBytes: 64 * 1024 });
    } catch (error) {
      if (error instanceof DeadlineReached) return 'stop';
      throw error;
    }
    // Served: the node answered the call (JSON-RPC 2.0 §5: a response carrying its id). A refusal of the
    // body is anything else: another status without one, or an error for no request (id null).
    const served = answer.kind === 'http' && readResponse(answer.json, answer.status, answer.text).kind !== 'other' && isObject(answer.json) && answer.json.id === 1;
    prober.progress(`maxBodyBytes: ${bytesText(n)} -> ${served ? 'served' : answer.kind === 'http' ? `refused, HTTP ${answer.status}` : `refused, ${describeAnswer(answer)}`}`);
    if (!served) statuses.set(n, answer.kind === 'http' ? `HTTP ${answer.status}` : describeAnswer(answer));
    return served ? 'served' : 'refused';
  };
  const r = await bisectLimit({ start: BODY_START, cap: BODY_CAP, floor: Buffer.byteLength(call), maxProbes: MAX_BODY_PROBES, probe });
  const findings: Finding[] = [];
  const sent = `${r.probes} padded ${method} calls from ${bytesText(BODY_START)}`;
  if (r.refusedAt === undefined) {
    findings.push(r.stopped ? fallback('maxBodyBytes', null, `${sent}: stopped (deadline) after serving ${bytesText(r.servedUpTo)}`) : probed('maxBodyBytes', null, 'high', `${sent}: served up to ${bytesText(r.servedUpTo)} (the cap): no limit found`));
    findings.push(fallback('http.bodyTooLarge', reference.http.bodyTooLarge, 'no body was refused'));
    return { findings, maxBodyBytes: undefined };
  }
  const refusal = statuses.get(r.refusedAt) ?? 'refused';
  if (r.limit !== undefined) findings.push(probed('maxBodyBytes', r.limit, 'high', `${sent}: ${r.limit} bytes served, ${r.limit + 1} bytes -> ${refusal}`));
  else findings.push(fallback('maxBodyBytes', null, `${sent}: between ${r.servedUpTo} (served) and ${r.refusedAt} (${refusal}); ${r.stopped ? 'stopped by the deadline' : 'probe budget spent'}`));
  const status = /^HTTP (\d+)$/.exec(refusal)?.[1];
  findings.push(
    status === undefined
      ? fallback('http.bodyTooLarge', reference.http.bodyTooLarge, `a body of ${r.refusedAt} bytes -> ${refusal} (refused, status unknown)`)
      : probed('http.bodyTooLarge', Number(status), 'high', `a body of ${r.refusedAt} bytes -> ${refusal}`),
  );
  return { findings, maxBodyBytes: r.limit };
}
