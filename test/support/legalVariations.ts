/**
 * The legal-variation proof's common parts (test/legal-variations.*.test.ts): an honest reference node
 * upstream of every varying node, the checks of node scope, and running them against a variation under a
 * profile, as given or as `chainrpc profile detect` writes it. Each file of the proof starts its own
 * upstream, so the files run side by side.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { JsonValue } from '../../core/json/index.js';
import { catalogue } from '../../suites/catalogue.js';
import type { CheckResult } from '../../suites/model.js';
import { profileFromJson } from '../../profile/loadProfile.js';
import type { Profile } from '../../profile/Profile.js';
import { detectProfile } from '../../profile/detect/detectProfile.js';
import { REFERENCE_SETTINGS } from '../../profile/referenceProfile.js';
import { describeResults, runChecks, startTestNode, TEST_BLOCK_MS } from './suites.js';
import type { TestNode } from './suites.js';
import { member, rpc } from './rpc.js';
import { startVaryingNode } from './varyingNode.js';
import type { VariationName } from './varyingNode.js';

export const nodeChecks = catalogue().filter((c) => c.scope === 'node');

/** Results that are neither pass nor skip, as readable lines. */
export const wrong = (results: CheckResult[]): string[] => describeResults(results.filter((r) => r.status === 'fail' || r.status === 'error'));

/** A profile file's content, loaded as `chainrpc test --profile` would, told the test node's block time. */
export const describing = (name: string, content: Record<string, unknown>): Promise<Profile> => profileFromJson({ name, blockTimeMs: TEST_BLOCK_MS, ...content }, `${name}.json`);

/** The file's honest upstream node, started before its tests and stopped after them; read it inside a test. */
export function useUpstream(): () => TestNode {
  let upstream: TestNode | undefined;
  beforeAll(async () => {
    upstream = await startTestNode();
  });
  afterAll(async () => {
    await upstream?.stop();
  });
  return () => {
    if (upstream === undefined) throw new Error('the upstream node is not started (useUpstream is called at the top of a test file)');
    return upstream;
  };
}

/** Every node-scope check against the upstream behind `modes`, under `profile`. */
export async function against(upstream: TestNode, modes: VariationName[], profile: Profile): Promise<CheckResult[]> {
  const node = await startVaryingNode(upstream.url, modes);
  try {
    return await runChecks(nodeChecks, [node.url], { profile });
  } finally {
    await node.close();
  }
}

/** The profile a team would write for a node: its variations' keys over the reference node's settings. */
export async function expectedProfile(profile: Record<string, unknown>): Promise<Profile> {
  const { faucetLimit, maxBatch, maxBodyBytes } = REFERENCE_SETTINGS;
  return profileFromJson({ blockTimeMs: TEST_BLOCK_MS, faucetLimit, maxBatch, maxBodyBytes, ...profile }, 'expected.json');
}

/**
 * `got` (a detected profile) against `want` (the profile a team would write), allowing only what one look
 * from outside cannot see: a value set of chain_health shows the one value the node is in, an error that
 * cannot be provoked (-32603) shows no status, and a proxy that re-serializes requests has a body limit of
 * its own (`unseen.bodyLimit`).
 */
export function expectSameProfile(got: Profile, want: Profile, unseen: { bodyLimit?: boolean } = {}, observedBlockTimeMs?: number): void {
  expect(want.health.status).toContain(got.health.status[0]);
  expect(want.health.mode).toContain(got.health.mode[0]);
  // Statuses of error codes never drawn (an internal error) cannot be listed: what is listed must be right.
  expect(want.http.errorByCode).toMatchObject(got.http.errorByCode);
  // The block time the node was given, or the one it showed: on a loaded machine the in-process node's block
  // timer runs late, and detection rightly reports the blocks it saw.
  const blockTimeOff = Math.min(Math.abs(got.blockTimeMs - want.blockTimeMs), observedBlockTimeMs === undefined ? Infinity : Math.abs(got.blockTimeMs - observedBlockTimeMs));
  expect(blockTimeOff, `detected ${got.blockTimeMs} ms; given ${want.blockTimeMs} ms, shown ${observedBlockTimeMs?.toFixed(0) ?? '?'} ms`).toBeLessThanOrEqual(30);
  const strip = (p: Profile): Record<string, unknown> => {
    const { name: _n, source: _s, codec: _c, blockTimeMs: _b, health: _h, http, maxBodyBytes, ...rest } = p;
    return { ...rest, http: { ...http, errorByCode: {} }, ...(unseen.bodyLimit === true ? {} : { maxBodyBytes }) };
  };
  expect(strip(got)).toEqual(strip(want));
}

/** The mean time between the last 20 blocks of an (unvaried) reference node, from their timestamps (ms). */
async function shownBlockTimeMs(url: string, blocks = 20): Promise<number | undefined> {
  const call = async (method: string, params: number[]): Promise<JsonValue | undefined> => member(await rpc(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })), 'result');
  const head = Number(await call('chain_blockNumber', []));
  if (!Number.isSafeInteger(head) || head < blocks) return undefined;
  const stamp = async (height: number): Promise<number> => Number(member(await call('chain_getBlockByHeight', [height]), 'timestamp'));
  const shown = ((await stamp(head)) - (await stamp(head - blocks))) / blocks;
  return Number.isFinite(shown) ? shown : undefined;
}

/**
 * Detects the node behind `modes` (told what it cannot find from outside, as `--method-prefix`), compares the
 * draft with `want` when given (the profile a team would write), then loads the draft as `chainrpc test
 * --profile` would and runs every check with it: one detection serves both proofs.
 */
export async function detectedAndRun(
  upstream: TestNode,
  modes: VariationName[],
  told: { methodPrefix?: string } = {},
  want?: { profile: Profile; unseen?: { bodyLimit?: boolean } },
): Promise<CheckResult[]> {
  const node = await startVaryingNode(upstream.url, modes);
  try {
    const detected = await detectProfile({ url: node.url, ...told });
    const profile = await profileFromJson(detected.profile, 'detected.json');
    if (want !== undefined) {
      expectSameProfile(profile, want.profile, want.unseen, await shownBlockTimeMs(upstream.url));
      expect(detected.warnings).toEqual([]);
    }
    return await runChecks(nodeChecks, [node.url], { profile });
  } finally {
    await node.close();
  }
}
