import type { JsonValue } from '../../core/json/index.js';
import { referenceProfile } from '../referenceProfile.js';
import { bisectLimit } from './bisectLimit.js';
import type { Verdict } from './bisectLimit.js';
import { describeAnswer } from './describe.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { DeadlineReached, isObject, readResponse } from './Prober.js';
import type { CallOutcome, Prober } from './Prober.js';

/** Batch sizes tried: doubling from 1 to 4096, then bisected. */
export const BATCH_CAP = 4096;
/** 13 doublings reach the cap; 12 halvings pin the gap below it. */
const MAX_BATCH_PROBES = 27;

/** How a batch of n calls was answered. */
type BatchAnswer = { verdict: 'served' } | { verdict: 'refused'; code: number | undefined; text: string };

/** JSON-RPC 2.0 §6: an array of responses is the batch served; one error object is the batch refused. */
function readBatch(body: JsonValue | undefined, single: CallOutcome, n: number, text: string): BatchAnswer {
  if (Array.isArray(body)) {
    const codes = body.map((r) => (isObject(r) && isObject(r.error) ? r.error.code : undefined));
    // Every call refused with one code: a node that answers each call of an oversized batch with an error.
    if (n > 1 && body.length > 0 && codes.every((c) => typeof c === 'number' && c === codes[0])) {
      const code = codes[0] as number;
      return { verdict: 'refused', code, text: `${body.length} error objects, code ${code}` };
    }
    return { verdict: 'served' };
  }
  if (single.kind === 'error') return { verdict: 'refused', code: single.code, text: `one error object, code ${single.code}${single.status === 200 ? '' : ` (HTTP ${single.status})`}` };
  return { verdict: 'refused', code: undefined, text };
}

/**
 * The node's batch size limit (docs/interface.md#limits: not shown) and the code it refuses
 * a larger batch with (errorCodes.BatchTooLarge). Each probe is a batch of n calls of `method`, one the
 * node serves with no params (an array of n errors of one code is then a refusal, not n answers).
 * Batches whose body would pass the body limit are not sent: the body limit, not the batch limit,
 * would refuse them.
 */
export async function detectBatchLimit(prober: Prober, method: string, maxBodyBytes: number | undefined): Promise<Finding[]> {
  const reference = referenceProfile();
  const callText = (id: number): string => `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":[],"id":${id}}`;
  // The longest call (5-digit id) plus a comma: a batch of n is at most n times this, plus the brackets.
  const perCall = callText(BATCH_CAP).length + 1;
  const cap = maxBodyBytes === undefined ? BATCH_CAP : Math.max(1, Math.min(BATCH_CAP, Math.floor((maxBodyBytes - 2) / perCall)));
  const refusals = new Map<number, { code: number | undefined; text: string }>();
  let shortAt: { n: number; responses: number } | undefined;
  const probe = async (n: number): Promise<Verdict> => {
    const parts: string[] = [];
    for (let i = 1; i <= n; i++) parts.push(callText(i));
    let answer;
    try {
      answer = await prober.post(`[${parts.join(',')}]`);
    } catch (error) {
      if (error instanceof DeadlineReached) return 'stop';
      throw error;
    }
    const read = answer.kind === 'http' ? readBatch(answer.json, readResponse(answer.json, answer.status, answer.text), n, describeAnswer(answer)) : ({ verdict: 'refused', code: undefined, text: describeAnswer(answer) } as const);
    // An array short of the calls is served, not a limit (no legal form of one): a node that drops calls past some
    // count. Said, so that the profile's maxBatch is not mistaken for the cause; transport/batch-answers-every-call judges it.
    const responses = answer.kind === 'http' && Array.isArray(answer.json) ? answer.json.length : undefined;
    const short = read.verdict === 'served' && responses !== undefined && responses < n ? `, but only ${responses} responses came back` : '';
    if (short !== '') shortAt ??= { n, responses: responses ?? 0 };
    prober.progress(`maxBatch: ${n} call${n === 1 ? '' : 's'} -> ${read.verdict === 'served' ? `served${short}` : `refused, ${read.text}`}`);
    if (read.verdict === 'refused') refusals.set(n, { code: read.code, text: read.text });
    return read.verdict;
  };
  const r = await bisectLimit({ start: 1, cap, maxProbes: MAX_BATCH_PROBES, probe });
  const findings: Finding[] = [];
  const dropped = shortAt === undefined ? '' : ` (a batch of ${shortAt.n} got only ${shortAt.responses} responses: calls dropped, which no limit explains)`;
  const sent = `${r.probes} batches of ${method}${dropped}`;
  if (r.refusedAt === undefined) {
    const why = cap < BATCH_CAP ? ` (larger batches would pass the ${maxBodyBytes}-byte body limit)` : ' (the cap)';
    findings.push(r.stopped ? fallback('maxBatch', null, `${sent}: stopped (deadline) after serving ${r.servedUpTo}`) : probed('maxBatch', null, cap < BATCH_CAP ? 'medium' : 'high', `${sent}: served up to ${r.servedUpTo} calls${why}: no limit found`));
    findings.push(fallback('errorCodes.BatchTooLarge', reference.errorCodes.BatchTooLarge ?? null, 'no batch was refused'));
    return findings;
  }
  const refusal = refusals.get(r.refusedAt);
  if (r.limit !== undefined && r.limit > 0) findings.push(probed('maxBatch', r.limit, 'high', `${sent}: ${r.limit} served, ${r.limit + 1} -> ${refusal?.text ?? 'refused'}`));
  else if (r.limit === 0) findings.push(fallback('maxBatch', null, `a batch of one call -> ${refusal?.text ?? 'refused'}: the node does not serve batches`));
  else findings.push(fallback('maxBatch', null, `${sent}: between ${r.servedUpTo} (served) and ${r.refusedAt} (${refusal?.text ?? 'refused'}); ${r.stopped ? 'stopped by the deadline' : 'probe budget spent'}`));
  const code = [...refusals.values()].find((x) => x.code !== undefined)?.code;
  findings.push(code === undefined ? fallback('errorCodes.BatchTooLarge', reference.errorCodes.BatchTooLarge ?? null, `the refusal carried no error object (${refusal?.text ?? ''})`) : probed('errorCodes.BatchTooLarge', code, 'high', `a batch of ${r.refusedAt} -> ${refusal?.text ?? ''}`));
  return findings;
}
