import type { TxCodec } from './TxCodec.js';

/**
 * What a network chose where the spec is silent. The suite's MUST checks never depend on it; SHOULD
 * checks use it only to talk to the node (method names, field names, codec); PROFILE checks compare
 * the node's answers with its exact choices. The default is the reference profile.
 */
export interface Profile {
  name: string;
  /** Where it came from: "built-in" or the file path. */
  source: string;
  /** Replaces the spec's neutral `chain_` prefix in method names (e.g. "acme_"). net_peerCount keeps its name. */
  methodPrefix: string;
  /** Explicit method renames, by the spec's name: { "chain_getAccount": "acme_account" }. Win over the prefix. */
  methodNames: Record<string, string>;
  /** Result field names on the wire, by the spec's name: { "balance": "Balance" }. */
  fields: Record<string, string>;
  /** The transaction codec (module path in a profile file; the reference codec by default). */
  codec: TxCodec;
  /** HTTP statuses the node uses (profile checks compare; the legal set is wider). */
  http: {
    /** Status of a response that carries only notifications' nothing: 204 (reference) or 200. */
    notification: number;
    wrongMethod: number;
    wrongContentType: number;
    bodyTooLarge: number;
  };
  /** Error codes by the profile's error names (schemas/errors.schema.json). */
  errorCodes: Record<string, number>;
  /** The network has a faucet (chain_faucetClaim funds fresh keys). */
  faucet: boolean;
  /** Faucet claims one address may make (the faucet-limit check claims one more). */
  faucetLimit: number;
  /** A funded private key (hex) to use instead of the faucet; its owner pays the checks' fees. */
  privateKey?: string;
  /** Expected time between blocks, ms: how long checks wait for inclusion. */
  blockTimeMs: number;
  /** Chain id transactions are signed for; read from chain_health's chain_id when absent, else 1. */
  chainId?: bigint;
  /** The node's batch size limit, when known (the batch-limit check needs it). */
  maxBatch?: number;
  /** The node's request body limit in bytes, when known. */
  maxBodyBytes?: number;
}
