/**
 * Legal variations stay green (2 of 3: with no profile at all). Every MUST and SHOULD check still passes
 * where the spec allows the choice (docs/conformance-suite.md: MUST and SHOULD never depend on what the spec
 * leaves open). The choices and the varying node: legal-variations.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../core/json/index.js';
import { against, nodeChecks, useUpstream, wrong } from './support/legalVariations.js';
import { runChecks, startProxy, testProfile } from './support/suites.js';
import { VARIATION_PROFILES } from './support/variationProfiles.js';
import { VARIATIONS } from './support/varyingNode.js';
import type { VariationName } from './support/varyingNode.js';

const upstream = useUpstream();

describe('legal variations with no profile: every MUST and SHOULD check passes where the spec allows the choice', () => {
  const allowed = (Object.keys(VARIATIONS) as VariationName[]).filter((n) => VARIATION_PROFILES[n].specAllows);
  for (const name of allowed) {
    it(`${name}: ${VARIATIONS[name].description}`, async () => {
      const results = await against(upstream(), [name], testProfile());
      expect(wrong(results.filter((r) => r.level !== 'PROFILE'))).toEqual([]);
    }, 60_000);
  }

  it('every choice of the varying node is here, or needs a profile to talk to the node', () => {
    const names = Object.keys(VARIATIONS) as VariationName[];
    expect(names.filter((n) => !VARIATION_PROFILES[n].specAllows)).toEqual(['method-prefix', 'path-root', 'path-v1', 'renamed-fields', 'faucet-renamed', 'prefix-unlisted']);
  });
});

describe('net_peerCount\'s result, whose form the spec does not show', () => {
  const peerChecks = nodeChecks.filter((c) => c.id === 'net_peerCount/non-negative-integer');
  /** The reference node behind a proxy that writes net_peerCount's result as `write` makes it. */
  async function peerCountWritten(write: (count: number) => unknown): Promise<{ status: string; message: string }> {
    const proxy = await startProxy(upstream().url, (res, req) => {
      if (!req.body.includes('"net_peerCount"')) return res;
      const answer = parseJson(res.body) as { result?: number };
      return { ...res, body: stringifyJson({ ...answer, result: write(answer.result ?? 0) }) };
    });
    try {
      const [result] = await runChecks(peerChecks, [proxy.url], { profile: testProfile() });
      return { status: result?.status ?? '', message: result?.evidence.message ?? '' };
    } finally {
      await proxy.close();
    }
  }

  it('is judged as a count when written as a number in any usual writing, and left to the profile otherwise', async () => {
    expect((await peerCountWritten((n) => String(n))).status).toBe('pass');
    expect((await peerCountWritten((n) => `0x${n.toString(16)}`)).status).toBe('pass');
    const object = await peerCountWritten((n) => ({ Count: n }));
    expect(object.status).toBe('skip');
    expect(object.message).toMatch(/a form the spec leaves open/);
    expect((await peerCountWritten(() => '-3')).status).toBe('fail');
    expect((await peerCountWritten(() => 2.5)).status).toBe('fail');
  }, 60_000);
});
