/**
 * The reference profile's node settings (docs/reference-profile.md#limits): what the reference node
 * starts with (reference-node/node/nodeDefaults.ts) and what the suite assumes of a node whose profile
 * names no settings (profile/referenceProfile.ts). They live below both, so the checker never
 * imports what it checks.
 */
export const REFERENCE_SETTINGS = {
  blockTimeMs: 1000,
  faucetLimit: 1,
  maxBatch: 1000,
  maxBodyBytes: 1024 * 1024,
} as const;
