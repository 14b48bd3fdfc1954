import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ERROR_CONDITIONS, EXTRA_ERROR_NAMES } from './errorConditions.js';
import { METHOD_NAMES } from '../core/schema/types.generated.js';
import { DROPPABLE, GENESIS_ANY, HASH_PREFIXES, GENESIS_HASH_FORMS, GENESIS_TIME_FORMS, GENESIS_ZEROS } from './Profile.js';
import type { GenesisBlock, IntegerEncoding, Leniency, Profile } from './Profile.js';
import { referenceErrorCodes, referenceProfile } from './referenceProfile.js';
import { resultFieldNames } from './resultFields.js';
import type { TxCodec } from './TxCodec.js';
import { ChainrpcError } from '../core/errors/ChainrpcError.js';
import { parseJson } from '../core/json/index.js';

/** A profile problem the user must fix (exit code 2). */
export class ProfileError extends ChainrpcError {
  override readonly name = 'ProfileError';
  readonly kind = 'configuration';
}

/**
 * The keys of a profile file. Keys starting with `$` are annotations (`$detect`: the evidence
 * `chainrpc profile detect` writes; `$comment`) and are not read.
 */
export const PROFILE_KEYS = [
  'name',
  'rpcPath',
  'methodPrefix',
  'methodNames',
  'keyCase',
  'fields',
  'codec',
  'http',
  'errorCodes',
  'errorData',
  'params',
  'health',
  'genesisHeight',
  'genesisZeros',
  'genesisBlock',
  'hexCase',
  'hashPrefix',
  'timestamps',
  'integers',
  'methodIntegers',
  'peerCountResult',
  'identifiers',
  'scores',
  'unknownHeight',
  'unknownAccount',
  'txResult',
  'faucet',
  'faucetCredit',
  'faucetResult',
  'blockTransactions',
  'faucetLimit',
  'droppedLater',
  'nonceGap',
  'sequentialNonces',
  'fee',
  'privateKey',
  'blockTimeMs',
  'chainId',
  'maxBatch',
  'maxBodyBytes',
] as const;

/**
 * The node's own settings: a profile file that does not name them (or names them null) leaves them
 * unknown, and the checks that need them skip. Another network's limits are no reason to assume the
 * reference node's.
 */
const NODE_SETTINGS = ['faucetLimit', 'maxBatch', 'maxBodyBytes'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown): string => (typeof v === 'bigint' ? v.toString() : (JSON.stringify(v) ?? String(v)));

function oneOf<T extends string>(v: unknown, what: string, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !allowed.includes(v as T)) throw new ProfileError(`${what} must be ${allowed.map((a) => `"${a}"`).join(' or ')}; got ${show(v)}`);
  return v as T;
}

function positive(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw new ProfileError(`${what} must be a positive integer; got ${show(v)}`);
  return v;
}

function status(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 100 || v > 599) throw new ProfileError(`${what} must be an HTTP status (100..599); got ${show(v)}`);
  return v;
}

function knownKeys(raw: Record<string, unknown>, what: string, known: readonly string[]): void {
  const unknown = Object.keys(raw).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new ProfileError(`${what}: unknown key(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
}

function strings(v: unknown, what: string): string[] {
  if (!Array.isArray(v) || v.length === 0 || !v.every((x): x is string => typeof x === 'string')) throw new ProfileError(`${what} must be a non-empty array of strings; got ${show(v)}`);
  return v;
}

function bigintOf(v: unknown, what: string, digits: number): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'bigint' && v >= 0n && v.toString().length <= digits) return v;
  if (typeof v === 'string' && new RegExp(`^\\d{1,${digits}}$`).test(v)) return BigInt(v);
  throw new ProfileError(`${what} must be a non-negative integer (or a decimal string); got ${show(v)}`);
}

const U64_MAX = (1n << 64n) - 1n;

/**
 * genesisHeight, a u64 (the spec's heights), exactly: a JSON integer (read without loss by loadProfile, a bigint
 * above 2^53) or a decimal string. A number above 2^53 that reaches here was rounded by whoever parsed it.
 */
function genesisHeightOf(v: unknown): bigint {
  const what = "genesisHeight must be a whole number, 0 or more (the height of the chain's first block, at most 2^64-1), as a JSON integer or a decimal string";
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && !Number.isSafeInteger(v)) {
    throw new ProfileError(`${what}; got ${show(v)}, a number above 2^53 that was rounded when it was parsed: write it as a decimal string ("${BigInt(v)}" is what was read)`);
  }
  let height: bigint | undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) height = BigInt(v);
  else if (typeof v === 'bigint') height = v;
  else if (typeof v === 'string' && /^(0|[1-9][0-9]{0,19})$/.test(v)) height = BigInt(v);
  if (height === undefined || height < 0n || height > U64_MAX) throw new ProfileError(`${what}; got ${show(v)}`);
  return height;
}

/** Reads the `http` object over the base policy. */
function readHttp(v: unknown, base: Profile['http']): Profile['http'] {
  if (!isRecord(v)) throw new ProfileError('http must be an object');
  knownKeys(v, 'http', Object.keys(base));
  const http = { ...base, errorByCode: { ...base.errorByCode } };
  for (const [k, value] of Object.entries(v)) {
    if (k === 'errorByCode') {
      if (!isRecord(value)) throw new ProfileError('http.errorByCode must be an object of error code -> HTTP status');
      for (const [code, s] of Object.entries(value)) {
        if (!/^-?\d+$/.test(code)) throw new ProfileError(`http.errorByCode: "${code}" is not an error code`);
        http.errorByCode[code] = status(s, `http.errorByCode["${code}"]`);
      }
    } else {
      (http as Record<string, unknown>)[k] = status(value, `http.${k}`);
    }
  }
  return http;
}

/** Reads `errorCodes`: names of the profile (optionally with a condition) to integer codes or null. */
function readErrorCodes(v: unknown, base: Profile['errorCodes']): Profile['errorCodes'] {
  if (!isRecord(v)) throw new ProfileError('errorCodes must be an object');
  const names = [...Object.keys(referenceErrorCodes()), ...EXTRA_ERROR_NAMES];
  const out = { ...base };
  for (const [key, code] of Object.entries(v)) {
    const [name = '', condition] = key.split('/', 2);
    if (!names.includes(name)) throw new ProfileError(`errorCodes.${key}: ${name} is not an error of the profile (${names.join(', ')})`);
    if (condition !== undefined && ERROR_CONDITIONS[key] === undefined) {
      throw new ProfileError(`errorCodes.${key}: no such condition; known: ${Object.keys(ERROR_CONDITIONS).join(', ')}`);
    }
    if (code !== null && (typeof code !== 'number' || !Number.isInteger(code))) throw new ProfileError(`errorCodes.${key} must be an integer, or null (not compared); got ${show(code)}`);
    out[key] = code;
  }
  return out;
}

function readParams(v: unknown, base: Profile['params']): Profile['params'] {
  if (!isRecord(v)) throw new ProfileError('params must be an object');
  knownKeys(v, 'params', Object.keys(base));
  const out = { ...base };
  for (const [k, value] of Object.entries(v)) out[k as keyof typeof out] = oneOf<Leniency>(value, `params.${k}`, ['refused', 'accepted']);
  return out;
}

function readFields(v: unknown): Profile['fields'] {
  if (!isRecord(v)) throw new ProfileError('fields must be an object of spec field name -> wire name (or null)');
  const known = resultFieldNames();
  const out: Profile['fields'] = {};
  for (const [name, wire] of Object.entries(v)) {
    if (!known.includes(name)) throw new ProfileError(`fields.${name} is not a result field of the interface; known: ${known.join(', ')}`);
    if (wire !== null && (typeof wire !== 'string' || wire === '')) throw new ProfileError(`fields.${name} must be the wire key (a string) or null (the node has no such field); got ${show(wire)}`);
    out[name] = wire;
  }
  return out;
}

const INTEGER_ENCODINGS: readonly IntegerEncoding[] = ['number', 'hex'];

/** Reads `methodIntegers`: the spec's method names (those with a result) to an integer encoding. */
function readMethodIntegers(v: unknown): Profile['methodIntegers'] {
  if (!isRecord(v)) throw new ProfileError('methodIntegers must be an object of spec method name -> "number" or "hex"');
  const methods = METHOD_NAMES.filter((m) => m !== 'rpc.discover');
  const out: Profile['methodIntegers'] = {};
  for (const [method, encoding] of Object.entries(v)) {
    if (!(methods as readonly string[]).includes(method)) throw new ProfileError(`methodIntegers.${method} is not a method of the interface (by the spec's name); known: ${methods.join(', ')}`);
    out[method] = oneOf(encoding, `methodIntegers.${method}`, INTEGER_ENCODINGS);
  }
  return out;
}

/** Reads `genesisBlock` over `base` (the reference's forms, or what `genesisZeros` said): only the fields it names change. */
function readGenesisBlock(v: unknown, base: GenesisBlock): GenesisBlock {
  if (!isRecord(v)) throw new ProfileError('genesisBlock must be an object {parent_hash, proposer, timestamp}');
  knownKeys(v, 'genesisBlock', Object.keys(base));
  const out = { ...base };
  if (v.parent_hash !== undefined) out.parent_hash = oneOf(v.parent_hash, 'genesisBlock.parent_hash', GENESIS_HASH_FORMS);
  if (v.proposer !== undefined) out.proposer = oneOf(v.proposer, 'genesisBlock.proposer', GENESIS_HASH_FORMS);
  if (v.timestamp !== undefined) out.timestamp = oneOf(v.timestamp, 'genesisBlock.timestamp', GENESIS_TIME_FORMS);
  return out;
}

async function readCodec(v: unknown, path: string): Promise<TxCodec> {
  if (typeof v !== 'string') throw new ProfileError('codec must be a module path');
  const url = pathToFileURL(resolve(dirname(path), v)).href;
  let mod: { default?: unknown };
  try {
    mod = (await import(url)) as { default?: unknown };
  } catch (err) {
    throw new ProfileError(`cannot load codec module ${v}: ${(err as Error).message}`);
  }
  const codec = mod.default;
  if (!isRecord(codec) || typeof codec.sign !== 'function' || typeof codec.newKey !== 'function' || typeof codec.addressOf !== 'function') {
    throw new ProfileError(`codec module ${v} must export default { name, newKey(), addressOf(key), sign(key, tx) } (see profile/TxCodec.ts)`);
  }
  return codec as unknown as TxCodec;
}

/** A profile from a parsed JSON object, over the reference profile; `path` names it in messages and resolves the codec. */
export async function profileFromJson(raw: unknown, path: string): Promise<Profile> {
  if (!isRecord(raw)) throw new ProfileError(`profile ${path} must be a JSON object`);
  knownKeys(
    Object.fromEntries(Object.entries(raw).filter(([k]) => !k.startsWith('$'))),
    `profile ${path}`,
    PROFILE_KEYS,
  );
  const p: Profile = { ...referenceProfile(), name: typeof raw.name === 'string' ? raw.name : path, source: resolve(path) };
  for (const key of NODE_SETTINGS) delete p[key];
  const has = (k: string): boolean => raw[k] !== undefined;
  if (has('rpcPath')) {
    if (typeof raw.rpcPath !== 'string' || !/^(\/[^\s?#]*)?$/.test(raw.rpcPath)) throw new ProfileError(`rpcPath must be a path such as "/rpc", "/" or "/v1/jsonrpc"; got ${show(raw.rpcPath)}`);
    p.rpcPath = raw.rpcPath === '' ? '/' : raw.rpcPath;
  }
  if (has('methodPrefix')) {
    if (typeof raw.methodPrefix !== 'string' || !/^[A-Za-z0-9_.]*$/.test(raw.methodPrefix)) throw new ProfileError('methodPrefix must be a string of letters, digits, _ or .');
    p.methodPrefix = raw.methodPrefix;
  }
  if (has('methodNames')) {
    if (!isRecord(raw.methodNames) || !Object.values(raw.methodNames).every((x) => typeof x === 'string')) throw new ProfileError('methodNames must be an object of strings');
    p.methodNames = raw.methodNames as Record<string, string>;
  }
  if (has('keyCase')) p.keyCase = oneOf(raw.keyCase, 'keyCase', ['snake_case', 'camelCase']);
  if (has('fields')) p.fields = readFields(raw.fields);
  if (has('http')) p.http = readHttp(raw.http, p.http);
  if (has('errorCodes')) p.errorCodes = readErrorCodes(raw.errorCodes, p.errorCodes);
  if (has('errorData')) p.errorData = oneOf(raw.errorData, 'errorData', ['object', 'string', 'absent', 'any']);
  if (has('params')) p.params = readParams(raw.params, p.params);
  if (has('health')) {
    const h = raw.health;
    if (!isRecord(h)) throw new ProfileError('health must be an object {status: [...], mode: [...]}');
    knownKeys(h, 'health', ['status', 'mode']);
    p.health = { status: h.status === undefined ? p.health.status : strings(h.status, 'health.status'), mode: h.mode === undefined ? p.health.mode : strings(h.mode, 'health.mode') };
  }
  if (has('genesisHeight')) {
    p.genesisHeightExact = genesisHeightOf(raw.genesisHeight);
    p.genesisHeight = Number(p.genesisHeightExact);
  }
  if (has('faucet')) {
    if (typeof raw.faucet !== 'boolean') throw new ProfileError('faucet must be true or false');
    p.faucet = raw.faucet;
  }
  // genesisZeros (the older key) says all three forms at once; genesisBlock then changes the fields it names.
  if (has('genesisZeros')) {
    if (typeof raw.genesisZeros !== 'boolean') throw new ProfileError('genesisZeros must be true or false');
    p.genesisBlock = { ...(raw.genesisZeros ? GENESIS_ZEROS : GENESIS_ANY) };
  }
  if (has('genesisBlock')) p.genesisBlock = readGenesisBlock(raw.genesisBlock, p.genesisBlock);
  if (has('hexCase')) p.hexCase = oneOf(raw.hexCase, 'hexCase', ['lower', 'upper', 'any']);
  if (has('hashPrefix')) p.hashPrefix = oneOf(raw.hashPrefix, 'hashPrefix', HASH_PREFIXES);
  if (has('timestamps')) p.timestamps = oneOf(raw.timestamps, 'timestamps', ['milliseconds', 'seconds', 'iso8601']);
  if (has('integers')) p.integers = oneOf(raw.integers, 'integers', INTEGER_ENCODINGS);
  if (has('methodIntegers')) p.methodIntegers = readMethodIntegers(raw.methodIntegers);
  if (has('peerCountResult')) p.peerCountResult = oneOf(raw.peerCountResult, 'peerCountResult', ['integer', 'decimal', 'object']);
  if (has('identifiers')) p.identifiers = oneOf(raw.identifiers, 'identifiers', ['hex', 'string', 'any']);
  if (has('scores')) p.scores = oneOf(raw.scores, 'scores', ['integer', 'number', 'any']);
  if (has('unknownHeight')) p.unknownHeight = oneOf(raw.unknownHeight, 'unknownHeight', ['error', 'null']);
  if (has('unknownAccount')) p.unknownAccount = oneOf(raw.unknownAccount, 'unknownAccount', ['empty', 'error', 'null']);
  if (has('txResult')) p.txResult = oneOf(raw.txResult, 'txResult', ['hash', 'object']);
  if (has('faucetCredit')) p.faucetCredit = oneOf(raw.faucetCredit, 'faucetCredit', ['transaction', 'direct']);
  if (has('faucetResult')) p.faucetResult = oneOf(raw.faucetResult, 'faucetResult', ['object', 'hash']);
  if (has('blockTransactions')) p.blockTransactions = oneOf(raw.blockTransactions, 'blockTransactions', ['hashes', 'objects']);
  if (has('droppedLater')) {
    const names = raw.droppedLater;
    if (!Array.isArray(names) || !names.every((n): n is string => typeof n === 'string' && DROPPABLE.includes(n))) {
      throw new ProfileError(`droppedLater must be an array of error names from ${DROPPABLE.join(', ')}; got ${show(names)}`);
    }
    p.droppedLater = names;
  }
  if (has('nonceGap')) p.nonceGap = oneOf(raw.nonceGap, 'nonceGap', ['refused', 'held']);
  if (has('sequentialNonces')) p.sequentialNonces = oneOf(raw.sequentialNonces, 'sequentialNonces', ['queued', 'refused']);
  if (has('fee')) p.fee = bigintOf(raw.fee, 'fee', 39);
  if (has('privateKey')) {
    if (typeof raw.privateKey !== 'string' || !/^[0-9a-fA-F]{64}$/.test(raw.privateKey)) throw new ProfileError('privateKey must be 64 hex characters');
    p.privateKey = raw.privateKey;
  }
  if (has('blockTimeMs')) p.blockTimeMs = positive(raw.blockTimeMs, 'blockTimeMs');
  if (has('chainId')) p.chainId = bigintOf(raw.chainId, 'chainId', 20);
  // null (like leaving them out): unknown, the checks that need them skip.
  for (const key of NODE_SETTINGS) if (raw[key] !== undefined && raw[key] !== null) p[key] = positive(raw[key], key);
  if (has('codec')) p.codec = await readCodec(raw.codec, path);
  if (p.txResult === 'object' && p.fields.transaction_hash === null) throw new ProfileError('txResult "object" needs the transaction_hash field: fields.transaction_hash must name its key, not null');
  if (p.peerCountResult === 'object' && p.fields.count === null) throw new ProfileError('peerCountResult "object" needs the count field: fields.count must name its key, not null');
  return p;
}

/**
 * Reads a profile file (JSON) over the reference profile: every key is optional and falls back to the
 * reference profile's choice, except the node's own settings (faucetLimit, maxBatch, maxBodyBytes),
 * which stay unknown unless named. Unknown keys are refused (a typo must not silently test something
 * else). `codec` names an ES module (path relative to the profile file) whose default export is a
 * TxCodec. Documented in docs/profiles.md.
 */
export async function loadProfile(path: string | undefined): Promise<Profile> {
  if (path === undefined) return referenceProfile();
  let raw: unknown;
  try {
    // Integers beyond 2^53 (a genesis height, a fee, a chain id) are read exactly, as bigint.
    raw = parseJson(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ProfileError(`cannot read profile ${path}: ${(err as Error).message}`);
  }
  return profileFromJson(raw, path);
}

/** Where a thread finds the profile: a file's path, a profile's JSON held in memory (detected, no file), or null for the reference profile. */
export type ProfileSource = string | { json: unknown; name: string } | null;

/** The profile a ProfileSource names (as loadProfile and profileFromJson read them). */
export async function loadProfileSource(source: ProfileSource): Promise<Profile> {
  return source !== null && typeof source === 'object' ? profileFromJson(source.json, source.name) : loadProfile(source ?? undefined);
}
