import { REFERENCE_SETTINGS } from '../core/referenceSettings.js';
import { schemaCatalog } from '../core/schema/schemaCatalog.js';
import type { Profile } from './Profile.js';
import { GENESIS_ZEROS } from './Profile.js';
import { referenceCodec } from './referenceCodec.js';

/** Error name -> code, from schemas/errors.schema.json (the single source of the profile's codes). */
export function referenceErrorCodes(): Record<string, number> {
  const defs = schemaCatalog().errors.definitions as unknown as Record<string, { 'x-code'?: number }>;
  return Object.fromEntries(Object.entries(defs).flatMap(([name, d]) => (d['x-code'] === undefined ? [] : [[name, d['x-code']]])));
}

/** The reference profile's node settings (core/referenceSettings.ts, below both the node and the suite). */
export { REFERENCE_SETTINGS };

/** The reference profile (docs/reference-profile.md), as the reference node implements it. */
export function referenceProfile(): Profile {
  return {
    name: 'reference',
    source: 'built-in',
    rpcPath: '/rpc',
    methodPrefix: 'chain_',
    methodNames: {},
    keyCase: 'snake_case',
    fields: {},
    codec: referenceCodec,
    http: { notification: 204, error: 200, errorByCode: {}, wrongMethod: 405, wrongContentType: 415, bodyTooLarge: 413 },
    errorCodes: referenceErrorCodes(),
    errorData: 'object',
    params: { extra: 'refused', byName: 'refused', hexPrefix: 'refused', stringIntegers: 'refused' },
    health: { status: ['ok', 'syncing'], mode: ['MN', 'LN'] },
    genesisHeightExact: 0n,
    genesisHeight: 0,
    genesisBlock: { ...GENESIS_ZEROS },
    hexCase: 'lower',
    hashPrefix: 'none',
    timestamps: 'milliseconds',
    integers: 'number',
    methodIntegers: {},
    peerCountResult: 'integer',
    identifiers: 'hex',
    scores: 'integer',
    unknownHeight: 'error',
    unknownAccount: 'empty',
    txResult: 'hash',
    faucet: true,
    faucetCredit: 'transaction',
    faucetResult: 'object',
    blockTransactions: 'hashes',
    faucetLimit: REFERENCE_SETTINGS.faucetLimit,
    droppedLater: [],
    nonceGap: 'refused',
    sequentialNonces: 'queued',
    fee: 10n ** 15n,
    blockTimeMs: REFERENCE_SETTINGS.blockTimeMs,
    maxBatch: REFERENCE_SETTINGS.maxBatch,
    maxBodyBytes: REFERENCE_SETTINGS.maxBodyBytes,
  };
}
