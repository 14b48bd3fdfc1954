import { describe, expect, it } from 'vitest';
import { NODE_DEFAULTS } from '../reference-node/node/nodeDefaults.js';
import { REFERENCE_SETTINGS, referenceProfile } from './referenceProfile.js';

describe('the reference profile', () => {
  it("names the reference node's defaults as its settings (both read core/referenceSettings.ts)", () => {
    expect(REFERENCE_SETTINGS).toEqual({ blockTimeMs: NODE_DEFAULTS.blockTimeMs, faucetLimit: NODE_DEFAULTS.faucetLimit, maxBatch: NODE_DEFAULTS.maxBatch, maxBodyBytes: NODE_DEFAULTS.maxBodyBytes });
  });

  it('gives every node setting, so a run without a profile checks the limits', () => {
    const p = referenceProfile();
    expect([p.maxBatch, p.maxBodyBytes, p.faucetLimit]).toEqual([1000, 1024 * 1024, 1]);
  });
});
