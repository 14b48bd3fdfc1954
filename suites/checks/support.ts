import type { CallParams, CheckContext } from '../CheckContext.js';
import type { JsonValue } from '../../core/json/index.js';
import { jsonInteger, stringifyJson } from '../../core/json/index.js';
import { errorCode } from '../../profile/Profile.js';
import type { Leniency, Profile } from '../../profile/Profile.js';
import { asU64, isObject, sameHex } from '../../profile/readWire.js';
import type { JsonObject } from '../../profile/readWire.js';
import { findKeys } from '../../profile/detect/findKeys.js';
import { CheckError } from '../checkOutcomes.js';

/** A JSON value as a short string for evidence. */
export const show = (v: JsonValue | undefined): string => {
  if (v === undefined) return '(absent)';
  const text = stringifyJson(v);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/**
 * Fails with the problems when a result breaks the method's schema at the level (spec: any legal
 * spelling; profile: the profile's exact choices; genesis: chain_getBlockByHeight's result at the
 * genesis height, the profile's block with its genesisBlock forms).
 */
export function expectSchema(ctx: CheckContext, method: string, result: JsonValue, level: 'spec' | 'profile' | 'genesis', field?: string, what?: string): void {
  const all = level === 'genesis' ? ctx.genesisProblems(result) : ctx.problems(method, result, level);
  // A check of one field names that field's problems only: another field's belongs to its own check.
  const problems = field === undefined ? all : all.filter((p) => p.pointer === `/${field}` || p.pointer.startsWith(`/${field}/`) || (p.pointer === '' && p.message.includes(field)));
  // Key names are the network's choice (the spec does not show them): a field missing under its name while a key of
  // another spelling or a known synonym is there (numTxs for transaction_count) may be only renamed. No verdict then,
  // and the fix said (an outside tester's node failed a MUST check for its camelCase synonym).
  const renamed = level === 'spec' && isObject(result) ? problems.map((p) => renamedField(result, p.pointer, p.message)) : [];
  if (renamed.length > 0 && renamed.every((r) => r !== undefined)) {
    const pairs = renamed.map((r) => `${r?.field} (the node has ${JSON.stringify(r?.key)})`).join(', ');
    throw new CheckError(`${method} result has no ${pairs} under the names in use; key names are the network's choice, so the rule cannot be judged: give them in a profile (fields.<name>; chainrpc profile detect finds them)`);
  }
  if (problems.length > 0) {
    ctx.fail(
      `${method} result${level === 'genesis' ? ' (the genesis block)' : what === undefined ? '' : ` (${what})`} breaks the ${level === 'spec' ? "spec's" : `profile's (${ctx.profile.name})`} schema: ${problems.map((p) => `${p.pointer || '(result)'} ${p.message}`).join('; ')}`,
      level === 'spec'
        ? `a result matching what the spec states (schemas/methods/${method}.schema.json, specResult)`
        : `a result as profile ${ctx.profile.name} describes it (docs/profiles.md${level === 'genesis' ? ', genesisBlock' : ''})`,
      show(result),
    );
  }
}

/** The result's own key for a top-level field the schema found missing, when one looks like it (findKeys: another spelling or a synonym). */
function renamedField(result: JsonObject, pointer: string, message: string): { field: string; key: string } | undefined {
  const field = /^\/([a-z_]+)$/.exec(pointer)?.[1];
  if (field === undefined || !message.startsWith('is missing')) return undefined;
  const key = findKeys(result, [field])[field]?.key;
  return key === null || key === undefined ? undefined : { field, key };
}

/** An address nobody has used: 64 hex characters from fresh randomness. */
export function unusedAddress(ctx: CheckContext): string {
  return ctx.profile.codec.newKey().address;
}

/** A height as a JSON param: a number while exact, a bigint (written as a bare integer) beyond 2^53-1. */
export function heightParam(height: bigint): JsonValue {
  return jsonInteger(height);
}

/**
 * The node's current height, in any legal encoding. When chain_blockNumber gives no usable height the
 * check cannot reach a verdict: it is skipped (chain_blockNumber's own checks report the answer).
 */
/** A block timestamp as milliseconds since the epoch, per the profile's format; undefined when it is not one. */
export function timestampMs(ctx: CheckContext, value: JsonValue | undefined): number | undefined {
  if (ctx.profile.timestamps === 'iso8601') return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : undefined;
  const n = asU64(value);
  if (n === undefined) return undefined;
  return ctx.profile.timestamps === 'seconds' ? Number(n) * 1000 : Number(n);
}

export async function readHeight(ctx: CheckContext, node = ctx.node): Promise<bigint> {
  const r = await ctx.call('chain_blockNumber', [], node);
  if (!r.ok) ctx.skip(`chain_blockNumber answered error ${r.error.code} (${r.error.message}), so there is no height to use`);
  const height = asU64(r.result);
  if (height === undefined) ctx.skip(`chain_blockNumber answered ${show(r.result)}, not an unsigned 64-bit integer (see chain_blockNumber/unsigned-64-bit-integer), so there is no height to use`);
  return height;
}

/** The block at a height, which must exist (spec rule 1): an error, null or a non-object answer fails the check. */
export async function readBlock(ctx: CheckContext, height: bigint, why: string, node = ctx.node): Promise<JsonObject> {
  const r = await ctx.call('chain_getBlockByHeight', [heightParam(height)], node);
  if (!r.ok) ctx.fail(`chain_getBlockByHeight ${height} answered error ${r.error.code} (${r.error.message}) ${why}`, 'a block object', show(r.error));
  if (!isObject(r.result)) ctx.fail(`chain_getBlockByHeight ${height} answered ${show(r.result)} ${why}`, 'a block object', show(r.result));
  return r.result;
}

/**
 * A well-signed transfer of 0 with fee 0 from a fresh key to a fresh address, at nonce 0: it costs
 * nothing, so it needs no funds. Returns the wire hex and the hash the codec computes (when it can).
 */
export async function freeTransfer(ctx: CheckContext): Promise<{ wire: string; hash?: string }> {
  const key = ctx.profile.codec.newKey();
  return ctx.profile.codec.sign(key.privateKey, { chainId: await ctx.chainId(), to: unusedAddress(ctx), value: 0n, nonce: 0n, fee: 0n });
}

/** A well-formed call of each of the spec's methods, to show the node serves it. */
const WELL_FORMED: Readonly<Record<string, (ctx: CheckContext) => Promise<JsonValue[]>>> = {
  chain_getBlockByHeight: async (ctx) => [heightParam(await readHeight(ctx))],
  chain_getAccount: (ctx) => Promise.resolve([unusedAddress(ctx)]),
  chain_faucetClaim: (ctx) => Promise.resolve([unusedAddress(ctx)]),
  chain_sendRawTransaction: async (ctx) => [(await freeTransfer(ctx)).wire],
};

/**
 * Whether an error to WELL_FORMED's call is the profile's stated answer to it rather than a refusal of the call:
 * an address never seen, under `unknownAccount: "error"`, gets AccountNotFound, whose code may be -32602 (the
 * spec shows no codes). Under "any code" for AccountNotFound, only an account the chain knows can tell: the one the suite funded (Wallet.sample).
 */
async function profileAnswer(ctx: CheckContext, method: string, error: { code: number }): Promise<boolean> {
  if (method !== 'chain_getAccount' || ctx.profile.unknownAccount !== 'error') return false;
  const code = ctx.profile.errorCodes.AccountNotFound;
  if (typeof code === 'number') return error.code === code;
  return (await ctx.call('chain_getAccount', [await ctx.wallet().sample(ctx)])).ok;
}

/**
 * Skips the check unless the node serves the method (a well-formed call is taken: CheckContext.served).
 * A refusal from a node that does not have the method at all proves nothing.
 */
export async function requireServed(ctx: CheckContext, method: string): Promise<void> {
  const served = await ctx.served(method, () => (WELL_FORMED[method] ?? (() => Promise.resolve([])))(ctx), (error) => profileAnswer(ctx, method, error));
  if (!served.ok) ctx.skip(`the node does not serve ${ctx.method(method)} (${served.reason}), so a refusal of bad input would prove nothing`);
}

/** The call must be refused with some JSON-RPC error (any code), by a node that serves the method; returns the error. */
export async function expectRefused(ctx: CheckContext, method: string, params: CallParams, what: string): Promise<{ code: number; message: string; data?: JsonValue }> {
  await requireServed(ctx, method);
  const r = await ctx.call(method, params);
  if (r.ok) ctx.fail(`${method} accepted ${what}`, 'a JSON-RPC error', show(r.result));
  return r.error;
}

/**
 * The call must be refused with the profile's code for `errorName` (for the condition, where the
 * profile names one: Profile.errorCode). A code of null in the profile: any code will do.
 */
export async function expectProfileError(
  ctx: CheckContext,
  method: string,
  params: CallParams,
  errorName: string,
  what: string,
  conditions: string | readonly string[] = [],
): Promise<{ code: number; message: string; data?: JsonValue }> {
  const code = errorCode(ctx.profile, errorName, conditions);
  if (code === undefined) ctx.skip(`the profile names no ${errorName} code`);
  const error = await expectRefused(ctx, method, params, what);
  const named = (typeof conditions === 'string' ? [conditions] : conditions).find((c) => ctx.profile.errorCodes[`${errorName}/${c}`] !== undefined);
  const name = named === undefined ? errorName : `${errorName}/${named}`;
  if (code !== null) ctx.expect(error.code === code, `${method} refused ${what} with code ${error.code}, not the profile's ${name}`, `${code} (${name})`, error);
  return error;
}

/** The error codes that say a call's form was not taken: the method, the request or its params. */
const FORM_CODES = [-32600, -32601, -32602];

/** Param forms the spec does not show, and the InvalidParams condition a refusal of each falls under. */
const LENIENCY_CONDITION: Readonly<Record<keyof Profile['params'], string>> = { extra: 'count', byName: 'by-name', hexPrefix: 'hex-prefix', stringIntegers: 'string-integer' };

/**
 * A param form the spec does not show (extra params, by-name params, a 0x prefix, an integer as a
 * string) must be handled as the profile says: refused with its InvalidParams code, or accepted, that
 * is answered as the plain form would be (a result, or an error about the data, not the form).
 */
export async function expectParamForm(
  ctx: CheckContext,
  method: string,
  params: CallParams,
  form: keyof Profile['params'],
  what: string,
  /** Broader conditions the form also falls under, whose code applies where the profile names none for the form itself. */
  broader: readonly string[] = [],
): Promise<string> {
  const leniency: Leniency = ctx.profile.params[form];
  const conditions = [LENIENCY_CONDITION[form], ...broader];
  if (leniency === 'refused') {
    const error = Array.isArray(params) ? await expectProfileError(ctx, method, params, 'InvalidParams', what, conditions) : await refusedByName(ctx, method, params, what);
    return `${what}: refused with ${error.code}`;
  }
  await requireServed(ctx, method);
  const r = await ctx.call(method, params);
  const invalid = errorCode(ctx.profile, 'InvalidParams', conditions);
  if (!r.ok && (FORM_CODES.includes(r.error.code) || r.error.code === invalid)) {
    ctx.fail(`${method} refused ${what} with ${r.error.code} (${r.error.message}), though the profile says such params are accepted`, 'an answer as to the plain form (params.' + form + ': accepted)', show(r.error));
  }
  return `${what}: accepted`;
}

/** By-name params refused, judged against the profile's InvalidParams/by-name code (its base InvalidParams code where it names none). */
async function refusedByName(ctx: CheckContext, method: string, params: CallParams, what: string): Promise<{ code: number; message: string; data?: JsonValue }> {
  const code = errorCode(ctx.profile, 'InvalidParams', 'by-name');
  if (code === undefined) ctx.skip('the profile names no InvalidParams code');
  await requireServed(ctx, method);
  const r = await ctx.call(method, params);
  if (r.ok) ctx.fail(`${method} accepted ${what}`, 'a JSON-RPC error', show(r.result));
  if (code !== null && r.error.code !== code && !Array.isArray(params)) {
    // An error of another code may be the call served: the answer the same params in order get (an outside tester's
    // node answered its unknown-account code to both forms, and was told it "refused" them).
    const positional = await ctx.call(method, Object.values(params));
    if (!positional.ok && positional.error.code === r.error.code) {
      ctx.fail(`${method} served ${what} as it serves the same params in order (both answered ${r.error.code}, ${show(r.error.message)}), though the profile says by-name params are refused`, `${code} (InvalidParams/by-name; params.byName: refused)`, show(r.error));
    }
  }
  if (code !== null) ctx.expect(r.error.code === code, `${method} refused ${what} with code ${r.error.code}, not the profile's InvalidParams/by-name`, `${code} (InvalidParams/by-name)`, r.error);
  return r.error;
}

/** The error's data as the profile says errors carry it: an object with a reason sentence, a string, nothing, or any (not compared). */
export function expectErrorData(ctx: CheckContext, error: { code: number; message: string; data?: JsonValue }, what: string): void {
  const data = error.data;
  switch (ctx.profile.errorData) {
    case 'object': {
      const reason = isObject(data) ? data.reason : undefined;
      ctx.expect(typeof reason === 'string' && reason.length > 0, `${what}: no data.reason`, 'data: {reason: a sentence, ...} (errorData: object)', error);
      break;
    }
    case 'string':
      ctx.expect(typeof data === 'string' && data.length > 0, `${what}: data is not a string`, 'data: a string (errorData: string)', error);
      break;
    case 'absent':
      ctx.expect(data === undefined, `${what}: the error carries data`, 'no data member (errorData: absent)', error);
      break;
    case 'any':
      // The node's errors carry data of no one shape (JSON-RPC 2.0 §5.1: optional, any value): nothing to compare.
      break;
  }
}

/**
 * Whether an element of a block's transactions list is the transaction of `hash`: the hash itself (reference),
 * or an object that carries it in one of its members (a node listing whole transactions, as an outside tester's
 * did: the spec shows no transactions list at all).
 */
export function listsHash(element: JsonValue, hash: JsonValue | undefined): boolean {
  if (typeof element === 'string') return sameHex(element, hash);
  return typeof element === 'object' && element !== null && !Array.isArray(element) && Object.values(element).some((v) => typeof v === 'string' && sameHex(v, hash));
}
