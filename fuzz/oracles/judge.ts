/**
 * The fuzzer's judge: one answer to one case, against every oracle of fuzz/model.ts but 'liveness' and
 * 'disagreement' (the runner's). Sources:
 * - 'no-answer': no HTTP answer at all (reset, closed, timed out): RFC 9110 §15, every request gets a status
 *   (but a body over the profile's limit may be cut off by a close: RFC 9112 §9.6);
 * - 'leak': a stack trace, a server file path or exception text anywhere in the answer, body or headers,
 *   whatever the status (CWE-209; core/client/internalDetail.ts), unless the request itself carried it;
 * - 'slow': slower than the time bound (slowBound.ts);
 * - 'envelope', 'error-expected', 'error-code', 'result-schema', 'internal-error': the answer against each
 *   legal reading of the request (expectationOf.ts), the best reading kept: an answer right for one is right.
 *   HTTP statuses are the profile's: a 5xx carrying a JSON-RPC answer is no finding by itself, but a body that
 *   is not JSON to a JSON-RPC POST is (JSON-RPC 2.0 §5); for notifications only a 5xx or a JSON value is
 *   (JSON-RPC 2.0 §4.1, §6); an exchange that is not a call is held only to the status its profile states
 *   (said as "profile: http.…" in the finding's source).
 */
import type { JsonValue } from '../../core/json/index.js';
import { parseJson } from '../../core/json/index.js';
import { internalDetail } from '../../core/client/internalDetail.js';
import { excerpt } from '../../core/excerpt.js';
import { short } from '../../core/client/validateResponse.js';
import type { Profile } from '../../profile/Profile.js';
import { isObject } from '../../profile/readWire.js';
import type { FuzzAnswer, FuzzHttp, Violation } from '../model.js';
import { dueViolations, envelopeViolations, idKey, idAccepted, idViolation, responseProblems } from './answerChecks.js';
import { readingsOf } from './expectationOf.js';
import { lazyIdLiterals, type IdLiterals } from './idLiterals.js';
import type { Due, Reading, Readings } from './Reading.js';

export interface JudgeContext {
  profile: Profile;
  /** Answers slower than this are 'slow' (slowBound.ts). */
  slowBoundMs: number;
}

/** Every violation the answer shows (empty: the answer is right). */
export function judge(c: { http: FuzzHttp; method?: string }, answer: FuzzAnswer, ctx: JudgeContext): Violation[] {
  const readings = readingsCached(c.http, ctx.profile);
  if (answer.failure !== undefined) {
    const { code, message } = answer.failure;
    if (readings.mayClose !== undefined && code !== 'TIMEOUT') return [];
    // The connection refused: the request never reached the node (down, or restarting after a crash), so it says
    // nothing of this request; the liveness probe judges the node. (A request on a kept connection the node closed is
    // said as that close, ExactHttpPool.) An outside tester's supervised node, back in 0.1 to 0.3 s, had innocent
    // cases sent while it was down filed as no-answer findings.
    if (notDelivered(answer)) return [];
    return [{ oracle: 'no-answer', message: `gave no HTTP answer (${code}: ${message}) after ${Math.round(answer.ms)} ms`, source: 'RFC 9110 §15 (a server answers every request with a status)', kind: code === 'TIMEOUT' ? 'no-answer timeout' : 'no-answer closed' }];
  }
  const found: Violation[] = [];
  const leak = leakOf(c.http, answer);
  if (leak !== undefined) found.push(leak);
  if (answer.ms > ctx.slowBoundMs) {
    found.push({ oracle: 'slow', message: `answered in ${Math.round(answer.ms)} ms, over the time bound of ${Math.round(ctx.slowBoundMs)} ms`, source: 'fuzz: time bound, max(1 s, 50 x the median call) by default (fuzz/oracles/slowBound.ts)', kind: 'slow' });
  }
  found.push(...judgeReadings(readings, answer, ctx.profile));
  return found;
}

/** Whether a failure is a connection refused at connect time: the request was never delivered (ECONNREFUSED). */
export const notDelivered = (answer: FuzzAnswer): boolean => answer.failure?.code === 'REFUSED' && /\bECONNREFUSED\b/.test(answer.failure.message);

/** A request's readings, made once per request object (one case is judged per node, and again when re-checked). */
const READINGS = new WeakMap<FuzzHttp, { profile: Profile; readings: Readings }>();

function readingsCached(http: FuzzHttp, profile: Profile): Readings {
  const known = READINGS.get(http);
  if (known !== undefined && known.profile === profile) return known.readings;
  const readings = readingsOf(http, profile);
  READINGS.set(http, { profile, readings });
  return readings;
}

/** The body as JSON, or why it is not. */
type Body = { json: JsonValue } | { notJson: string };

function bodyOf(answer: FuzzAnswer): Body {
  const text = answer.text ?? '';
  const kept = text.length >= KEEP_FROM && text.length <= KEEP_UP_TO;
  if (kept) {
    const known = KEPT.get(text);
    if (known !== undefined) return known;
  }
  let body: Body;
  if (text.trim() === '') body = { notJson: 'an empty body' };
  else {
    try {
      body = { json: parseJson(text) };
    } catch {
      body = { notJson: 'a body that is not JSON' };
    }
  }
  if (kept) {
    if (KEPT.size >= KEPT_AT_MOST) KEPT.clear();
    KEPT.set(text, 'json' in body ? { json: deepFrozen(body.json) } : body);
  }
  return body;
}

/**
 * Long answers read before, by their text (bodyOf; leakOf keeps those it found clean): a node answers the same long text again and again (rpc.discover's
 * document, 27 KB holding u64 bounds that JSON.parse alone cannot read: 1% of the answers and more of the
 * parsing than all the others together). Comparing a text costs far less than parsing it again. Values kept are
 * frozen: the oracles only read them.
 */
const KEEP_FROM = 4_096;
const KEEP_UP_TO = 256 * 1024;
const KEPT_AT_MOST = 8;
const KEPT = new Map<string, Body>();

/** Long answer bodies that showed no internal detail, by their text (rpc.discover's: 460 µs of pattern searches each). */
const CLEAN = new Set<string>();

function deepFrozen(value: JsonValue): JsonValue {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const item of Array.isArray(value) ? value : Object.values(value)) deepFrozen(item);
    Object.freeze(value);
  }
  return value;
}

const excerptOf = (answer: FuzzAnswer): string => {
  const text = answer.text ?? '';
  const body = text.trim() === '' ? '(empty body)' : excerpt(text, 200);
  return `HTTP ${answer.status ?? '?'}: ${body}`;
};

/** The violations of the best reading: none when the answer is right for one of them. */
function judgeReadings(readings: Readings, answer: FuzzAnswer, profile: Profile): Violation[] {
  const body = bodyOf(answer);
  let best: Violation[] | undefined;
  for (const reading of readings.readings) {
    const found = readingViolations(reading, body, answer, readings, profile);
    if (found.length === 0) return [];
    if (best === undefined || found.length < best.length) best = found;
  }
  return best ?? [];
}

function readingViolations(reading: Reading, body: Body, answer: FuzzAnswer, readings: Readings, profile: Profile): Violation[] {
  const status = answer.status ?? 0;
  // Written only for a violation: the judge's hot path is an answer that is right.
  let excerptText: string | undefined;
  const excerpt = (): string => (excerptText ??= excerptOf(answer));
  const notJson = (what: string): Violation[] => {
    if ('json' in body || readings.refusal?.accepts(status) === true) return [];
    return [{ oracle: 'envelope', message: `answered ${what} with HTTP ${status} and ${body.notJson}, not a JSON-RPC response`, source: 'JSON-RPC 2.0 §5 ("the Server MUST reply with a Response")', excerpt: excerpt(), kind: 'not json' }];
  };
  switch (reading.kind) {
    case 'unjudged': {
      const out: Violation[] = [];
      if (reading.status !== undefined && status !== reading.status.status && !(reading.status.orAnyRefusal === true && status >= 400 && status < 500)) {
        out.push({ oracle: 'envelope', message: `answered ${reading.what} with HTTP ${status}, not the profile's ${reading.status.status}${reading.status.orAnyRefusal === true ? ' nor any other 4xx' : ''}`, source: reading.status.source, excerpt: excerpt(), kind: `status ${status} for ${reading.status.status}` });
      }
      if (reading.mustBeJson && 'notJson' in body) out.push(...notJson(reading.what));
      return out;
    }
    case 'nothing': {
      if (status >= 500) return [{ oracle: 'envelope', message: `answered ${reading.what} with HTTP ${status}, a server failure`, source: 'RFC 9110 §15.6; JSON-RPC 2.0 §4.1', excerpt: excerpt(), kind: 'notification 5xx' }];
      if ('json' in body) return [{ oracle: 'envelope', message: `answered ${reading.what} with a JSON value, where nothing is due`, source: 'JSON-RPC 2.0 §4.1 ("The Server MUST NOT reply to a Notification"), §6', excerpt: excerpt(), kind: 'notification answered' }];
      return [];
    }
    case 'single': {
      if ('notJson' in body) return notJson(reading.due.what);
      if (Array.isArray(body.json)) {
        // A batch over the profile's maxBatch is due one error; an array means the node took it as a batch: a
        // profile matter (its limit), not JSON-RPC's.
        const overLimit = reading.due.what.startsWith('a batch');
        return [{ oracle: 'envelope', message: `answered ${reading.due.what}, ${overLimit ? 'due one error (over the profile\'s maxBatch),' : 'a single request,'} with an array`, source: overLimit ? 'profile: maxBatch (a batch over it is refused with one error)' : 'JSON-RPC 2.0 §5, §6 (an array answers a batch only)', excerpt: excerpt(), kind: overLimit ? 'array over maxBatch' : 'array for a single request' }];
      }
      return dueViolations(reading.due, body.json, profile, () => answerIds(answer)().top);
    }
    case 'batch': {
      const what = `a batch of ${reading.elements.length + reading.notifications}`;
      if ('notJson' in body) return notJson(what);
      if (!Array.isArray(body.json)) {
        const json = body.json;
        const refusal = isObject(json) && responseProblems(json).length === 0 && isObject(json.error) && json.id === null;
        if (reading.wholeRefusal && refusal) return [];
        return [{ oracle: 'envelope', message: `answered ${what} with ${refusal ? 'one error object' : 'a single value'}, not an array of responses`, source: 'JSON-RPC 2.0 §6 ("the Server should respond with an Array containing the corresponding Response objects")', excerpt: excerpt(), kind: refusal ? 'batch one error object' : 'batch single value' }];
      }
      return batchViolations(reading, body.json, profile, what, answerIds(answer));
    }
  }
}

/**
 * A batch's answers matched to the answers due by id, in any order (JSON-RPC 2.0 §6): each answer to a due
 * with its id (an Invalid Request's answer with id null to any Invalid Request), the first due it is right for
 * preferred; then answers due but missing, and answers that match none (a second answer, an answer to a notification).
 * When more answers carry id null than elements may get it (an Invalid Request, or a call whose id was lost), which
 * answer is whose cannot be known: those answers are judged only for what holds whoever's they are (their own
 * envelope), the elements that may get id null are taken as answered, and the surplus is what is certain: answers
 * that match no call. No element is blamed on a guessed pairing (the answer to a notification, id null, is not the
 * wrong answer of the invalid element beside it). The one pairing that is certain is made: one call left unanswered
 * and one answer of id null left over, in a batch without notifications, is that call answered with its id lost.
 */
function batchViolations(reading: Extract<Reading, { kind: 'batch' }>, answers: JsonValue[], profile: Profile, what: string, ids: () => IdLiterals): Violation[] {
  const open = new Map<string, Due[]>();
  for (const due of reading.elements) {
    const key = idKey(due.id, due.idText);
    open.set(key, [...(open.get(key) ?? []), due]);
  }
  const out: Violation[] = [];
  const extra: JsonValue[] = [];
  const nullAnswers = answers.filter((r) => isObject(r) && r.id === null);
  const ambiguous = nullAnswers.length > reading.elements.filter((d) => d.id === null || d.idMayBeNull).length;
  // Answers with an id first: an answer of id null may stand for an element that lost its id, never for one its own
  // id answers (an outside tester's node answered a notification with id null beside an invalid element {"id":""}
  // answered right by id: the null one, taken first, was blamed on that element as "a result, not an error").
  const isNullId = (r: JsonValue): boolean => isObject(r) && r.id === null;
  const order = [...answers.keys()].sort((a, b) => Number(isNullId(answers[a] ?? null)) - Number(isNullId(answers[b] ?? null)));
  for (const i of order) {
    const response = answers[i] ?? null;
    const id = isObject(response) ? response.id : undefined;
    if (ambiguous && id === null) continue;
    const idText = (): string | undefined => ids().elements[i];
    let candidates = open.get(idKey(id, idText)) ?? [];
    // A number the request wrote with a fraction or an exponent, echoed as a double's reading of it (answerChecks.ts, sameId).
    if (candidates.length === 0 && typeof id === 'number') candidates = [...open.values()].flat().filter((d) => idAccepted(d, id, idText));
    if (candidates.length === 0 && id === null) candidates = [...open.values()].flat().filter((d) => idAccepted(d, null));
    if (candidates.length === 0) {
      extra.push(response);
      continue;
    }
    const judged = candidates.map((due) => ({ due, found: dueViolations(due, response, profile, idText) }));
    const chosen = judged.find((j) => j.found.length === 0) ?? judged[0];
    if (chosen === undefined) continue;
    const method = chosen.due.method;
    out.push(...(method === undefined ? chosen.found : chosen.found.map((v) => ({ ...v, method }))));
    const key = idKey(chosen.due.id, chosen.due.idText);
    open.set(key, (open.get(key) ?? []).filter((d) => d !== chosen.due));
  }
  if (ambiguous) {
    // Whoever's they are: each answer's own envelope; the elements that may get id null, taken as answered; the rest, extra.
    for (const response of nullAnswers) out.push(...envelopeViolations(response, 'a batch element (id null)'));
    let mayBeNull = 0;
    for (const [key, dues] of open) {
      const left = dues.filter((d) => !(d.id === null || d.idMayBeNull));
      mayBeNull += dues.length - left.length;
      open.set(key, left);
    }
    extra.push(...nullAnswers.slice(mayBeNull));
  }
  const missing = [...open.values()].flat();
  // One call left unanswered and one answer of id null matching none, in a batch without notifications: that answer
  // can only be that call's, its id lost (the same bug as a single call answered with id null, filed as such).
  const [lone] = missing;
  const [stray] = extra;
  if (reading.notifications === 0 && missing.length === 1 && extra.length === 1 && lone !== undefined && isObject(stray) && stray.id === null) {
    const v = idViolation(lone, null, short(stray));
    return [...out, lone.method === undefined ? v : { ...v, method: lone.method }];
  }
  if (missing.length > 0) {
    const list = missing.slice(0, 5).map((d) => d.what).join('; ');
    const methods = new Set(missing.map((d) => d.method));
    const [only] = methods;
    out.push({ oracle: 'envelope', message: `answered ${what} without an answer to ${missing.length} of its calls (${list}${missing.length > 5 ? '; …' : ''})`, source: 'JSON-RPC 2.0 §6 (a Response object for each Request object but notifications)', excerpt: short(answers), kind: 'batch missing answer', ...(methods.size === 1 && only !== undefined ? { method: only } : {}) });
  }
  if (extra.length > 0) {
    const ids = extra.slice(0, 5).map((r) => (isObject(r) && Object.hasOwn(r, 'id') ? short(r.id) : 'none')).join(', ');
    const notes = reading.notifications > 0 ? `; its ${reading.notifications} notification(s) get none` : '';
    out.push({ oracle: 'envelope', message: `answered ${what} with ${extra.length} answer(s) that match no call (id ${ids})${notes}`, source: 'JSON-RPC 2.0 §6, §4.1', excerpt: short(extra), kind: 'batch extra answer' });
  }
  return out;
}

/** The literals of an answer's ids (idLiterals.ts), made once per answer and only when a number needs them. */
const ANSWER_IDS = new WeakMap<FuzzAnswer, () => IdLiterals>();

function answerIds(answer: FuzzAnswer): () => IdLiterals {
  let ids = ANSWER_IDS.get(answer);
  if (ids === undefined) {
    ids = lazyIdLiterals(answer.text ?? '');
    ANSWER_IDS.set(answer, ids);
  }
  return ids;
}

/**
 * A leak of internals in the answer, its body or its headers (each searched on its own: a leak is in one of them),
 * unless the request carried the same text.
 */
function leakOf(http: FuzzHttp, answer: FuzzAnswer): Violation | undefined {
  const body = answer.text ?? '';
  const headers = Object.entries(answer.headers ?? {}).map(([k, v]) => `${k}: ${v}`).join('\n');
  let found = bodyLeak(body) ?? internalDetail(headers);
  if (found === undefined) return undefined;
  const request = Buffer.from(http.body).toString('utf8');
  // A node may quote the request back (an unknown method's name, a bad param): what came from the fuzzer is no leak.
  if (internalDetail(request) !== undefined) found = internalDetail(withoutEchoes(body, request)) ?? internalDetail(withoutEchoes(headers, request));
  if (found === undefined) return undefined;
  return { oracle: 'leak', message: `answered with HTTP ${answer.status ?? '?'} showing ${found.kind}: ${JSON.stringify(found.excerpt)}`, source: 'CWE-209 (error messages that expose internals); JSON-RPC 2.0 §5.1', excerpt: found.excerpt, kind: `leak ${found.kind}` };
}

/** The internal detail a body shows; a long body seen clean before is clean again (kept by its text, CLEAN). */
function bodyLeak(body: string): ReturnType<typeof internalDetail> {
  const long = body.length >= KEEP_FROM && body.length <= KEEP_UP_TO;
  if (long && CLEAN.has(body)) return undefined;
  const found = internalDetail(body);
  if (found === undefined && long) {
    if (CLEAN.size >= KEPT_AT_MOST) CLEAN.clear();
    CLEAN.add(body);
  }
  return found;
}

/** The answer text without the request's own strings (as sent, JSON-escaped, or cut to 40 characters as a node may quote them). */
function withoutEchoes(text: string, request: string): string {
  let pieces: string[];
  try {
    pieces = stringsOf(parseJson(request));
  } catch {
    pieces = request.split(/[\s"]+/);
  }
  let out = text;
  for (const piece of pieces.filter((p) => p.length >= 3).sort((a, b) => b.length - a.length)) {
    for (const form of [piece, JSON.stringify(piece).slice(1, -1), piece.slice(0, 40)]) out = out.split(form).join(' ');
  }
  return out;
}

function stringsOf(v: JsonValue): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(stringsOf);
  if (isObject(v)) return Object.entries(v).flatMap(([k, x]) => [k, ...stringsOf(x)]);
  return [];
}
