import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson, type JsonValue } from '../../core/json/index.js';
import { validators } from '../../core/schema/validators.js';
import { METHOD_NAMES } from '../../core/schema/types.generated.js';
import { wireMethod, type Profile } from '../../profile/Profile.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import type { FuzzCase } from '../model.js';
import { caseAt } from './caseAt.js';
import { makeCaseContext } from './CaseContext.js';
import { PLAUSIBLE_RULES } from './invalidParams.js';

const strict = new TextDecoder('utf-8', { fatal: true });

function casesOf(profile: Profile, only: string[], n: number, seed: number): FuzzCase[] {
  const ctx = makeCaseContext(profile, { height: 5000n, genesisHeight: profile.genesisHeight, addresses: ['ab'.repeat(32), 'EF'.repeat(32)], chainId: 3n }, only);
  return Array.from({ length: n }, (_, i) => caseAt(seed, i, ctx));
}

/** The case's request object, its method by the spec's name (the profile's mapping undone) and its params. */
function call(c: FuzzCase, profile: Profile): { method: string; params: JsonValue | undefined } {
  const value = parseJson(strict.decode(c.http.body));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${c.rule}: the body is not one request object`);
  const method = METHOD_NAMES.find((m) => wireMethod(profile, m) === value.method);
  if (method === undefined) throw new Error(`${c.rule}: unknown method ${stringifyJson(value.method ?? null)}`);
  return { method, params: value.params };
}

describe('params against the method schemas', () => {
  const renamed: Profile = { ...referenceProfile(), methodPrefix: 'acme_', methodNames: { chain_getAccount: 'acme_account' } };

  it('valid calls validate, with the profile\'s method names undone', () => {
    for (const profile of [referenceProfile(), renamed]) {
      const all = casesOf(profile, ['valid'], 1500, 31);
      const wrong = all.flatMap((c) => {
        const { method, params } = call(c, profile);
        const v = validators().params(method, params);
        return v.ok ? [] : [`${c.rule} ${c.title}: ${JSON.stringify(v.problems)}`];
      });
      expect(wrong).toEqual([]);
      expect(new Set(all.map((c) => c.rule)).size).toBeGreaterThanOrEqual(7);
    }
  });

  it('invalid-params cases do not validate under the reference profile (plausible values aside)', () => {
    const profile = referenceProfile();
    const all = casesOf(profile, ['invalid-params'], 2000, 32);
    const breaking = all.filter((c) => !PLAUSIBLE_RULES.includes(c.rule));
    const valid = breaking.flatMap((c) => {
      const { method, params } = call(c, profile);
      return validators().params(method, params).ok ? [`${c.rule} ${c.title}`] : [];
    });
    expect(valid).toEqual([]);
    expect(breaking.length).toBeGreaterThan(1500);
    // The plausible rules break the schema now and then, and now and then do not.
    const plausible = all.filter((c) => PLAUSIBLE_RULES.includes(c.rule)).map((c) => call(c, profile));
    const outcomes = new Set(plausible.map(({ method, params }) => validators().params(method, params).ok));
    expect([...outcomes].sort()).toEqual([false, true]);
  });
});
