/**
 * Legal variations stay green (3 of 3: as profile detect describes them; part 2 of 2, so the two halves run
 * side by side). For each choice, `chainrpc profile detect` (told only what it cannot find from outside, as
 * --method-prefix) writes the profile a team would write for that node, but for what one look from outside
 * cannot see (test/support/legalVariations.ts, expectSameProfile); and that draft, loaded as written, makes the
 * node pass every check. The choices and the varying node: legal-variations.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { detectedAndRun, expectedProfile, useUpstream, wrong } from './support/legalVariations.js';
import { FOREIGN_NODE, JAYSON_NODE, VARIATION_PROFILES } from './support/variationProfiles.js';
import { VARIATIONS } from './support/varyingNode.js';
import type { VariationName } from './support/varyingNode.js';

const upstream = useUpstream();
const NAMES = Object.keys(VARIATIONS) as VariationName[];
/** This file's half of the variations: the second. */
const MINE = NAMES.filter((_, i) => i >= Math.ceil(NAMES.length / 2));

/**
 * method-prefix and prefix-unlisted re-serialize every request, padding included, so the varying node's own
 * 4 MiB body limit is the one a client meets there, not the reference node's 1 MiB behind it (renameMethods.ts).
 */
const reserialized = (name: VariationName): boolean => name === 'method-prefix' || name === 'prefix-unlisted';

describe('profile detect on each legal variation: the profile a team would write, and a draft that makes the node pass every check', () => {
  for (const name of MINE) {
    it(`${name}: ${VARIATIONS[name].description}`, async () => {
      const want = { profile: await expectedProfile(VARIATION_PROFILES[name].profile), unseen: { bodyLimit: reserialized(name) } };
      expect(wrong(await detectedAndRun(upstream(), [name], VARIATION_PROFILES[name].detect, want))).toEqual([]);
    }, 60_000);
  }

  it('renamed account fields on a node that answers an unknown account with an error: found on the account the faucet funded', async () => {
    const modes: VariationName[] = ['renamed-fields', 'unknown-account-error'];
    const merged = { ...VARIATION_PROFILES['renamed-fields'].profile, ...VARIATION_PROFILES['unknown-account-error'].profile };
    const want = { profile: await expectedProfile(merged) };
    expect(wrong(await detectedAndRun(upstream(), modes, {}, want))).toEqual([]);
  }, 60_000);

  it('a node written by another team (FOREIGN_NODE: many choices at once)', async () => {
    const want = { profile: await expectedProfile(FOREIGN_NODE.profile) };
    expect(wrong(await detectedAndRun(upstream(), FOREIGN_NODE.modes, {}, want))).toEqual([]);
  }, 60_000);

  it('the jayson-like node a user found wrong answers on, told its prefix (profile detect --method-prefix nova_): the faucet under <prefix>faucet, the empty genesis parent hash, the hex peer count', async () => {
    const want = { profile: await expectedProfile(JAYSON_NODE.profile), unseen: { bodyLimit: true } };
    expect(wrong(await detectedAndRun(upstream(), JAYSON_NODE.modes, JAYSON_NODE.detect, want))).toEqual([]);
  }, 60_000);
});
