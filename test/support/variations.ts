/**
 * The legal variations a varying test node can put in front of a reference node: each is a choice the
 * interface spec leaves open (names, encodings, shapes, paths, statuses, limits) that a real node may
 * make differently. The conformance suite must not fail a node for any of them. The descriptions read
 * as test names: "<description>" is what a client of such a node sees.
 */

export type VariationName =
  | 'method-prefix'
  | 'path-root'
  | 'path-v1'
  | 'camel-keys'
  | 'renamed-fields'
  | 'genesis-at-1'
  | 'genesis-at-5'
  | 'upper-hex'
  | 'timestamps-seconds'
  | 'timestamps-iso'
  | 'unknown-height-null'
  | 'unknown-account-error'
  | 'unknown-account-null'
  | 'tx-result-object'
  | 'faucet-direct'
  | 'error-data-string'
  | 'error-data-absent'
  | 'hex-quantities'
  | 'string-identifiers'
  | 'float-scores'
  | 'pou-other-types'
  | 'tx-hex-code'
  | 'admits-overspends'
  | 'lenient-params'
  | 'health-values'
  | 'notifications-200'
  | 'error-statuses'
  | 'text-plain-served'
  | 'small-limits'
  | 'batch-refused-per-call'
  | 'tiny-batches'
  | 'no-discover'
  | 'genesis-parent-empty'
  | 'hex-peer-count'
  | 'faucet-renamed'
  | 'prefix-unlisted'
  | 'genesis-above-2-53'
  | 'hash-prefix'
  | 'faucet-hash'
  | 'peer-count-object'
  | 'peer-count-decimal'
  | 'block-transaction-objects';

// A Record over the union: adding a name without a description (or the reverse) does not compile.
export const VARIATIONS: Record<VariationName, { description: string }> = {
  'method-prefix': { description: 'methods are named acme_* instead of chain_* (net_peerCount and rpc.discover keep their names)' },
  'path-root': { description: 'JSON-RPC is served at POST / and /rpc answers 404' },
  'path-v1': { description: 'JSON-RPC is served at POST /v1/jsonrpc and /rpc answers 404' },
  'camel-keys': { description: 'result keys are camelCase (transactionCount, parentHash, chainId), peer identifiers untouched' },
  'renamed-fields': { description: 'balance is named Balance and transaction_count is named txCount' },
  'genesis-at-1': { description: 'the first block is at height 1 and height 0 is not found' },
  'genesis-at-5': { description: 'the first block is at height 5 and no height below it is found, as a node written by another team did' },
  'upper-hex': { description: 'hashes and identifiers in results are upper-case hex' },
  'timestamps-seconds': { description: 'block timestamps are whole seconds' },
  'timestamps-iso': { description: 'block timestamps are ISO 8601 strings' },
  'unknown-height-null': { description: 'a height above the tip is answered with result null' },
  'unknown-account-error': { description: 'an account the chain has never seen is an error -32040, not an empty account' },
  'unknown-account-null': { description: 'an account the chain has never seen is answered with result null, as a node written by another team did' },
  'tx-result-object': { description: 'chain_sendRawTransaction answers {transaction_hash} instead of a bare hash' },
  'faucet-direct': { description: 'chain_faucetClaim answers {amount} only, without a transaction hash' },
  'error-data-string': { description: "error data is the reason string instead of an object" },
  'error-data-absent': { description: 'error objects carry no data member' },
  'hex-quantities': { description: 'integers in results are hex quantity strings such as "0x1f", and heights may be given that way' },
  'string-identifiers': { description: 'node identifiers are short "node-" strings instead of 64 hex characters' },
  'float-scores': { description: 'PoU scores are fractional numbers' },
  'pou-other-types': { description: 'local_score is a decimal string and leader an object {id}, types the spec does not show, as a node written by another team did' },
  'tx-hex-code': { description: 'a transaction that is not hex is refused with -32002 instead of -32602' },
  'admits-overspends': { description: 'a transaction spending more than the balance is admitted with its hash and never applied, not refused' },
  'lenient-params': { description: 'extra, by-name, 0x-prefixed and string-encoded params are accepted' },
  'health-values': { description: 'chain_health says healthy / catching_up and validator / full' },
  'notifications-200': { description: 'a notifications-only request is answered HTTP 200 with an empty body' },
  'error-statuses': { description: 'single JSON-RPC errors come with HTTP 400, 404 or 500 by code' },
  'text-plain-served': { description: 'a POST sent as text/plain or with no content type is served like JSON' },
  'small-limits': { description: 'batches over 50 calls and bodies over 64 KiB are refused' },
  'batch-refused-per-call': { description: 'a batch over 50 calls is refused call by call: an array with an error for each call, not one error object' },
  'tiny-batches': { description: 'a batch over 2 elements is refused whole with -32070, whatever it holds, as a node written by another team did' },
  'no-discover': { description: 'rpc.discover is not offered (Method not found)' },
  'genesis-parent-empty': { description: "the genesis block's parent_hash is an empty string instead of 64 zeros" },
  'hex-peer-count': { description: 'net_peerCount answers a hex quantity ("0x3") while every other integer is a JSON number' },
  'faucet-renamed': { description: 'the faucet is <prefix>faucet (chain_faucet) and <prefix>faucetClaim is not a method; rpc.discover lists it so' },
  'prefix-unlisted': { description: 'methods are named nova_* (net_peerCount keeps its name) and nothing lists them: no rpc.discover, as a jayson server with its own names' },
  'genesis-above-2-53': { description: 'the first block is at height 2^53 + 3 (9007199254740995), which no JSON number holds exactly, as an outside tester\'s node did with 2^60 + 7' },
  'hash-prefix': { description: 'hashes in results (a block\'s hash, parent_hash and transactions, the transaction and faucet hashes) carry a 0x prefix; addresses and identifiers do not' },
  'faucet-hash': { description: 'chain_faucetClaim answers the faucet transaction\'s bare hash instead of {transaction_hash, amount}' },
  'peer-count-object': { description: 'net_peerCount answers an object {count, max} instead of the count itself' },
  'peer-count-decimal': { description: 'net_peerCount answers the count as a decimal string ("2") instead of a JSON number, as an outside tester\'s node did' },
  'block-transaction-objects': { description: 'a block lists an object for each transaction ({hash, kind}) instead of its hash, as an outside tester\'s node did' },
};

/** Variations that cannot be made at once (each names the methods its own way). */
export const EXCLUSIVE_VARIATIONS: readonly (readonly VariationName[])[] = [['method-prefix', 'prefix-unlisted']];

/** Whether a string names a variation (the modes list may come from outside the type system). */
export const isVariationName = (name: string): name is VariationName => Object.hasOwn(VARIATIONS, name);
