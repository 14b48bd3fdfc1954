import { closedWithoutAnswer, TransportError } from '../core/client/index.js';
import type { RawResponse, RpcClient } from '../core/client/index.js';
import { validateResponse } from '../core/client/validateResponse.js';
import { jsonInteger, stringifyJson } from '../core/json/index.js';
import type { JsonValue } from '../core/json/index.js';
import { validators } from '../core/schema/validators.js';
import type { Problem, ResultLevel } from '../core/schema/validators.js';
import { CheckError, CheckFailure, CheckSkip, RateLimited } from './checkOutcomes.js';
import type { CheckInfo, Exchange } from './model.js';
import type { Profile } from '../profile/Profile.js';
import { wireMethod } from '../profile/Profile.js';
import { GENESIS_SCHEMA_REF, profileValidators } from '../profile/profileSchemas.js';
import { asU64, isObject, readField, specView } from '../profile/readWire.js';
import type { ProbeLock } from './ProbeLock.js';
import type { Wallet } from './Wallet.js';

/** A call's params: by position, or by name (JSON-RPC 2.0 §4.2 allows both; the spec's are positional). */
export type CallParams = JsonValue[] | { [name: string]: JsonValue };

export type CallOutcome = { ok: true; result: JsonValue } | { ok: false; error: { code: number; message: string; data?: JsonValue } };

/** What every check on a run shares: clients per node, the profile, wallets, the transcript. */
export interface RunShared {
  profile: Profile;
  targets: string[];
  client(node: string): RpcClient;
  wallet(node: string): Wallet;
  record(exchange: Exchange): void;
  /** Chain id per node (chain_health, the profile, or 1). */
  chainId(node: string): Promise<bigint>;
  /** Answers of the node so far that refused a request for the run's rate (HTTP 429), retries included. */
  rateRefused(node: string): number;
  nextId(): number;
  /** Per node and method, whether a well-formed call was served (memoised: each is asked once per run). */
  served: Map<string, Promise<Served>>;
  /** Per node: probes that could hurt it go one at a time, and how its latest exchange ended (ProbeLock). */
  lock(node: string): ProbeLock;
}

/** Whether the node serves a method: a well-formed call answered, or why not. */
export type Served = { ok: true } | { ok: false; reason: string };

/**
 * Request bodies from this size on go over an exact exchange of their own (CheckContext.raw): a node
 * may answer such a body early (413) and close while it is still being sent, and that answer is what
 * counts. Below it, a body fits the socket's buffers and is written whole before any answer.
 */
export const EXACT_BODY_BYTES = 32 * 1024;

/** Most response bytes a check reads: a node that sends more is cut off (the suite's memory stays bounded). */
export const MAX_RESPONSE_BYTES = 1024 * 1024;
const EXCERPT = 4096;
const KEPT_EXCHANGES = 8;

const short = (v: unknown): string => {
  // An id an answer lacks, or a member that is not there: said, not written as JSON (undefined has no JSON form).
  if (v === undefined) return '(absent)';
  const text = typeof v === 'string' ? JSON.stringify(v) : stringifyJson(v);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/** Blocks a judged wait needs the chain to make before "not seen" is a failure rather than a slow chain (CheckContext.waitFor). */
export const JUDGED_WAIT_BLOCKS = 3n;
/** Blocks read at most to tell a chain busy with a backlog (CheckContext.#busyBlocks). */
const BUSY_BLOCKS_READ = 12n;

/** JSON-RPC 2.0 §5.1: "Method not found". */
const METHOD_NOT_FOUND = -32601;

/**
 * The API a check runs with, bound to one node (or, for network checks, to all of them). Every
 * exchange it makes is kept as evidence. Failures of the exchange itself (refused, timeout, too big)
 * throw CheckError, which the runner reports as `error`, never as `fail`.
 */
export class CheckContext {
  readonly exchanges: Exchange[] = [];
  /** The liveness calls made after probes: evidence, but never the exchange that showed a failure. */
  private readonly livenessCalls = new WeakSet<Exchange>();
  /** Each answer's exchange (exchangeOf): with many in flight, the one a failure names may no longer be among the last kept. */
  private readonly exchangeByAnswer = new WeakMap<RawResponse, Exchange>();

  constructor(
    private readonly shared: RunShared,
    readonly check: CheckInfo,
    /** The node this check runs on; for network checks, the first target. */
    readonly node: string,
    readonly signal: AbortSignal,
    /** When the check's own time runs out (Date.now() scale): checks that send many calls stop early enough to judge what they saw. */
    readonly endsAtMs = Number.POSITIVE_INFINITY,
  ) {}

  get profile(): Profile {
    return this.shared.profile;
  }

  /** Every target of the run. */
  get nodes(): string[] {
    return this.shared.targets;
  }

  /** The node's name for one of the spec's methods (profile prefix and renames). */
  method(name: string): string {
    return wireMethod(this.profile, name);
  }

  /** A result field by the spec's name: the profile's key, else the spec's name in any spelling (profile/readWire.ts). */
  field(value: JsonValue | undefined, name: string): JsonValue | undefined {
    return readField(this.profile, value, name);
  }

  wallet(node = this.node): Wallet {
    return this.shared.wallet(node);
  }

  chainId(node = this.node): Promise<bigint> {
    return this.shared.chainId(node);
  }

  /**
   * Sends bytes as they are and returns what came back, uninterpreted (kept as evidence). `exact`: over
   * a socket of its own, reading an answer the node sends before it has read the whole body (a 413 and
   * a close); `bodyless`: a POST with no body and neither Content-Length nor Transfer-Encoding.
   */
  async raw(request: RawRequestOf, node = this.node): Promise<RawResponse> {
    try {
      return await this.rawOnce(request, node);
    } catch (err) {
      if (!isClosed(err) || !judgedWhenClosed(request)) throw err;
      return await this.closedAgain(request, node, err);
    }
  }

  /**
   * A JSON-RPC request the node closed the connection on without answering. A network may drop a connection now and
   * then, and a node going down drops them all: no verdict (the close is the error) unless the node answers a plain
   * call right after and closes the same request again. Then it fails: a JSON-RPC server answers every call (JSON-RPC
   * 2.0 §5); an outside tester's node, dropping the connection on one malformed call, was graded unreachable on it.
   */
  private async closedAgain(request: RawRequestOf, node: string, first: CheckError): Promise<RawResponse> {
    if (!(await this.alive(node))) throw first;
    try {
      return await this.rawOnce(request, node);
    } catch (err) {
      if (!isClosed(err)) throw err;
      const cause = err.cause as TransportError;
      throw new CheckFailure('the node closed the connection without answering this request, twice, while it answered a plain call between them', 'an HTTP answer carrying a JSON-RPC response', cause.message, this.lastShown());
    }
  }

  private async rawOnce(request: RawRequestOf, node: string): Promise<RawResponse> {
    const headers = request.headers ?? { 'content-type': 'application/json' };
    const method = request.method ?? 'POST';
    const path = request.path ?? this.profile.rpcPath;
    const bodyText = request.body === undefined ? '' : typeof request.body === 'string' ? request.body : Buffer.from(request.body).toString('utf8');
    const startedAt = new Date();
    const exchange: Exchange = {
      node,
      request: {
        method,
        url: `${node}${path === '/' ? '' : path}`,
        headers,
        body: bodyText.length > EXCERPT ? `${bodyText.slice(0, EXCERPT)}… (${bodyText.length} characters)` : bodyText,
        ...(request.bodyless === true ? { bodyless: true } : {}),
        ...(bodyText.length > EXCERPT ? { truncated: true } : {}),
      },
      ms: 0,
      startedAt: startedAt.toISOString(),
    };
    // How the node's latest exchange ended: a probe asks whether the node is alive first only after a failed one.
    const lock = this.shared.lock(node);
    try {
      const res = await this.shared.client(node).raw({
        ...(request.body === undefined ? {} : { body: request.body }),
        headers,
        method,
        path,
        signal: this.signal,
        maxBodyBytes: MAX_RESPONSE_BYTES,
        ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
        ...(request.exact === true || request.bodyless === true || (request.body?.length ?? 0) >= EXACT_BODY_BYTES ? { exact: true } : {}),
        ...(request.bodyless === true ? { omitContentLength: true } : {}),
      });
      lock.lastEnded = 'answered';
      exchange.response = {
        status: res.status,
        headers: { ...res.headers },
        body: res.text.length > EXCERPT ? res.text.slice(0, EXCERPT) : res.text,
        truncated: res.truncated || res.text.length > EXCERPT,
      };
      exchange.ms = res.timing.totalMs;
      this.exchangeByAnswer.set(res, exchange);
      if (res.truncated) throw new CheckError(`the node sent more than ${MAX_RESPONSE_BYTES} bytes; the suite stopped reading (HTTP ${res.status})`);
      if (res.status === 429) {
        throw new RateLimited(
          `the node refused this request for the suite's rate (HTTP 429 Too Many Requests), also when it was sent again after the wait it asked for; no verdict: give the run a pace the node takes (--max-rate <calls/s>)`,
        );
      }
      return res;
    } catch (err) {
      if (err instanceof CheckError) throw err;
      exchange.ms = Date.now() - startedAt.getTime();
      if (err instanceof TransportError) {
        lock.lastEnded = 'failed';
        exchange.failure = `${err.code}: ${err.message}`;
        throw new CheckError(`${err.code}: ${err.message}`, { cause: err });
      }
      throw err;
    } finally {
      this.keep(exchange);
    }
  }

  private keep(exchange: Exchange): void {
    this.exchanges.push(exchange);
    if (this.exchanges.length > KEPT_EXCHANGES) this.exchanges.shift();
    this.shared.record(exchange);
  }

  /**
   * Sends a request that could hurt a server (a malformed body, another HTTP method, a large body),
   * then asks whether the node still answers at all. A node that no longer answers fails the check,
   * with that request as the evidence ("the node died after this request"). Otherwise the answer is
   * returned; no answer from a node that still serves ends the check in error, as raw() does.
   *
   * Probes of one node go one at a time (ProbeLock), so the request a probe blames is the one that killed the node;
   * a node that had already stopped answering before it (after another check's request) ends it in error.
   */
  probe(request: Parameters<CheckContext['raw']>[0], what: string): Promise<RawResponse> {
    const lock = this.shared.lock(this.node);
    return lock.alone(this.signal, async () => {
      // The node answered the latest exchange to end: it was alive when this probe got its turn. Otherwise ask.
      if (lock.lastEnded !== 'answered' && !(await this.alive())) {
        throw new CheckError(`the node no longer answered before this check's request (${what}) was sent${lock.deadAfter === undefined ? '' : `: it stopped answering after ${lock.deadAfter}`}; no verdict`);
      }
      let res: RawResponse | undefined;
      let failure: unknown;
      try {
        res = await this.raw(request);
      } catch (err) {
        if (!(err instanceof CheckError)) throw err;
        failure = err;
      }
      const shown = this.exchanges[this.exchanges.length - 1];
      if (!(await this.alive())) {
        lock.deadAfter = `${what} (${this.check.id})`;
        const got = res === undefined ? `no answer (${(failure as Error).message})` : `HTTP ${res.status}: ${res.text.slice(0, 200)}`;
        throw new CheckFailure(`the node died after this request (${what}): it no longer answers`, 'an answer, and the node still answering afterwards', `${got}; then no answer to a plain call`, shown);
      }
      if (res === undefined) throw failure;
      return res;
    });
  }

  /** Whether the node still answers HTTP at all (a plain chain_blockNumber call, 5 s at most; a refusal for the rate is an answer). */
  async alive(node = this.node): Promise<boolean> {
    try {
      await this.rawOnce({ body: stringifyJson({ jsonrpc: '2.0', method: this.method('chain_blockNumber'), params: [], id: this.shared.nextId() }), timeoutMs: 5_000 }, node);
      return true;
    } catch (err) {
      if (err instanceof RateLimited) return true;
      if (err instanceof CheckError) return false;
      throw err;
    } finally {
      const last = this.exchanges[this.exchanges.length - 1];
      if (last !== undefined) this.livenessCalls.add(last);
    }
  }

  /** The exchange that showed what the check judged: its last one, liveness calls left out. */
  lastShown(): Exchange | undefined {
    return this.exchanges.findLast((e) => !this.livenessCalls.has(e));
  }

  /** POSTs a JSON body (an object, an array, or text as is). */
  post(body: JsonValue | string, node = this.node): Promise<RawResponse> {
    return this.raw({ body: typeof body === 'string' ? body : stringifyJson(body) }, node);
  }

  /**
   * One JSON-RPC call by the spec's method name. Returns the result or the error object; an answer
   * that is not a JSON-RPC response to this request fails the check (the node is wrong). `anyId`: an answer
   * whose id does not echo the request's is read all the same (a check's setup, whose subject is not the id).
   */
  async call(method: string, params: CallParams = [], node = this.node, options: { anyId?: boolean } = {}): Promise<CallOutcome> {
    const id = this.shared.nextId();
    const res = await this.post({ jsonrpc: '2.0', method: this.method(method), params, id }, node);
    const body = res.json;
    // A check across nodes names the node that answered so.
    const who = this.check.scope === 'network' ? `${node} ${method}` : method;
    if (body === undefined) this.fail(`${who}: the answer is not JSON (HTTP ${res.status})`, 'a JSON-RPC response object', res.text.slice(0, 200));
    // Read as a check reads an answer it does not judge the envelope of (core/client/validateResponse.ts).
    let answer = validateResponse(body, 'readable');
    if (answer.kind === 'invalid' && answer.member === 'response') this.fail(`${who}: the answer is not a JSON-RPC response object`, 'an object', short(body));
    if (answer.id !== id && options.anyId !== true) this.fail(`${who}: the response id does not echo the request's${answer.id === undefined ? ' (it has no id member)' : ''}`, String(id), short(answer.id));
    // A setup that does not judge the id reads an answer without one all the same, as one with another id.
    if (answer.kind === 'invalid' && answer.member === 'id' && isObject(body)) answer = validateResponse({ ...body, id: null }, 'readable');
    if (answer.kind === 'invalid') {
      if (answer.member === 'error') this.fail(`${who}: malformed error object`, '{code: integer, message: string}', short(isObject(body) ? body.error : undefined));
      this.fail(`${who}: ${answer.problem}`, 'result or error', short(body));
    }
    return answer.kind === 'error' ? { ok: false, error: answer.error } : { ok: true, result: answer.result };
  }

  /** The result of a call that must succeed; an error answer fails the check. */
  async result(method: string, params: JsonValue[] = [], node = this.node): Promise<JsonValue> {
    const r = await this.call(method, params, node);
    const where = this.check.scope === 'network' ? `${node} ` : '';
    // Method not found: the node may serve the method under another name (the spec's chain_ prefix stands for a
    // product's own, and the names are the network's choice), so no verdict on the rule, and the fix said.
    if (!r.ok && r.error.code === METHOD_NOT_FOUND) {
      throw new CheckError(`${where}${this.method(method)} answered ${METHOD_NOT_FOUND} (${r.error.message}): the node does not serve it under this name, so the rule cannot be judged; if its methods carry another prefix or names, give --method-prefix <p> or a profile (chainrpc profile detect)`);
    }
    if (!r.ok) this.fail(`${where}${method}: answered with error ${r.error.code} (${r.error.message})`, 'a result', short(r.error));
    return r.result;
  }

  /**
   * Schema problems of a result. 'spec': against what the spec states, read in any legal spelling and
   * encoding (keys renamed to the spec's, hex quantities taken as integers). 'profile': against the
   * profile's exact choices (its keys, encodings and value sets), as the node sent it.
   */
  problems(method: string, result: JsonValue, level: ResultLevel): Problem[] {
    const v = level === 'spec' ? validators().result(method, specView(this.profile, result), 'spec') : profileValidators(this.profile).result(method, result, 'profile');
    return v.ok ? [] : v.problems;
  }

  /**
   * Schema problems of the genesis block against the profile's exact choices: a block as the profile
   * writes every block, with the genesis block's own forms (genesisBlock) for parent_hash, proposer and timestamp.
   */
  genesisProblems(block: JsonValue): Problem[] {
    const v = profileValidators(this.profile).validate(GENESIS_SCHEMA_REF, block);
    return v.ok ? [] : v.problems;
  }

  /**
   * Whether the node serves one of the spec's methods: a well-formed call of it is answered with a
   * result, or with an error that is not about the call's form (-32601, -32600, -32602 say the method
   * or the call was not taken) unless `chosen` says that error is the profile's answer to such a call. Refusal checks ask first, so that a node without the method cannot pass
   * them by refusing everything. Asked once per node and method in a run.
   */
  served(method: string, wellFormed: () => Promise<JsonValue[]>, chosen: (error: { code: number; message: string }) => Promise<boolean> = () => Promise.resolve(false)): Promise<Served> {
    const key = `${this.node} ${method}`;
    let p = this.shared.served.get(key);
    if (!p) {
      p = (async (): Promise<Served> => {
        // Whether the method is served is this check's setup, not its subject: read from the answer's result or
        // error whatever its id (the id checks judge the echo), and unknown when the answer is no JSON-RPC response.
        const r = await this.call(method, await wellFormed(), this.node, { anyId: true }).catch((err: unknown) => {
          if (err instanceof CheckFailure) throw new CheckError(`setup: whether the node serves ${this.method(method)} is unknown: ${err.message}; no verdict`, { cause: err });
          throw err;
        });
        if (r.ok || ![-32601, -32600, -32602].includes(r.error.code)) return { ok: true };
        // The profile's own answer to this very call (an unknown account refused with -32602, say) is not a refusal of the call.
        if (r.error.code !== -32601 && (await chosen(r.error))) return { ok: true };
        return { ok: false, reason: `a well-formed call of ${this.method(method)} was answered ${r.error.code} (${r.error.message})` };
      })();
      this.shared.served.set(key, p);
      // A call that went wrong (the node hung, a check was stopped) is asked again by the next check.
      p.catch(() => this.shared.served.delete(key));
    }
    return p;
  }

  /**
   * The node is wrong. `shown`: the exchange that shows it, when it is not the check's latest (calls in flight at
   * once); it joins the evidence if it was no longer among the exchanges kept.
   */
  fail(message: string, expected?: string, actual?: string, shown?: Exchange): never {
    if (shown !== undefined && !this.exchanges.includes(shown)) this.exchanges.push(shown);
    throw new CheckFailure(message, expected, actual, shown);
  }

  /** The exchange that brought this answer (raw, post), for a failure to name. */
  exchangeOf(res: RawResponse): Exchange | undefined {
    return this.exchangeByAnswer.get(res);
  }

  skip(reason: string): never {
    throw new CheckSkip(reason);
  }

  /** Fails with the message unless the condition holds. */
  expect(condition: boolean, message: string, expected?: string, actual?: unknown): asserts condition {
    if (!condition) this.fail(message, expected, actual === undefined ? undefined : short(actual));
  }

  /**
   * Polls the probe until it gives a value (not undefined), or gives undefined once `timeoutMs` has passed:
   * nothing judged, the caller says what not seeing means (waitFor does, for the usual meanings).
   */
  async poll<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
    const deadline = Date.now() + timeoutMs;
    const pause = Math.max(50, Math.min(500, Math.floor(this.profile.blockTimeMs / 4)));
    for (;;) {
      const value = await probe();
      if (value !== undefined || Date.now() > deadline) return value;
      if (this.signal.aborted) throw new CheckError('the check was stopped (timeout or deadline)');
      await new Promise((r) => setTimeout(r, pause));
    }
  }

  /**
   * Polls until the probe returns a value (not undefined); after the timeout, fails with `what` (the
   * node is wrong: what the rule says did not happen), or, for a setup step ({ setup: true }), ends the
   * check in error (no verdict: the check could not get where it judges).
   */
  async waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = this.inclusionTimeoutMs(), options: { setup?: boolean; inBlocks?: boolean } = {}): Promise<T> {
    // What comes with blocks (an inclusion, a credit) is judged only once the chain has moved: where it was when the wait began.
    const from = options.setup === true || options.inBlocks === true ? await this.#height() : undefined;
    const refusedBefore = this.shared.rateRefused(this.node);
    const value = await this.poll(probe, timeoutMs);
    if (value !== undefined) return value;
    if (options.setup === true) {
      const busy = await this.#busyBlocks(from);
      throw new CheckError(`setup: ${what} did not happen within ${timeoutMs} ms${busy === undefined ? '' : `, in which ${busy}`}`);
    }
    // Reads the node refused for the rate meanwhile (each sent again after the wait it asked for) may have held the
    // probe back past the deadline: the wait did not see the node in time, which is no verdict on the rule.
    const refused = this.shared.rateRefused(this.node) - refusedBefore;
    if (refused > 0) throw new CheckError(`${what} was not seen within ${timeoutMs} ms, in which the node refused ${refused} of the run's requests for its rate (HTTP 429): the check's reads were held back; no verdict: give the run a pace the node takes (--max-rate <calls/s>)`);
    if (options.inBlocks === true) return this.#judgeTimeout(what, timeoutMs, from);
    this.fail(`${what} did not happen within ${timeoutMs} ms`, what, 'not seen');
  }

  /**
   * Whether every block the chain made since `from` (JUDGED_WAIT_BLOCKS of them at least, BUSY_BLOCKS_READ read at
   * most) holds the same number of transactions, one or more: blocks filled to a cap, a node that includes few per
   * block (the spec gives no inclusion rate or block size) working through a backlog the run itself made (an outside
   * tester's node, one transaction a block, failed two SHOULD checks and left MUST ones in error while it worked
   * through the suite's 80). Said as the clause to add; undefined when the counts differ or a block is empty (the
   * node had room, and its chances), or the blocks cannot be read.
   */
  async #busyBlocks(from: bigint | undefined): Promise<string | undefined> {
    const to = await this.#height();
    if (from === undefined || to === undefined || to - from < JUDGED_WAIT_BLOCKS) return undefined;
    const first = to - from > BUSY_BLOCKS_READ ? to - BUSY_BLOCKS_READ + 1n : from + 1n;
    let cap: bigint | undefined;
    for (let h = first; h <= to; h++) {
      const r = await this.call('chain_getBlockByHeight', [jsonInteger(h)]).catch(() => undefined);
      const count = r?.ok === true ? asU64(this.field(r.result, 'transaction_count')) : undefined;
      if (count === undefined || count === 0n || (cap !== undefined && count !== cap)) return undefined;
      cap = count;
    }
    return `the chain made ${to - from} blocks, each holding ${cap ?? '?'} transaction${cap === 1n ? '' : 's'}: blocks full at the node's own size, working through a backlog (the run's own transactions among them; the spec gives no inclusion rate or block size); give the run fewer checks at once (--concurrency 1)`;
  }

  /**
   * A judged wait for what comes with blocks (`inBlocks`) that timed out: a failure only when the chain made JUDGED_WAIT_BLOCKS blocks or more meanwhile
   * (the node had its chances). Fewer, the chain is slower than the profile's block time, and the wait says
   * nothing of the rule (rule 4, waiting is not judging): an error, naming the fix.
   */
  async #judgeTimeout(what: string, timeoutMs: number, from: bigint | undefined): Promise<never> {
    const to = await this.#height();
    const made = from === undefined || to === undefined ? undefined : to - from;
    const busy = await this.#busyBlocks(from);
    if (busy !== undefined) throw new CheckError(`${what} was not seen within ${timeoutMs} ms, in which ${busy}; no verdict`);
    if (made !== undefined && made < JUDGED_WAIT_BLOCKS) {
      // In a network, another node far ahead means this node stopped following, not a slow chain (an outside
      // tester's stalled follower was blamed on the profile's block time).
      const ahead = await this.#nodeAhead(to);
      if (ahead !== undefined) throw new CheckError(`${what} was not seen within ${timeoutMs} ms, in which this node's head moved ${made} block${made === 1n ? '' : 's'} (to ${to ?? '?'}) while ${ahead.node} is at ${ahead.height}: this node is not following the chain (no verdict here; network/heights-close judges it)`);
      throw new CheckError(`${what} was not seen within ${timeoutMs} ms, in which the chain made ${made} block${made === 1n ? '' : 's'} (a verdict needs ${JUDGED_WAIT_BLOCKS}): the chain is slower than the profile's block time (${this.profile.blockTimeMs} ms); give the node's blockTimeMs in the profile`);
    }
    this.fail(`${what} did not happen within ${timeoutMs} ms${made === undefined ? '' : `, in which the chain made ${made} blocks`}`, what, 'not seen');
  }

  /** Another node of the run at least JUDGED_WAIT_BLOCKS ahead of `height` (this node's), if any. */
  async #nodeAhead(height: bigint | undefined): Promise<{ node: string; height: bigint } | undefined> {
    if (height === undefined) return undefined;
    for (const node of this.nodes.filter((n) => n !== this.node)) {
      const r = await this.call('chain_blockNumber', [], node).catch(() => undefined);
      const h = r?.ok === true ? asU64(r.result) : undefined;
      if (h !== undefined && h >= height + JUDGED_WAIT_BLOCKS) return { node, height: h };
    }
    return undefined;
  }

  /** The node's height now, or undefined when it gives none (chain_blockNumber's own checks judge that). */
  async #height(): Promise<bigint | undefined> {
    const r = await this.call('chain_blockNumber').catch(() => undefined);
    return r?.ok === true ? asU64(r.result) : undefined;
  }

  /** How long a transaction may take to be included: a few block times, at least 5 s. */
  inclusionTimeoutMs(): number {
    return Math.max(5_000, this.profile.blockTimeMs * 6);
  }
}

/** What raw() sends: a body as is, with its headers, method and path; `exact` and `bodyless` as raw() says. */
type RawRequestOf = { body?: string | Uint8Array; headers?: Record<string, string>; method?: string; path?: string; timeoutMs?: number; exact?: boolean; bodyless?: boolean };

/** Bodies up to this size, closed without an answer, are judged (CheckContext.closedAgain); a larger one may be refused by a close. */
const CLOSE_JUDGED_BYTES = 64 * 1024;

/** A POST of a small JSON body with the default headers: a request a JSON-RPC server must answer, not close on. */
function judgedWhenClosed(request: RawRequestOf): boolean {
  const size = request.body === undefined ? 0 : typeof request.body === 'string' ? Buffer.byteLength(request.body) : request.body.byteLength;
  return (request.method ?? 'POST') === 'POST' && request.headers === undefined && request.body !== undefined && size <= CLOSE_JUDGED_BYTES && request.exact !== true && request.bodyless !== true;
}

/** A raw() failure whose connection was reset or closed under the exchange. */
function isClosed(err: unknown): err is CheckError {
  return err instanceof CheckError && err.cause instanceof TransportError && closedWithoutAnswer(err.cause);
}
