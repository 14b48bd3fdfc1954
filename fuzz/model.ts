/**
 * The fuzzer's data: a case (one HTTP request, reproducible from its seed alone), what JSON-RPC 2.0 and the
 * profile make of it (the expectation, derived from the request itself, so a shrunk case is judged as its
 * original was), a finding (what the node did wrong, by oracle), and a run (what `chainrpc fuzz` reports).
 * Plain data throughout: it goes into reports and is read back by `chainrpc fuzz --replay`.
 */
import type { JsonValue } from '../core/json/index.js';

/** Where a case comes from. */
export type CaseFamily =
  /** A call of a method with params drawn from its schema and from the live chain. */
  | 'valid'
  /** A call whose params break one constraint of the method's params schema, or take a wrong but plausible value. */
  | 'invalid-params'
  /** The request object or the body mutated: members missing, duplicated, of other types; odd ids; batches; bytes that are not JSON. */
  | 'envelope'
  /** HTTP-level variation within what the profile states: method, content type, absent or chunked body. */
  | 'http';

export const CASE_FAMILIES: readonly CaseFamily[] = ['valid', 'invalid-params', 'envelope', 'http'];

/** One HTTP request the fuzzer sends. */
export interface FuzzCase {
  /** `<family>/<rule>` (e.g. `invalid-params/maximum`, `envelope/id-type`): the rule part of a finding's signature. */
  rule: string;
  family: CaseFamily;
  /** The spec's name of the method the case calls (a batch: its first, which `--only` selects by), if it calls one. */
  method?: string;
  /** The run's seed and the case's index: `caseAt(seed, index)` makes this very case again. */
  seed: number;
  index: number;
  /** A short description of what is odd about it ("height 2^64", "id is an object", "batch of 3 with a duplicate id"). */
  title: string;
  /** The request. The body is exact bytes; `json` is the same body as a value when it is JSON (what shrinking works on). */
  http: FuzzHttp;
  json?: JsonValue;
  /** Could harm the node (a deep body, a huge string, invalid UTF-8, a boundary value): the node's liveness is checked right after. */
  risky: boolean;
}

export interface FuzzHttp {
  /** HTTP method (POST for all but the http family). */
  method: string;
  /** Content-Type header; undefined: none sent. */
  contentType: string | undefined;
  /** Exact body bytes (empty: none). */
  body: Uint8Array;
  /** Send no Content-Length (and so, per RFC 9112 §6.3, no body): on a connection of its own. */
  omitContentLength?: boolean;
}

/** What a right answer to one request object (or to a body that is not one) looks like. */
export type AnswerExpectation =
  /** A valid call: a result that validates against the method's result schema under the profile, or one of the method's own errors. */
  | { kind: 'result'; method: string }
  /**
   * An invalid call or request: an error object, never a result. `code` when a MUST of JSON-RPC 2.0 or the
   * profile names it (`codeFrom` says which: "JSON-RPC 2.0 §5.1", "profile errorCodes.InvalidParams").
   */
  | { kind: 'error'; code?: number; codeFrom?: string; because: string }
  /** A form the profile accepts or refuses at the node's choice (leniencies it states as accepted): any well-formed answer. */
  | { kind: 'either'; because: string };

/** What JSON-RPC 2.0 (§4-§6) and the profile make of a whole body. */
export type Expectation =
  /** One answer object, with this id (null: the request's id could not be read). */
  | { kind: 'single'; id: JsonValue; answer: AnswerExpectation }
  /**
   * A batch: one answer per element that is not a notification, in any order; elements that are not request
   * objects are answered with -32600 and id null. `elements` lists the answers due.
   */
  | { kind: 'batch'; elements: { id: JsonValue; answer: AnswerExpectation }[] }
  /** Only notifications: no JSON-RPC answer at all (§4.1, §6), whatever the HTTP status says. */
  | { kind: 'nothing' }
  /** Nothing JSON-RPC can say about it (an HTTP variation the profile leaves open): only the oracles every answer faces. */
  | { kind: 'unjudged'; because: string };

/** What the node answered to a case. */
export interface FuzzAnswer {
  /** undefined: no HTTP answer (see `failure`). */
  status?: number;
  headers?: Record<string, string>;
  /** The body as text (cut at the fuzzer's answer cap). */
  text?: string;
  /** The body went past the fuzzer's answer cap and was cut: nothing is judged of its shape (a tool limit, not the node's fault). */
  truncated?: boolean;
  /** No answer: refused, reset, timed out (with the time bound), not HTTP. */
  failure?: { code: string; message: string };
  /** ms from the first byte sent to the last byte read (or to the failure). */
  ms: number;
}

/** The fuzzer's judges. Each finding names one. docs/fuzz.md gives each its source. */
export type OracleName =
  /** The answer is not valid JSON-RPC 2.0 for what was sent (envelope, id echo, batch shape, an answer to a notification). */
  | 'envelope'
  /** An invalid call answered with a result. */
  | 'error-expected'
  /** An invalid call answered with an error whose code is not the one a MUST or the profile names. */
  | 'error-code'
  /** A valid call's result does not validate against the method's result schema under the profile. */
  | 'result-schema'
  /** A valid call answered with an internal error (-32603): the node's own words for a bug. */
  | 'internal-error'
  /** A stack trace, a server file path or internal exception text in an answer, whatever the HTTP status. */
  | 'leak'
  /** An answer slower than the time bound (max(1 s, 50x the median call) by default). */
  | 'slow'
  /** No answer at all (reset, closed, timed out) to this request, while the node still answers others. */
  | 'no-answer'
  /** The node stopped answering after this request: a known-good call got no answer. */
  | 'liveness'
  /** Two nodes answered a valid case differently, beyond what their profiles excuse. */
  | 'disagreement';

export const ORACLES: readonly OracleName[] = ['envelope', 'error-expected', 'error-code', 'result-schema', 'internal-error', 'leak', 'slow', 'no-answer', 'liveness', 'disagreement'];

/** One oracle's verdict on one answer: what is wrong, said so a node team can act on it. */
export interface Violation {
  oracle: OracleName;
  /** What the node did wrong, in one sentence ("answered an invalid height with a result", "echoed id 7 as \"7\""). */
  message: string;
  /** Where the rule comes from: "JSON-RPC 2.0 §5", "spec: docs/interface.md#…", "schema: methods/chain_getAccount#result", "profile: errorCodes.InvalidParams". */
  source: string;
  /** A short excerpt of the answer that shows it. */
  excerpt?: string;
  /**
   * What kind of violation it is, in a few stable words without the request's values (`response: both "result"
   * and "error" members`, `id null`, `error-code -32602 for -32601`, `batch extra answer`): a shrink step must
   * keep it (a candidate showing another kind is another bug), and a violation of the answer's own envelope
   * (`response …`, `id …`: envelopeKind) is filed by it rather than by the case's rule (FindingBook.signatureOf).
   */
  kind?: string;
  /**
   * In a batch, the spec's name of the method of the call the violation is about (one call's answer, or calls
   * left unanswered that all call it); absent when it is about the batch as a whole or calls of several methods.
   */
  method?: string;
}

/** A finding: a violation, deduplicated by signature, with its minimal reproducing case. */
export interface Finding {
  /** `F1`, `F2`, … in the order found; what `--replay <report> <id>` takes. */
  id: string;
  /**
   * node + oracle + method + rule (for a violation of the answer's own envelope, the violation's kind in place of
   * the rule: FindingBook.signatureOf): findings with one signature are one finding (`count` says how often it was seen).
   */
  signature: string;
  oracle: OracleName;
  /** The base URL of the node it was found on. */
  url: string;
  method?: string;
  rule: string;
  message: string;
  source: string;
  /**
   * The violation's kind, when its oracle tells kinds apart (an id echoed wrong, a "jsonrpc" member missing, both
   * the envelope oracle's): `--replay` says it shows again only for the same kind. Absent in reports before 2026-11-29.
   */
  kind?: string;
  /** The first case that showed it, and the smallest one found that still does (the same when nothing shrank). */
  original: FoundCase;
  minimal: FoundCase;
  /** Times it was seen (cases with this signature). */
  count: number;
  /**
   * Re-sent before it was reported: 'reproduced', 'flaky' (the minimal case did not show it again),
   * 'not-rechecked' (the node was dead), or 'out-of-time' (the run's time budget ran out before it could be
   * re-sent: a sighting, said and not counted, as a flaky one).
   */
  recheck: 'reproduced' | 'flaky' | 'not-rechecked' | 'out-of-time';
  /** ms from the run's start to the first sighting. */
  atMs: number;
  /** Other nodes' answers to the same case (a disagreement). */
  others?: { url: string; answer: FuzzAnswer }[];
  /**
   * Other signatures (method, rule) whose cases shrank to this finding's minimal case, showing the same violation
   * (or, for a violation of the answer's own envelope, that showed the same kind of it on the same method): one
   * cause, folded into this finding (their sightings are in `count`); `id` is the one each had when filed.
   */
  alsoAs?: { id: string; method?: string; rule: string; count: number }[];
  /**
   * A liveness finding's other candidates: the cases also sent to the node since its last good probe (left
   * unanswered as it died, or answered just before), which `--replay` sends in turn when the named one does not kill it.
   */
  candidates?: FoundCase[];
}

export interface FoundCase {
  seed: number;
  index: number;
  rule: string;
  title: string;
  http: { method: string; contentType: string | undefined; bodyBase64: string; bodyText?: string; omitContentLength?: boolean };
  answer: FuzzAnswer;
  /** A curl command that sends exactly these bytes. */
  curl: string;
}

/** Something the fuzzer could not do (a tool error, never counted against the node). */
export interface ToolError {
  url?: string;
  message: string;
  atMs: number;
}

/** One target's state at the end of a run. */
export interface TargetSummary {
  url: string;
  cases: number;
  findings: number;
  /** 'stopped': it stopped answering (see its liveness finding); the fuzzer sent it nothing more. */
  state: 'answering' | 'stopped' | 'unreachable';
  /** Median ms of a call, and the time bound the slow oracle used. */
  medianMs: number;
  slowBoundMs: number;
  livenessChecks: number;
}

/** A run of `chainrpc fuzz`, as the reports hold it. */
export interface FuzzRun {
  tool: { name: 'chainrpc'; version: string };
  startedAt: string;
  durationMs: number;
  seed: number;
  /**
   * `profile`: the name of the profile the run judged by; `profileFile`: its file as an absolute path, when it
   * came from one (`--profile <file>`, or the `profile.json` a `--profile detect` run writes beside its
   * report): `--replay` loads it, and the reports' replay commands pass it, so a finding is judged again by
   * the rules it was found by. `rpcPath`, `methodPrefix`: given on the command line over the profile's
   * (--rpc-path, --method-prefix): a replay applies them too, since the profile's file does not hold them.
   * `unobserved`: keys of a `--profile detect` profile that detection could not observe (left to the reference
   * defaults), not compared in this run: error codes (`errorCodes.NonceGap`), null in the profile file kept.
   */
  options: { cases: number | null; durationMs: number | null; only: string[]; maxRate: number; maxBodyBytes: number; seek: 'none' | 'slow'; profile: string; profileFile?: string; rpcPath?: string; methodPrefix?: string; maxFindings?: number; unobserved?: string[] };
  targets: TargetSummary[];
  cases: number;
  /** Cases by family (what was generated). */
  byFamily: Record<CaseFamily, number>;
  findings: Finding[];
  toolErrors: ToolError[];
  /** Cases per second sent, every second of the run; findings so far at each. */
  timeline: { atMs: number; cases: number; findings: number }[];
  /** The most expensive cases (`--seek slow`): answer ms per request byte against the median call. */
  costly?: { case: FoundCase; costRatio: number }[];
  /** Why the run ended. */
  stop: 'cases' | 'duration' | 'findings' | 'all-targets-stopped' | 'interrupted';
}
