/**
 * For each legal variation of the varying test node, the profile that describes it (what a team would
 * write for such a node, docs/profiles.md), and whether the spec itself allows the choice, so that MUST
 * and SHOULD checks must pass with no profile at all. Choices of names (methods, keys the suite cannot
 * guess, the endpoint path) need a profile just to talk to the node.
 */
import type { VariationName } from './variations.js';

export interface VariationProfile {
  /** The profile file's content (over the reference profile). */
  profile: Record<string, unknown>;
  /** With no profile, every MUST and SHOULD check still passes: the spec leaves the choice open. */
  specAllows: boolean;
  /**
   * What `chainrpc profile detect` must be told about such a node (it cannot find it from outside): a
   * method prefix that no listing shows (--method-prefix).
   */
  detect?: { methodPrefix: string };
}

export const VARIATION_PROFILES: Record<VariationName, VariationProfile> = {
  'method-prefix': { profile: { methodPrefix: 'acme_' }, specAllows: false },
  'path-root': { profile: { rpcPath: '/' }, specAllows: false },
  'path-v1': { profile: { rpcPath: '/v1/jsonrpc' }, specAllows: false },
  'camel-keys': { profile: { keyCase: 'camelCase' }, specAllows: true },
  'renamed-fields': { profile: { fields: { balance: 'Balance', transaction_count: 'txCount' } }, specAllows: false },
  'genesis-at-1': { profile: { genesisHeight: 1 }, specAllows: true },
  'genesis-at-5': { profile: { genesisHeight: 5 }, specAllows: true },
  'upper-hex': { profile: { hexCase: 'upper' }, specAllows: true },
  'timestamps-seconds': { profile: { timestamps: 'seconds' }, specAllows: true },
  'timestamps-iso': { profile: { timestamps: 'iso8601' }, specAllows: true },
  'unknown-height-null': { profile: { unknownHeight: 'null' }, specAllows: true },
  'unknown-account-error': { profile: { unknownAccount: 'error', errorCodes: { AccountNotFound: -32040 } }, specAllows: true },
  'unknown-account-null': { profile: { unknownAccount: 'null' }, specAllows: true },
  'tx-result-object': { profile: { txResult: 'object' }, specAllows: true },
  'faucet-direct': { profile: { faucetCredit: 'direct' }, specAllows: true },
  'error-data-string': { profile: { errorData: 'string' }, specAllows: true },
  'error-data-absent': { profile: { errorData: 'absent' }, specAllows: true },
  'hex-quantities': { profile: { integers: 'hex' }, specAllows: true },
  'string-identifiers': { profile: { identifiers: 'string' }, specAllows: true },
  'float-scores': { profile: { scores: 'number' }, specAllows: true },
  'pou-other-types': { profile: { scores: 'any', identifiers: 'any' }, specAllows: true },
  'tx-hex-code': { profile: { errorCodes: { 'InvalidParams/tx-hex': -32002 } }, specAllows: true },
  'admits-overspends': { profile: { droppedLater: ['InsufficientBalance'] }, specAllows: true },
  'lenient-params': { profile: { params: { extra: 'accepted', byName: 'accepted', hexPrefix: 'accepted', stringIntegers: 'accepted' } }, specAllows: true },
  'health-values': { profile: { health: { status: ['healthy', 'catching_up'], mode: ['validator', 'full'] } }, specAllows: true },
  'notifications-200': { profile: { http: { notification: 200 } }, specAllows: true },
  'error-statuses': { profile: { http: { errorByCode: { '-32700': 400, '-32600': 400, '-32601': 404, '-32603': 500 } } }, specAllows: true },
  'text-plain-served': { profile: { http: { wrongContentType: 200 } }, specAllows: true },
  'small-limits': { profile: { maxBatch: 50, maxBodyBytes: 65_536, errorCodes: { BatchTooLarge: -32600 } }, specAllows: true },
  'batch-refused-per-call': { profile: { maxBatch: 50, errorCodes: { BatchTooLarge: -32600 } }, specAllows: true },
  'tiny-batches': { profile: { maxBatch: 2, errorCodes: { BatchTooLarge: -32070 } }, specAllows: true },
  'no-discover': { profile: {}, specAllows: true },
  'genesis-parent-empty': { profile: { genesisBlock: { parent_hash: 'empty' } }, specAllows: true },
  'hex-peer-count': { profile: { methodIntegers: { net_peerCount: 'hex' } }, specAllows: true },
  'faucet-renamed': { profile: { methodNames: { chain_faucetClaim: 'chain_faucet' } }, specAllows: false },
  'prefix-unlisted': { profile: { methodPrefix: 'nova_' }, specAllows: false, detect: { methodPrefix: 'nova_' } },
  // Above 2^53: written as a decimal string, as profile detect writes it (a JSON integer is read exactly too).
  'genesis-above-2-53': { profile: { genesisHeight: '9007199254740995' }, specAllows: true },
  'hash-prefix': { profile: { hashPrefix: '0x' }, specAllows: true },
  'faucet-hash': { profile: { faucetResult: 'hash' }, specAllows: true },
  'block-transaction-objects': { profile: { blockTransactions: 'objects' }, specAllows: true },
  'peer-count-object': { profile: { peerCountResult: 'object' }, specAllows: true },
  'peer-count-decimal': { profile: { peerCountResult: 'decimal' }, specAllows: true },
};

/**
 * A node written by another team makes many choices at once: this one is served at `/` with camelCase
 * keys, genesis at 1, upper-case hex, hex quantities, errors for unknown accounts with string data,
 * lenient params and its own health values.
 */
export const FOREIGN_NODE: { modes: VariationName[]; profile: Record<string, unknown> } = {
  modes: ['path-root', 'camel-keys', 'genesis-at-1', 'upper-hex', 'hex-quantities', 'unknown-account-error', 'error-data-string', 'lenient-params', 'health-values', 'tx-result-object', 'error-statuses'],
  profile: {
    rpcPath: '/',
    keyCase: 'camelCase',
    genesisHeight: 1,
    hexCase: 'upper',
    integers: 'hex',
    unknownAccount: 'error',
    errorCodes: { AccountNotFound: -32040 },
    errorData: 'string',
    params: { extra: 'accepted', byName: 'accepted', hexPrefix: 'accepted', stringIntegers: 'accepted' },
    health: { status: ['healthy', 'catching_up'], mode: ['validator', 'full'] },
    txResult: 'object',
    http: { errorByCode: { '-32700': 400, '-32600': 400, '-32601': 404, '-32603': 500 } },
  },
};

/**
 * The node a user found wrong answers on (built on jayson and express, with its own method prefix): no
 * listing of its methods, the faucet as <prefix>faucet, a genesis block whose parent_hash is an empty
 * string, and net_peerCount as a hex quantity while every other integer is a JSON number. detect needs
 * its prefix (--method-prefix) and finds the rest.
 */
export const JAYSON_NODE: { modes: VariationName[]; profile: Record<string, unknown>; detect: { methodPrefix: string } } = {
  modes: ['prefix-unlisted', 'faucet-renamed', 'genesis-parent-empty', 'hex-peer-count'],
  profile: {
    methodPrefix: 'nova_',
    methodNames: { chain_faucetClaim: 'nova_faucet' },
    genesisBlock: { parent_hash: 'empty' },
    methodIntegers: { net_peerCount: 'hex' },
  },
  detect: { methodPrefix: 'nova_' },
};
