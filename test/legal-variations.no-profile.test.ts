/**
 * Legal variations stay green (2 of 3: with no profile at all). Every MUST and SHOULD check still passes
 * where the spec allows the choice (docs/conformance-suite.md: MUST and SHOULD never depend on what the spec
 * leaves open). The choices and the varying node: legal-variations.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { against, useUpstream, wrong } from './support/legalVariations.js';
import { testProfile } from './support/suites.js';
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
