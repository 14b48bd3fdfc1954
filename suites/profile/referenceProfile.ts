import { schemaCatalog } from '../../core/schema/schemaCatalog.js';
import { NODE_DEFAULTS } from '../../reference-node/node/nodeDefaults.js';
import type { Profile } from './Profile.js';
import { referenceCodec } from './referenceCodec.js';

/** Error name -> code, from schemas/errors.schema.json (the single source of the profile's codes). */
export function referenceErrorCodes(): Record<string, number> {
  const defs = schemaCatalog().errors.definitions as unknown as Record<string, { 'x-code'?: number }>;
  return Object.fromEntries(Object.entries(defs).flatMap(([name, d]) => (d['x-code'] === undefined ? [] : [[name, d['x-code']]])));
}

/** The reference profile (docs/reference-profile.md), as the reference node implements it. */
export function referenceProfile(): Profile {
  return {
    name: 'reference',
    source: 'built-in',
    methodPrefix: 'chain_',
    methodNames: {},
    fields: {},
    codec: referenceCodec,
    http: { notification: 204, wrongMethod: 405, wrongContentType: 415, bodyTooLarge: 413 },
    errorCodes: referenceErrorCodes(),
    faucet: true,
    faucetLimit: NODE_DEFAULTS.faucetLimit,
    blockTimeMs: NODE_DEFAULTS.blockTimeMs,
    maxBatch: NODE_DEFAULTS.maxBatch,
    maxBodyBytes: NODE_DEFAULTS.maxBodyBytes,
  };
}
