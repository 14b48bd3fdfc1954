import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Profile } from './Profile.js';
import { referenceProfile } from './referenceProfile.js';
import type { TxCodec } from './TxCodec.js';

/** A profile problem the user must fix (exit code 2). */
export class ProfileError extends Error {
  override readonly name = 'ProfileError';
}

const KEYS = ['name', 'methodPrefix', 'methodNames', 'fields', 'codec', 'http', 'errorCodes', 'faucet', 'faucetLimit', 'privateKey', 'blockTimeMs', 'chainId', 'maxBatch', 'maxBodyBytes'];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function stringMap(v: unknown, what: string): Record<string, string> {
  if (!isRecord(v) || !Object.values(v).every((x) => typeof x === 'string')) throw new ProfileError(`${what} must be an object of strings`);
  return v as Record<string, string>;
}

function positive(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw new ProfileError(`${what} must be a positive integer; got ${JSON.stringify(v)}`);
  return v;
}

/**
 * Reads a profile file (JSON) over the reference profile: every key is optional, unknown keys are
 * refused (a typo must not silently fall back to a default). `codec` names an ES module (path relative
 * to the profile file) whose default export is a TxCodec. Documented in docs/profiles.md.
 */
export async function loadProfile(path: string | undefined): Promise<Profile> {
  const base = referenceProfile();
  if (path === undefined) return base;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ProfileError(`cannot read profile ${path}: ${(err as Error).message}`);
  }
  if (!isRecord(raw)) throw new ProfileError(`profile ${path} must be a JSON object`);
  const unknown = Object.keys(raw).filter((k) => !KEYS.includes(k));
  if (unknown.length > 0) throw new ProfileError(`profile ${path}: unknown key(s) ${unknown.join(', ')}; known: ${KEYS.join(', ')}`);
  const p: Profile = { ...base, name: typeof raw.name === 'string' ? raw.name : path, source: resolve(path) };
  if (raw.methodPrefix !== undefined) {
    if (typeof raw.methodPrefix !== 'string' || !/^[A-Za-z0-9_.]*$/.test(raw.methodPrefix)) throw new ProfileError('methodPrefix must be a string of letters, digits, _ or .');
    p.methodPrefix = raw.methodPrefix;
  }
  if (raw.methodNames !== undefined) p.methodNames = stringMap(raw.methodNames, 'methodNames');
  if (raw.fields !== undefined) p.fields = stringMap(raw.fields, 'fields');
  if (raw.http !== undefined) {
    if (!isRecord(raw.http)) throw new ProfileError('http must be an object');
    const http = { ...p.http };
    for (const [k, v] of Object.entries(raw.http)) {
      if (!(k in http)) throw new ProfileError(`http.${k} is not a known status (${Object.keys(http).join(', ')})`);
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 100 || v > 599) throw new ProfileError(`http.${k} must be an HTTP status`);
      http[k as keyof typeof http] = v;
    }
    p.http = http;
  }
  if (raw.errorCodes !== undefined) {
    if (!isRecord(raw.errorCodes)) throw new ProfileError('errorCodes must be an object');
    for (const [k, v] of Object.entries(raw.errorCodes)) {
      if (!(k in p.errorCodes)) throw new ProfileError(`errorCodes.${k} is not an error of the profile (${Object.keys(p.errorCodes).join(', ')})`);
      if (typeof v !== 'number' || !Number.isInteger(v)) throw new ProfileError(`errorCodes.${k} must be an integer`);
    }
    p.errorCodes = { ...p.errorCodes, ...(raw.errorCodes as Record<string, number>) };
  }
  if (raw.faucet !== undefined) {
    if (typeof raw.faucet !== 'boolean') throw new ProfileError('faucet must be true or false');
    p.faucet = raw.faucet;
  }
  if (raw.privateKey !== undefined) {
    if (typeof raw.privateKey !== 'string' || !/^[0-9a-fA-F]{64}$/.test(raw.privateKey)) throw new ProfileError('privateKey must be 64 hex characters');
    p.privateKey = raw.privateKey;
  }
  if (raw.faucetLimit !== undefined) p.faucetLimit = positive(raw.faucetLimit, 'faucetLimit');
  if (raw.blockTimeMs !== undefined) p.blockTimeMs = positive(raw.blockTimeMs, 'blockTimeMs');
  if (raw.maxBatch !== undefined) p.maxBatch = positive(raw.maxBatch, 'maxBatch');
  if (raw.maxBodyBytes !== undefined) p.maxBodyBytes = positive(raw.maxBodyBytes, 'maxBodyBytes');
  if (raw.chainId !== undefined) {
    if (!(typeof raw.chainId === 'number' && Number.isSafeInteger(raw.chainId) && raw.chainId >= 0) && !(typeof raw.chainId === 'string' && /^\d{1,20}$/.test(raw.chainId))) {
      throw new ProfileError('chainId must be a non-negative integer (or a decimal string)');
    }
    p.chainId = BigInt(raw.chainId);
  }
  if (raw.codec !== undefined) {
    if (typeof raw.codec !== 'string') throw new ProfileError('codec must be a module path');
    const url = pathToFileURL(resolve(dirname(path), raw.codec)).href;
    let mod: { default?: unknown };
    try {
      mod = (await import(url)) as { default?: unknown };
    } catch (err) {
      throw new ProfileError(`cannot load codec module ${raw.codec}: ${(err as Error).message}`);
    }
    const codec = mod.default;
    if (!isRecord(codec) || typeof codec.sign !== 'function' || typeof codec.newKey !== 'function' || typeof codec.addressOf !== 'function') {
      throw new ProfileError(`codec module ${raw.codec} must export default { name, newKey(), addressOf(key), sign(key, tx) } (see suites/profile/TxCodec.ts)`);
    }
    p.codec = codec as unknown as TxCodec;
  }
  return p;
}
