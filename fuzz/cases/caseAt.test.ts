import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson, type JsonValue } from '../../core/json/index.js';
import { METHOD_NAMES, SPEC_METHOD_NAMES } from '../../core/schema/types.generated.js';
import { wireMethod, type Profile } from '../../profile/Profile.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { CASE_FAMILIES, type FuzzCase } from '../model.js';
import { CASE_RULES, caseAt } from './caseAt.js';
import { makeCaseContext, unknownOnly, type CaseContext } from './CaseContext.js';

const ADDRESSES = ['ab'.repeat(32), 'cd'.repeat(32)];

function context(only: readonly string[] = [], profile: Profile = referenceProfile(), limits: Partial<Pick<CaseContext, 'maxBodyBytes' | 'maxBatch'>> = {}): CaseContext {
  return { ...makeCaseContext(profile, { height: 1234n, genesisHeight: profile.genesisHeight, addresses: ADDRESSES, chainId: 7n }, only), ...limits };
}

const cases = (seed: number, n: number, ctx: CaseContext): FuzzCase[] => Array.from({ length: n }, (_, i) => caseAt(seed, i, ctx));

/** 5,000 cases of seed 12 under the reference profile, made once for the tests that only read them. */
let reference: FuzzCase[] | undefined;
const referenceCases = (): FuzzCase[] => (reference ??= cases(12, 5000, context()));

/** The cases of `all` for which `bad` says something, as "rule title: what" lines (one expect per test, not per case). */
const failures = (all: readonly FuzzCase[], bad: (c: FuzzCase) => string | undefined): string[] =>
  all.flatMap((c) => {
    const why = bad(c);
    return why === undefined ? [] : [`${c.rule} ${c.title}: ${why}`];
  });

const strict = new TextDecoder('utf-8', { fatal: true });

/** The body as a JSON value; undefined when it is not UTF-8 JSON that core/json reads. */
function bodyJson(c: FuzzCase): JsonValue | undefined {
  try {
    return parseJson(strict.decode(c.http.body));
  } catch {
    return undefined;
  }
}

type RequestObject = { [key: string]: JsonValue };
const isObject = (v: JsonValue | undefined): v is RequestObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The request objects of a body: itself, or a batch's elements (nested batches too). */
function requestObjects(value: JsonValue | undefined): RequestObject[] {
  if (Array.isArray(value)) return value.flatMap((v) => requestObjects(v));
  return isObject(value) ? [value] : [];
}

/** The spec's name of every known method called anywhere in the body. */
function methodsCalled(c: FuzzCase, profile: Profile): string[] {
  return requestObjects(bodyJson(c)).flatMap((r) => METHOD_NAMES.filter((m) => r.method === wireMethod(profile, m)));
}

describe('caseAt', () => {
  it('makes the same bytes from the same seed, index and context, in a fresh context too', () => {
    const a = cases(11, 400, context());
    const b = cases(11, 400, context());
    // Everything but the body and json (compared as bytes, and json as present or not: a deep compare of 1 MB values is slow).
    const outline = (c: FuzzCase): string => JSON.stringify({ ...c, http: { ...c.http, body: Buffer.from(c.http.body).toString('base64') }, json: c.json !== undefined });
    expect(b.map(outline)).toEqual(a.map(outline));
    // Out of order: a case does not depend on the cases made before it.
    for (const i of [399, 3, 250, 17]) expect(Buffer.from(caseAt(11, i, context()).http.body).equals(Buffer.from((a[i] as FuzzCase).http.body))).toBe(true);
  });

  it('makes other cases from other seeds', () => {
    const a = cases(1, 300, context());
    const b = cases(2, 300, context());
    const differ = a.filter((c, i) => !Buffer.from(c.http.body).equals(Buffer.from((b[i] as FuzzCase).http.body))).length;
    expect(differ).toBeGreaterThan(250);
  });

  it('keeps every body under the cap, whatever the cap', () => {
    for (const [cap, maxBatch] of [[1024 * 1024, 1000], [16 * 1024, 16], [4096, undefined]] as const) {
      const ctx = context([], referenceProfile(), { maxBodyBytes: cap, ...(maxBatch === undefined ? {} : { maxBatch }) });
      const all = cases(5, 1500, ctx);
      expect(failures(all, (c) => (c.http.body.length < cap ? undefined : `${c.http.body.length} bytes`))).toEqual([]);
      expect(Math.max(...all.map((c) => c.http.body.length))).toBeGreaterThan(cap * 0.9);
    }
  });

  it('sets json exactly when the body is that value written by stringifyJson', () => {
    const all = referenceCases();
    expect(failures(all, (c) => (c.json === undefined || stringifyJson(c.json) === Buffer.from(c.http.body).toString('utf8') ? undefined : 'json is not the body'))).toEqual([]);
    expect(all.filter((c) => c.json !== undefined).length).toBeGreaterThan(3500);
  });

  it('marks deep, huge, not-UTF-8, over-limit and near-cap cases as risky', () => {
    const all = referenceCases();
    for (const rule of ['envelope/deep', 'envelope/not-utf8', 'envelope/batch-over-limit', 'envelope/near-cap', 'invalid-params/huge', 'valid/big-integer']) {
      const of = all.filter((c) => c.rule === rule);
      expect(of.length, rule).toBeGreaterThan(0);
      expect(of.every((c) => c.risky), rule).toBe(true);
    }
    expect(all.filter((c) => c.http.body.length > 64 * 1024).every((c) => c.risky)).toBe(true);
    expect(all.filter((c) => c.rule === 'valid/call').some((c) => c.risky)).toBe(false);
  });

  it('honours only: families', () => {
    for (const only of [['envelope'], ['valid', 'http'], ['invalid-params']]) {
      expect(failures(cases(6, 500, context(only)), (c) => (only.includes(c.family) ? undefined : 'family left out'))).toEqual([]);
    }
  });

  it('honours only: methods (every case calls one of them, and no other known method is called)', () => {
    const profile = referenceProfile();
    for (const only of [['chain_getAccount'], ['chain_blockNumber', 'chain_sendRawTransaction'], ['envelope', 'chain_getBlockByHeight']]) {
      const all = cases(8, 600, context(only, profile));
      expect(failures(all, (c) => (c.method !== undefined && only.includes(c.method) ? undefined : `method ${c.method}`))).toEqual([]);
      // Bodies over 64 KiB (batches of a thousand, bodies at the cap) are left to the check above: parsing them all is slow.
      const small = all.filter((c) => c.http.body.length < 64 * 1024);
      expect(failures(small, (c) => methodsCalled(c, profile).find((m) => !only.includes(m)))).toEqual([]);
      const families = new Set(all.map((c) => c.family));
      expect([...families].sort()).toEqual(only.includes('envelope') ? ['envelope'] : [...CASE_FAMILIES].sort());
    }
  });

  it('never makes a valid faucet claim unless only names chain_faucetClaim', () => {
    const profile = referenceProfile();
    const small = referenceCases().filter((c) => c.http.body.length < 64 * 1024);
    expect(failures(small, (c) => (c.family !== 'invalid-params' && methodsCalled(c, profile).includes('chain_faucetClaim') ? 'calls the faucet' : undefined))).toEqual([]);
    expect(referenceCases().some((c) => c.method === 'chain_faucetClaim')).toBe(true);
    const asked = cases(9, 300, context(['valid', 'chain_faucetClaim'], profile));
    expect(asked.every((c) => c.method === 'chain_faucetClaim' && c.family === 'valid')).toBe(true);
  });

  it('leaves out the faucet claims a lenient profile would take (unless asked)', () => {
    const lenient: Profile = { ...referenceProfile(), params: { extra: 'accepted', byName: 'accepted', hexPrefix: 'accepted', stringIntegers: 'accepted' } };
    const claims = cases(14, 3000, context(['invalid-params'], lenient)).filter((c) => c.method === 'chain_faucetClaim');
    expect(claims.length).toBeGreaterThan(50);
    expect(claims.filter((c) => ['invalid-params/extra', 'invalid-params/by-name', 'invalid-params/hex-prefix'].includes(c.rule))).toEqual([]);
    const asked = cases(14, 500, context(['invalid-params', 'chain_faucetClaim'], lenient));
    expect(asked.some((c) => c.rule === 'invalid-params/hex-prefix')).toBe(true);
  });

  it('refuses unknown names in only', () => {
    expect(unknownOnly(['valid', 'chain_getAccount', 'chain_nope', 'fuzz'])).toEqual(['chain_nope', 'fuzz']);
    expect(() => caseAt(1, 0, context(['chain_nope']))).toThrow(/chain_nope/);
  });

  it('covers every family, every spec method and every rule in 5,000 cases', () => {
    const all = referenceCases();
    const families = new Set(all.map((c) => c.family));
    const methods = new Set(all.map((c) => c.method));
    const rules = new Map<string, number>();
    for (const c of all) rules.set(c.rule, (rules.get(c.rule) ?? 0) + 1);
    expect([...families].sort()).toEqual([...CASE_FAMILIES].sort());
    for (const m of [...SPEC_METHOD_NAMES, 'rpc.discover']) expect(methods, m).toContain(m);
    for (const rule of rules.keys()) expect(CASE_RULES).toContain(rule);
    // invalid-params/enum waits for a method whose params have an enum.
    const missing = CASE_RULES.filter((r) => !rules.has(r) && r !== 'invalid-params/enum');
    expect(missing).toEqual([]);
    const byFamily = Object.fromEntries(CASE_FAMILIES.map((f) => [f, all.filter((c) => c.family === f).length]));
    console.log('families in 5,000 cases:', byFamily);
    expect(byFamily.valid).toBeGreaterThan(1250);
    expect(byFamily['invalid-params']).toBeGreaterThan(1500);
    expect(byFamily.envelope).toBeGreaterThan(1250);
    expect(byFamily.http).toBeGreaterThan(150);
  });

  it('sends method names through the profile', () => {
    const profile: Profile = { ...referenceProfile(), methodPrefix: 'acme_', methodNames: { net_peerCount: 'acme_peers' } };
    const all = cases(13, 800, context(['valid'], profile));
    const sent = new Set(all.flatMap((c) => requestObjects(bodyJson(c)).map((r) => r.method)));
    expect(sent).toContain('acme_getAccount');
    expect(sent).toContain('acme_peers');
    expect(sent).not.toContain('chain_getAccount');
    expect(sent).not.toContain('net_peerCount');
  });

  it('makes 100,000 cases in well under 10 s', () => {
    const ctx = context();
    const t0 = performance.now();
    let bytes = 0;
    for (let i = 0; i < 100_000; i++) bytes += caseAt(21, i, ctx).http.body.length;
    const ms = performance.now() - t0;
    console.log(`100,000 cases in ${ms.toFixed(0)} ms (${(bytes / 1e6).toFixed(0)} MB of bodies)`);
    expect(ms).toBeLessThan(30_000);
  }, 60_000);
});

describe('triggers (each at least once in 2,000 cases, for each of three seeds)', () => {
  const U53 = 2n ** 53n;
  const isAbove = (v: JsonValue | undefined, bound: bigint): boolean => (typeof v === 'bigint' ? v > bound : typeof v === 'number' && Number.isFinite(v) && v > Number(bound));
  const isHexOdd = (v: JsonValue | undefined): boolean => typeof v === 'string' && /^[0-9a-fA-F]+$/.test(v) && v.length % 2 === 1;
  const triggers: Record<string, (c: FuzzCase, r: RequestObject) => boolean> = {
    'chain_getBlockByHeight above 2^53': (_, r) => r.method === 'chain_getBlockByHeight' && Array.isArray(r.params) && isAbove(r.params[0], U53),
    'an object as chain_getAccount address': (_, r) => r.method === 'chain_getAccount' && Array.isArray(r.params) && isObject(r.params[0]),
    'a fractional height': (_, r) => r.method === 'chain_getBlockByHeight' && Array.isArray(r.params) && typeof r.params[0] === 'number' && !Number.isInteger(r.params[0]),
    'a valid chain_getAccount with an upper-case address': (c, r) => c.family === 'valid' && r.method === 'chain_getAccount' && Array.isArray(r.params) && typeof r.params[0] === 'string' && /^[0-9A-F]{64}$/.test(r.params[0]) && /[A-F]/.test(r.params[0]),
    'a batch with a duplicate id': (c) => {
      const v = bodyJson(c);
      if (!Array.isArray(v)) return false;
      const ids = v.filter(isObject).filter((o) => 'id' in o).map((o) => stringifyJson(o.id ?? null));
      return new Set(ids).size < ids.length;
    },
    'chain_sendRawTransaction with odd-length hex': (_, r) => r.method === 'chain_sendRawTransaction' && Array.isArray(r.params) && isHexOdd(r.params[0]),
  };

  it('are all made', () => {
    const counts: Record<string, number[]> = Object.fromEntries(Object.keys(triggers).map((k) => [k, []]));
    for (const seed of [12, 2, 3]) {
      const found: Record<string, number> = Object.fromEntries(Object.keys(triggers).map((k) => [k, 0]));
      for (const c of seed === 12 ? referenceCases().slice(0, 2000) : cases(seed, 2000, context())) {
        if (c.http.body.length > 64 * 1024) continue; // none of the triggers is that large; parsing those is slow
        const objects = requestObjects(bodyJson(c));
        for (const [name, test] of Object.entries(triggers)) {
          if (name === 'a batch with a duplicate id' ? test(c, {}) : objects.some((r) => test(c, r))) found[name] = (found[name] ?? 0) + 1;
        }
      }
      for (const name of Object.keys(triggers)) counts[name]?.push(found[name] ?? 0);
    }
    console.log('triggers per 2,000 cases (seeds 12, 2, 3):', counts);
    for (const [name, perSeed] of Object.entries(counts)) for (const n of perSeed) expect(n, name).toBeGreaterThan(0);
  });
});

describe('params too many', () => {
  it('now and then sends a thousand params and more (an outside tester\'s node died on 1,000; 10 at most were sent)', () => {
    const extra = referenceCases().filter((c) => c.rule === 'invalid-params/extra');
    const counts = extra.map((c) => {
      const v = bodyJson(c);
      return typeof v === 'object' && v !== null && !Array.isArray(v) && Array.isArray(v.params) ? v.params.length : 0;
    });
    expect(Math.max(...counts)).toBeGreaterThanOrEqual(1_000);
    // Bounded: far under the reference's body limit of 1 MiB.
    expect(Math.max(...extra.map((c) => c.http.body.length))).toBeLessThan(256 * 1024);
  });
});
