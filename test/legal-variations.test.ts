/**
 * Legal variations stay green. The varying test node (test/support/varyingNode.ts) puts in front of a
 * reference node, one at a time, each choice the spec leaves open that real nodes make differently:
 * names, encodings, shapes, the endpoint path, statuses, limits. For each:
 *  - with a profile that describes it, every check passes at --level profile (no failure, no error);
 *  - with no profile at all, every MUST and SHOULD check still passes where the spec allows the choice
 *    (docs/conformance-suite.md: MUST and SHOULD never depend on what the spec leaves open).
 * And a node that makes many of these choices at once, as nodes written by other teams do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../core/json/index.js';
import type { JsonValue } from '../core/json/index.js';
import { catalogue } from '../suites/catalogue.js';
import type { CheckResult } from '../suites/model.js';
import { profileFromJson } from '../suites/profile/loadProfile.js';
import type { Profile } from '../suites/profile/Profile.js';
import { detectProfile } from '../suites/profile/detect/detectProfile.js';
import { describeResults, runChecks, startProxy, startTestNode, TEST_BLOCK_MS, testProfile } from './support/suites.js';
import type { TestNode } from './support/suites.js';
import { FOREIGN_NODE, JAYSON_NODE, VARIATION_PROFILES } from './support/variationProfiles.js';
import { startVaryingNode, VARIATIONS } from './support/varyingNode.js';
import type { VariationName } from './support/varyingNode.js';

let upstream: TestNode;
const nodeChecks = catalogue().filter((c) => c.scope === 'node');

/** Results that are neither pass nor skip, as readable lines. */
const wrong = (results: CheckResult[]): string[] => describeResults(results.filter((r) => r.status === 'fail' || r.status === 'error'));

/** A profile file's content, loaded as `chainrpc test --profile` would, told the test node's block time. */
export const describing = (name: string, content: Record<string, unknown>): Promise<Profile> => profileFromJson({ name, blockTimeMs: TEST_BLOCK_MS, ...content }, `${name}.json`);

async function against(modes: VariationName[], profile: Profile): Promise<CheckResult[]> {
  const node = await startVaryingNode(upstream.url, modes);
  try {
    return await runChecks(nodeChecks, [node.url], { profile });
  } finally {
    await node.close();
  }
}

beforeAll(async () => {
  upstream = await startTestNode();
});

afterAll(async () => {
  await upstream.stop();
});

describe('legal variations, each under a profile that describes it: every check passes', () => {
  for (const name of Object.keys(VARIATIONS) as VariationName[]) {
    it(`${name}: ${VARIATIONS[name].description}`, async () => {
      const results = await against([name], await describing(name, VARIATION_PROFILES[name].profile));
      expect(wrong(results)).toEqual([]);
    }, 60_000);
  }

  it(`a node written by another team (${FOREIGN_NODE.modes.join(', ')})`, async () => {
    const results = await against(FOREIGN_NODE.modes, await describing('foreign', FOREIGN_NODE.profile));
    expect(wrong(results)).toEqual([]);
  }, 60_000);

  it(`the jayson-like node a user found wrong answers on (${JAYSON_NODE.modes.join(', ')})`, async () => {
    const results = await against(JAYSON_NODE.modes, await describing('jayson', JAYSON_NODE.profile));
    expect(wrong(results)).toEqual([]);
  }, 60_000);
});

describe('a profile file written before genesisBlock and methodIntegers means what it always meant', () => {
  const genesisCheck = nodeChecks.filter((c) => c.id === 'chain_getBlockByHeight/genesis');

  it('genesisZeros with integers (and no per-method encodings) still describes a node that writes hex quantities', async () => {
    const results = await against(['hex-quantities'], await describing('old-hex', { genesisZeros: true, integers: 'hex' }));
    expect(wrong(results)).toEqual([]);
  }, 60_000);

  it('neither genesisZeros true nor false lets an empty genesis parent hash pass: only genesisBlock says it', async () => {
    for (const genesisZeros of [true, false]) {
      const node = await startVaryingNode(upstream.url, ['genesis-parent-empty']);
      try {
        const results = await runChecks(genesisCheck, [node.url], { profile: await describing('old', { genesisZeros }) });
        expect(results.map((r) => [r.id, r.status])).toEqual([['chain_getBlockByHeight/genesis', 'fail']]);
        expect(results[0]?.evidence.message).toMatch(/the genesis block\) breaks the profile's \(old\) schema: \/parent_hash must be 64 lower-case hexadecimal characters/);
      } finally {
        await node.close();
      }
    }
  }, 60_000);

  it('without methodIntegers, net_peerCount as a hex quantity fails the profile\'s one integers, as it always did', async () => {
    const results = await against(['hex-peer-count'], await describing('old', {}));
    expect(wrong(results).filter((line) => !line.startsWith('net_peerCount/profile-shape: fail'))).toEqual([]);
    expect(wrong(results)).toHaveLength(1);
  }, 60_000);
});

describe('legal variations with no profile: every MUST and SHOULD check passes where the spec allows the choice', () => {
  const allowed = (Object.keys(VARIATIONS) as VariationName[]).filter((n) => VARIATION_PROFILES[n].specAllows);
  for (const name of allowed) {
    it(`${name}: ${VARIATIONS[name].description}`, async () => {
      const results = await against([name], testProfile());
      expect(wrong(results.filter((r) => r.level !== 'PROFILE'))).toEqual([]);
    }, 60_000);
  }

  it('every choice of the varying node is here, or needs a profile to talk to the node', () => {
    const names = Object.keys(VARIATIONS) as VariationName[];
    expect(names.filter((n) => !VARIATION_PROFILES[n].specAllows)).toEqual(['method-prefix', 'path-root', 'path-v1', 'renamed-fields', 'faucet-renamed', 'prefix-unlisted']);
  });
});

describe('profile detect on each legal variation: its draft, as written, makes the node pass every check', () => {
  /**
   * Detects the node (told what it cannot find from outside, as `--method-prefix`), loads the draft as
   * `chainrpc test --profile` would, and runs every check with it.
   */
  async function detectedAndRun(modes: VariationName[], told: { methodPrefix?: string } = {}): Promise<CheckResult[]> {
    const node = await startVaryingNode(upstream.url, modes);
    try {
      const { profile } = await detectProfile({ url: node.url, ...told });
      return await runChecks(nodeChecks, [node.url], { profile: await profileFromJson(profile, 'detected.json') });
    } finally {
      await node.close();
    }
  }

  it('the reference node itself', async () => {
    const { profile } = await detectProfile({ url: upstream.url });
    expect(wrong(await runChecks(nodeChecks, [upstream.url], { profile: await profileFromJson(profile, 'detected.json') }))).toEqual([]);
  }, 60_000);

  for (const name of Object.keys(VARIATIONS) as VariationName[]) {
    it(`${name}: ${VARIATIONS[name].description}`, async () => {
      expect(wrong(await detectedAndRun([name], VARIATION_PROFILES[name].detect))).toEqual([]);
    }, 60_000);
  }

  it('a node written by another team', async () => {
    expect(wrong(await detectedAndRun(FOREIGN_NODE.modes))).toEqual([]);
  }, 60_000);

  it('the jayson-like node, told its prefix (profile detect --method-prefix nova_)', async () => {
    expect(wrong(await detectedAndRun(JAYSON_NODE.modes, JAYSON_NODE.detect))).toEqual([]);
  }, 60_000);
});

describe('batch answers in another order, with extra fields', () => {
  it('pass every check: JSON-RPC 2.0 §6 lets responses come in any order, and results may carry more than the spec shows', async () => {
    const extra = (r: JsonValue): JsonValue =>
      typeof r === 'object' && r !== null && !Array.isArray(r) && typeof r.result === 'object' && r.result !== null && !Array.isArray(r.result) ? { ...r, result: { ...r.result, 'x-vendor': 'legal' } } : r;
    const proxy = await startProxy(upstream.url, (res) => {
      if (res.status !== 200 || res.body === '') return res;
      try {
        const body = parseJson(res.body);
        return { ...res, body: stringifyJson(Array.isArray(body) ? [...body].reverse().map(extra) : extra(body)) };
      } catch {
        return res;
      }
    });
    try {
      expect(wrong(await runChecks(nodeChecks, [proxy.url]))).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
