/**
 * Legal variations stay green (3 of 3: as profile detect describes them; part 1 of 2, so the two halves run
 * side by side). For each choice, `chainrpc profile detect` (told only what it cannot find from outside, as
 * --method-prefix) writes the profile a team would write for that node, but for what one look from outside
 * cannot see (test/support/legalVariations.ts, expectSameProfile); and that draft, loaded as written, makes the
 * node pass every check. The choices and the varying node: legal-variations.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { profileFromJson } from '../profile/loadProfile.js';
import { detectProfile } from '../profile/detect/detectProfile.js';
import { detectedAndRun, expectedProfile, nodeChecks, useUpstream, wrong } from './support/legalVariations.js';
import { runChecks } from './support/suites.js';
import { VARIATION_PROFILES } from './support/variationProfiles.js';
import { VARIATIONS } from './support/varyingNode.js';
import type { VariationName } from './support/varyingNode.js';

const upstream = useUpstream();
const NAMES = Object.keys(VARIATIONS) as VariationName[];
/** This file's half of the variations: the first. */
const MINE = NAMES.filter((_, i) => i < Math.ceil(NAMES.length / 2));

/**
 * method-prefix and prefix-unlisted re-serialize every request, padding included, so the varying node's own
 * 4 MiB body limit is the one a client meets there, not the reference node's 1 MiB behind it (renameMethods.ts).
 */
const reserialized = (name: VariationName): boolean => name === 'method-prefix' || name === 'prefix-unlisted';

describe('profile detect on each legal variation: the profile a team would write, and a draft that makes the node pass every check', () => {
  it('the reference node itself', async () => {
    const { profile } = await detectProfile({ url: upstream().url });
    expect(wrong(await runChecks(nodeChecks, [upstream().url], { profile: await profileFromJson(profile, 'detected.json') }))).toEqual([]);
  }, 60_000);

  for (const name of MINE) {
    it(`${name}: ${VARIATIONS[name].description}`, async () => {
      const want = { profile: await expectedProfile(VARIATION_PROFILES[name].profile), unseen: { bodyLimit: reserialized(name) } };
      expect(wrong(await detectedAndRun(upstream(), [name], VARIATION_PROFILES[name].detect, want))).toEqual([]);
    }, 60_000);
  }
});
