/**
 * The wrong answers and wrong checks the faults are made of (TEST-ONLY, docs/faults.md): each fault of
 * transport.ts, methods.ts, ... bends a seam of the node with one of these. Nothing here runs unless a
 * node is started with a fault.
 */
import { createHash, verify as nodeVerify } from 'node:crypto';
import type { Server, ServerResponse } from 'node:http';
import { encodeTransactionBody, hexToBytes, hexToFixedBytes, publicKeyObject, SIGNATURE_LENGTH, signingMessageForBody, TX_BODY_LENGTH, TX_FIELDS } from '../../core/codec/index.js';
import type { SignedTransaction, TransactionVerifyResult } from '../../core/codec/index.js';
import { BASE_POINT } from '../../core/codec/craftSignature.js';
import { strictPrecheck } from '../../core/codec/strictVerify.js';
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import type { Exchange, TransportRules } from '../rpc/TransportRules.js';

// ---- transport ----

/** Largest body read under body-limit-ignored. */
export const FAULT_BODY_LIMIT = 64 * 1024 * 1024;

/** True when the answer is a single response object with an error member. */
export function isErrorAnswer(text: string): boolean {
  const value = parseJson(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'error' in value;
}

/** id-type-changed: a numeric id as a string, a string id that looks numeric as a number. */
export function changedId(id: JsonValue | undefined): JsonValue | undefined {
  if (typeof id === 'number' || typeof id === 'bigint') return String(id);
  if (typeof id === 'string' && /^-?(0|[1-9]\d{0,14})$/.test(id)) return Number(id);
  return id;
}

/**
 * id-crossed-now-and-then: every `every`-th single response object (one with an id) leaves with the id of the single
 * response before it. Batches, and answers that are not one response object, pass as they are.
 */
export function crossIdsNowAndThen(every: number): (answer: string | null, request: string) => string | null {
  let answered = 0;
  let previous: JsonValue | undefined;
  return (answer) => {
    if (answer === null || !answer.startsWith('{')) return answer;
    const value = parseJson(answer);
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !('id' in value)) return answer;
    const id = value['id'];
    const before = previous;
    previous = id;
    return ++answered % every === 0 && before !== undefined ? stringifyJson({ ...value, id: before }) : answer;
  };
}

/**
 * wrong-param-type-accepted: the params that skip schema validation. chain_getBlockByHeight ["5"]
 * then runs (BigInt("5")); chain_getAccount [5] makes the handler fail, so -32603.
 */
export function skipsParamValidation(method: string, params: readonly JsonValue[]): boolean {
  const first = params[0];
  if (method === 'chain_getBlockByHeight') return params.length === 1 && typeof first === 'string' && /^\d{1,19}$/.test(first);
  if (method === 'chain_getAccount') return params.length === 1 && (typeof first === 'number' || typeof first === 'bigint');
  return false;
}

/** address-lenient: chain_getAccount params that skip validation (any single string). */
export function lenientAddress(method: string, params: readonly JsonValue[]): boolean {
  return method === 'chain_getAccount' && params.length === 1 && typeof params[0] === 'string';
}

/** A string of hex pairs (the transaction param's form), either case, no 0x prefix. */
export const isHexPairs = (text: string): boolean => /^(?:[0-9a-fA-F]{2})+$/.test(text);

/** 64 hexadecimal characters (an address), either case, no 0x prefix. */
export const isAddress = (text: string): boolean => /^[0-9a-fA-F]{64}$/.test(text);

/** height-lenient: chain_getBlockByHeight params that skip validation (any single JSON number). */
export function lenientHeightParam(method: string, params: readonly JsonValue[]): boolean {
  const first = params[0];
  return method === 'chain_getBlockByHeight' && params.length === 1 && (typeof first === 'number' || typeof first === 'bigint');
}

/** tx-param-lenient: chain_sendRawTransaction params that skip validation (a single string that is not hex pairs). */
export function lenientTxParam(method: string, params: readonly JsonValue[]): boolean {
  const first = params[0];
  return method === 'chain_sendRawTransaction' && params.length === 1 && typeof first === 'string' && !isHexPairs(first);
}

/** faucet-address-lenient: chain_faucetClaim params that skip validation (a single string that is not an address). */
export function lenientFaucetAddress(method: string, params: readonly JsonValue[]): boolean {
  const first = params[0];
  return method === 'chain_faucetClaim' && params.length === 1 && typeof first === 'string' && !isAddress(first);
}

/** A JSON-RPC error object as an answer carries it (code, message, data). */
export type ErrorObject = Record<string, JsonValue>;

/** dies-on-null: the body is JSON null, or a batch with a null element. */
export function holdsNullRequest(text: string): boolean {
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch {
    return false;
  }
  return value === null || (Array.isArray(value) && value.includes(null));
}

const DEAD_SERVERS = new WeakSet<Server>();

/** dies-on-null: what the dying server logs. */
export const NULL_DEATH_LINE = "rpc: the RPC server died: TypeError: Cannot read properties of null (reading 'jsonrpc'); it accepts no more connections (fault dies-on-null, TEST-ONLY)";

/**
 * dies-on-null, dies-on-huge-height: the RPC server dies as one whose handler threw out of the request
 * would: the request's connection is dropped unanswered, the listener is closed (later connections are
 * refused) and every other connection is cut. The death (`line`) is logged once; the node's close()
 * still works afterwards.
 */
export function serverDies(server: Server, res: ServerResponse, log: (line: string) => void, line: string): void {
  res.destroy();
  if (DEAD_SERVERS.has(server)) return;
  DEAD_SERVERS.add(server);
  log(line);
  server.close();
  server.closeAllConnections();
}

/**
 * stack-trace-leak: a -32602 / -32603 error object as a careless server writes it: the message is the
 * exception's "Class: text" and data.stack its stack trace, file paths included. The exception is the
 * one thrown when there is one (`cause`), else one made from the error's reason. Other errors, and one
 * already leaked, are returned as they are.
 */
export function leakyError(error: ErrorObject, cause?: unknown): ErrorObject {
  const { code, message, data } = error;
  if (code !== -32602 && code !== -32603) return error;
  const fields: Record<string, JsonValue> = typeof data === 'object' && data !== null && !Array.isArray(data) ? data : {};
  if ('stack' in fields) return error;
  const reason = typeof fields.reason === 'string' ? fields.reason : typeof message === 'string' ? message : 'error';
  const exception = cause instanceof Error ? cause : new (code === -32602 ? TypeError : Error)(typeof cause === 'string' ? cause : reason);
  return { ...error, message: `${exception.name}: ${exception.message}`, data: { ...fields, stack: exception.stack ?? String(exception) } };
}

/**
 * empty-post-500: the default error page of a web framework whose JSON body parser left no body
 * (Express's finalhandler writes this one): HTML, the exception and its stack with the server's paths.
 */
export function frameworkErrorPage(): string {
  const error = new TypeError("Cannot read properties of undefined (reading 'jsonrpc')");
  const escaped = (error.stack ?? String(error)).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const shown = escaped.replace(/\n/g, '<br>').replace(/ {2}/g, ' &nbsp;');
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>${shown}</pre>\n</body>\n</html>\n`;
}

// ---- methods, chain, network ----

/** fork-view: another hash for the block at `height` (even, >= 2), distinct per node, stable per block. */
export function forkHash(nodeId: string, hash: string): string {
  return createHash('sha256').update(`fork-view ${nodeId} ${hash}`).digest('hex');
}

/** height-lenient: any JSON number read as a height: a negative one as 0, a fraction floored. */
export function flooredHeight(value: JsonValue | undefined): bigint {
  if (typeof value === 'bigint') return value < 0n ? 0n : value;
  if (typeof value === 'number') return value <= 0 ? 0n : BigInt(Math.floor(value));
  // Only another fault gets anything else here (wrong-param-type-accepted: "5"); read it as the plain handler does.
  if (typeof value === 'string') return BigInt(value);
  throw new TypeError(`the height is not a number: ${typeof value}`);
}

/** tx-param-lenient: the made-up hash answered for text that is not hex pairs: SHA-256 of the text. */
export function madeUpTxHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** faucet-address-lenient: a claim result for a malformed address; no transfer is made. */
export function phantomFaucetClaim(address: string, amount: bigint): { transaction_hash: string; amount: string } {
  return { transaction_hash: createHash('sha256').update(`faucet-address-lenient ${address}`, 'utf8').digest('hex'), amount: amount.toString() };
}

// ---- state ----

/** SHA-256 of the wire bytes: what the node answers for a transaction a fault admitted without queuing it. */
export function wireHash(hex: string): string {
  return createHash('sha256').update(hexToBytes(hex, 'transaction hex')).digest('hex');
}

/**
 * nonce-reuse-applied, overspend-applied, overflow-applied: the recipient and value a transaction's wire bytes
 * carry, read from the layout alone (docs/transaction-codec.md), so an amount that overflows reads too.
 */
export function transferOf(hex: string): { to: string; value: bigint } {
  const bytes = hexToBytes(hex, 'transaction hex');
  const to = Buffer.from(bytes.subarray(TX_FIELDS.to.offset, TX_FIELDS.to.offset + TX_FIELDS.to.size)).toString('hex');
  const value = BigInt(`0x${Buffer.from(bytes.subarray(TX_FIELDS.value.offset, TX_FIELDS.value.offset + TX_FIELDS.value.size)).toString('hex')}`);
  return { to, value };
}

/** tx-hash-wrong: SHA-256 of the 113-byte body only, not of the 177 wire bytes. */
export function bodyHash(hex: string): string {
  return createHash('sha256').update(hexToBytes(hex, 'transaction hex').subarray(0, TX_BODY_LENGTH)).digest('hex');
}

/**
 * small-order-key-accepted: strict on the signature (canonical S, a canonical R of more than small order) and on
 * nothing else: the sender's key goes to OpenSSL as it is, so a small-order public key is taken, and with it a
 * signature that holds for any message (core/codec/craftSignature.ts, ANY_MESSAGE_SIGNATURE).
 */
export function verifyKeyUnchecked(tx: SignedTransaction): TransactionVerifyResult {
  try {
    const body = encodeTransactionBody(tx);
    const signature = hexToFixedBytes(tx.signature, SIGNATURE_LENGTH, 'signature');
    // The pre-checks of the signature alone: the key's are passed with a key that meets them (the base point).
    const refused = strictPrecheck(BASE_POINT, signature);
    if (refused !== undefined) return refused;
    const key = publicKeyObject(body.subarray(TX_FIELDS.sender.offset, TX_FIELDS.sender.offset + TX_FIELDS.sender.size));
    if (nodeVerify(null, signingMessageForBody(body), key, signature)) return { ok: true };
  } catch {
    // A field that does not decode, or OpenSSL refusing the key bytes: a failed verification.
  }
  return { ok: false, code: 'BAD_SIGNATURE', reason: 'signature does not verify for this key and message' };
}

/**
 * lenient-signature: plain node:crypto (OpenSSL) verification with none of the strict pre-checks of
 * core/codec/strictVerify.ts. OpenSSL refuses S >= L and a non-canonical R by itself, but accepts
 * small-order public keys, a small-order R and a non-canonical A.
 */
export function verifyLenient(tx: SignedTransaction): TransactionVerifyResult {
  try {
    const body = encodeTransactionBody(tx);
    const signature = hexToFixedBytes(tx.signature, SIGNATURE_LENGTH, 'signature');
    const key = publicKeyObject(body.subarray(TX_FIELDS.sender.offset, TX_FIELDS.sender.offset + TX_FIELDS.sender.size));
    if (nodeVerify(null, signingMessageForBody(body), key, signature)) return { ok: true };
  } catch {
    // OpenSSL refusing the key bytes: a failed verification.
  }
  return { ok: false, code: 'BAD_SIGNATURE', reason: 'signature does not verify for this key and message' };
}

/** faucet-no-credit: a well-formed transaction hash for a transfer that is never made. */
export function phantomClaimHash(address: string, n: number): string {
  return createHash('sha256').update(`faucet-no-credit ${address} ${n}`).digest('hex');
}

// ---- robustness (the fuzzer's proof) ----

type JsonObject = Record<string, JsonValue>;
const isJsonObject = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The request objects of a body: the one, or a batch's elements that are objects; none when it is not JSON. */
function requestObjects(text: string): JsonObject[] {
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch {
    return [];
  }
  return (Array.isArray(value) ? value : [value]).filter(isJsonObject);
}

/** dies-on-huge-height: every integer up to 2^53 is a double; the node asserts a height is no higher. */
export const DOUBLE_EXACT_LIMIT = 2n ** 53n;

/**
 * dies-on-huge-height: the height of a chain_getBlockByHeight call in the body (alone or in a batch)
 * that the params check lets through (a u64) and that is above 2^53; undefined when there is none.
 */
export function hugeHeight(text: string, checkParams: TransportRules['checkParams']): bigint | undefined {
  for (const request of requestObjects(text)) {
    const { params } = request;
    if (request.jsonrpc !== '2.0' || request.method !== 'chain_getBlockByHeight' || !Array.isArray(params) || params.length !== 1) continue;
    const [h] = params;
    if (typeof h !== 'bigint' && (typeof h !== 'number' || !Number.isInteger(h))) continue;
    const height = BigInt(h);
    if (height > DOUBLE_EXACT_LIMIT && checkParams('chain_getBlockByHeight', params).ok) return height;
  }
  return undefined;
}

/** dies-on-huge-height: the node's last words, a failed assertion as a native node would print it. */
export function heightPanic(height: bigint): string {
  return `panic: assertion failed: height <= 2^53 (got ${height}, which has no exact double); the node is gone (fault dies-on-huge-height, TEST-ONLY)`;
}

/**
 * dies-on-huge-height: the node dies. In a node process (`crash` given by chainrpc node) the process
 * exits at once after writing `line`; in-process the RPC server dies as serverDies has it, and stays dead.
 */
export function nodeDies(exchange: Exchange, line: string, crash: ((line: string) => void) | undefined): void {
  if (crash === undefined) return serverDies(exchange.server, exchange.res, exchange.log, line);
  exchange.res.destroy();
  crash(line);
}

/** leaks-stack-on-object-address: chain_getAccount params that skip validation (a single JSON object). */
export function objectAddress(method: string, params: readonly JsonValue[]): boolean {
  return method === 'chain_getAccount' && params.length === 1 && isJsonObject(params[0]);
}

/**
 * leaks-stack-on-object-address: the exception a node that calls address.toLowerCase() on whatever it
 * was given throws for an object, passed on to the client whole: its "Class: text" as the message, and
 * its stack trace, with the server's file paths, as data.stack.
 */
export function objectAddressLeak(): { message: string; data: JsonObject } {
  const message = 'TypeError: address.toLowerCase is not a function';
  const stack = [
    message,
    '    at getAccount (/srv/node/src/methods/account.js:41:17)',
    '    at dispatch (/srv/node/src/rpc/dispatch.js:88:24)',
    '    at handleBody (/srv/node/src/rpc/server.js:133:9)',
    '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
  ].join('\n');
  return { message, data: { stack } };
}

/** result-for-fractional-height: chain_getBlockByHeight params that skip validation (a single number above 0 with a fraction part). */
export function fractionalHeight(method: string, params: readonly JsonValue[]): boolean {
  const [h] = params;
  return method === 'chain_getBlockByHeight' && params.length === 1 && typeof h === 'number' && h > 0 && !Number.isInteger(h);
}

/** slow-on-upper-case-address: how long the slow path takes. */
export const SLOW_PATH_MS = 2_000;

/** slow-on-upper-case-address: an address (valid: 64 hex characters) with an upper-case hex letter. */
export const hasUpperCaseHex = (address: string): boolean => /[A-F]/.test(address);

/** An id two calls can share: a string or a number (null, and values no valid request has, aside), as one text per value. */
function idKey(id: JsonValue | undefined): string | undefined {
  if (typeof id === 'string') return `s${id}`;
  return typeof id === 'number' || typeof id === 'bigint' ? `n${String(id)}` : undefined;
}

/** hangs-on-duplicate-batch-ids: the body is a batch in which two request objects carry the same id (a string or a number). */
export function hasDuplicateIds(text: string): boolean {
  if (!text.trimStart().startsWith('[')) return false;
  const seen = new Set<string>();
  for (const request of requestObjects(text)) {
    const key = idKey(request.id);
    if (key === undefined) continue;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/** loses-id-on-odd-hex: whether the request that has this id is a chain_sendRawTransaction whose param is a string of odd length. */
export function isOddHexCall(requests: readonly JsonValue[], id: JsonValue | undefined): boolean {
  const key = idKey(id);
  if (key === undefined) return false;
  return requests.some((q) => {
    if (!isJsonObject(q) || q.method !== 'chain_sendRawTransaction' || idKey(q.id) !== key || !Array.isArray(q.params)) return false;
    const [hex] = q.params;
    return typeof hex === 'string' && hex.length % 2 === 1;
  });
}
