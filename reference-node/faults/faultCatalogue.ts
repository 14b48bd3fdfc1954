/**
 * Fault injection, TEST-ONLY: the catalogue of deliberate deviations a reference node can be started
 * with (`chainrpc node --fault <name>`, `ReferenceNode.start({ faults })`). Each fault makes the node
 * break exactly one rule of the interface spec, JSON-RPC 2.0 or the reference profile, visibly
 * through JSON-RPC over HTTP, so that the conformance suite can be proven: every fault must be caught
 * by at least one check, and every check must fail on at least one fault. Never use a faulty node for
 * anything else. The table with hooks and rules: docs/faults.md.
 */

export type FaultCategory = 'transport' | 'methods' | 'chain' | 'state' | 'pou' | 'network' | 'discovery';

/** The level of the rule a fault breaks (informative; the checks that catch it carry their own). */
export type FaultLevel = 'MUST' | 'SHOULD' | 'PROFILE';

export interface FaultInfo {
  readonly name: string;
  readonly category: FaultCategory;
  /** What the node does wrong, as a client sees it. */
  readonly description: string;
  /** The rule it breaks, and where the rule comes from. */
  readonly rule: string;
  readonly level: FaultLevel;
  /** 'node': visible against one node alone; 'network': only by comparing several nodes of one network. */
  readonly scope: 'node' | 'network';
}

const CATALOGUE = [
  // ---- transport: JSON-RPC 2.0 envelope and HTTP (reference-node/rpc/) ----
  {
    name: 'id-type-changed',
    category: 'transport',
    description: 'A numeric id is echoed as a string, and a string id that looks numeric ("7") as a number.',
    rule: 'The response id equals the request id in value and type (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'large-id-rounded',
    category: 'transport',
    description: 'Integer ids beyond 2^53 are echoed rounded to the nearest double (as JSON.parse/JSON.stringify would).',
    rule: 'The response id equals the request id in value (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'null-id-dropped',
    category: 'transport',
    description: 'A request with "id": null is treated as a notification: the method runs and nothing is sent (HTTP 204).',
    rule: 'Only a request without an id member is a notification; one with id null is answered (JSON-RPC 2.0 §4, §4.1).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'batch-one-unwrapped',
    category: 'transport',
    description: 'A batch of one request is answered with a bare response object instead of an array of one.',
    rule: 'A batch is answered with an array of responses (JSON-RPC 2.0 §6).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'empty-batch-array',
    category: 'transport',
    description: '[] is answered with [] instead of one Invalid Request (-32600) object.',
    rule: 'An empty array is an invalid batch, answered with a single response object (JSON-RPC 2.0 §6).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'notification-answered',
    category: 'transport',
    description: 'Notifications (single and inside batches) get response objects (with id null); an all-notification batch gets an array.',
    rule: 'Notifications are never answered (JSON-RPC 2.0 §4.1, §6).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'parse-error-code',
    category: 'transport',
    description: 'Unparsable JSON is answered with -32600 instead of -32700.',
    rule: 'Invalid JSON is -32700 Parse error (JSON-RPC 2.0 §5.1).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'parse-error-id',
    category: 'transport',
    description: 'Parse errors carry "id": 0 instead of null.',
    rule: 'When the id could not be detected, the response id is null (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'invalid-request-ignored',
    category: 'transport',
    description: 'A JSON value that is not a valid request object (1, {"foo":1}, the elements of [1,2,3]) gets no answer: a single one gets HTTP 204, batch elements are dropped.',
    rule: 'An invalid Request is answered with -32600 (JSON-RPC 2.0 §5, §5.1, §6).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'unknown-method-code',
    category: 'transport',
    description: 'An unknown method is answered with -32600 instead of -32601.',
    rule: 'An unknown method is -32601 Method not found (JSON-RPC 2.0 §5.1).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'invalid-params-code',
    category: 'transport',
    description: 'Params that fail validation (wrong type, count, by-name) are answered with -32603 instead of -32602.',
    rule: 'Invalid method parameters are -32602 Invalid params (JSON-RPC 2.0 §5.1).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'result-and-error',
    category: 'transport',
    description: 'Error responses also carry "result": null.',
    rule: 'A response has result or error, never both (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'jsonrpc-missing',
    category: 'transport',
    description: 'Responses (single and batch) lack the "jsonrpc" member.',
    rule: 'Every response carries "jsonrpc": "2.0" (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'http-500-on-error',
    category: 'transport',
    description: 'A single call answered with a JSON-RPC error is sent with HTTP 500 (the body is still the error response).',
    rule: 'Every JSON-RPC answer, error or not, is sent with HTTP 200 (profile: Transport).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'get-accepted',
    category: 'transport',
    description: 'GET /rpc is answered 200 with a JSON-RPC -32600 error body instead of 405.',
    rule: 'A method other than POST on /rpc is HTTP 405 with Allow: POST (profile: Transport).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'any-content-type',
    category: 'transport',
    description: 'A body sent with any content type (text/plain, none) is processed normally instead of refused with 415.',
    rule: 'A content type other than application/json is HTTP 415 (profile: Transport).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'response-content-type',
    category: 'transport',
    description: 'JSON-RPC answers to POST /rpc are sent with content-type text/plain instead of application/json.',
    rule: 'A JSON body is labelled application/json (sound; RFC 8259 §11).',
    level: 'SHOULD',
    scope: 'node',
  },
  {
    name: 'error-code-string',
    category: 'transport',
    description: 'Error objects carry their code as a string ("-32601").',
    rule: 'error.code is an integer (JSON-RPC 2.0 §5.1).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'content-type-params-refused',
    category: 'transport',
    description: 'application/json with parameters ("; charset=utf-8") or in another case is refused with 415.',
    rule: 'A media type is matched without its parameters, case-insensitively (RFC 9110 §8.3.1); application/json; charset=utf-8 is JSON.',
    level: 'SHOULD',
    scope: 'node',
  },
  {
    name: 'batch-limit-ignored',
    category: 'transport',
    description: 'A batch over the node\'s limit (--max-batch, default 1000) is processed instead of refused with one -32013 error.',
    rule: 'A batch over the limit is refused whole with one -32013 BatchTooLarge object, id null (profile: Transport).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'batch-reversed-and-truncated',
    category: 'transport',
    description: 'A batch that has 3 or more responses is answered in reverse order without the response to its last request (an id is missing).',
    rule: 'A batch gets one response per request that is not a notification (JSON-RPC 2.0 §6).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'body-limit-ignored',
    category: 'transport',
    description: 'Bodies over the node\'s limit (--max-body-bytes, default 1 MiB) are read and processed (up to 64 MiB) instead of refused with 413.',
    rule: 'A body over the limit is HTTP 413 (profile: Transport, Limits).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'by-name-params-accepted',
    category: 'transport',
    description: 'By-name (object) params are accepted: their values are taken in order as positional params.',
    rule: 'By-name (object) params are refused with -32602 (profile: Transport).',
    level: 'PROFILE',
    scope: 'node',
  },
  // Behaviours of real JSON-RPC servers.
  {
    name: 'dies-on-null',
    category: 'transport',
    description: 'A body that is JSON null, or a batch with a null element ([null]), kills the RPC server: that request gets no answer (the connection is dropped) and every later connection is refused.',
    rule: 'A body that is not a request object is answered with -32600 Invalid Request, and a server survives any request (JSON-RPC 2.0 §4, §5.1).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'scalars-parse-error',
    category: 'transport',
    description: 'A body that is a JSON scalar (null, true, false, a string, a number) is answered with -32700 Parse error (id null) instead of -32600.',
    rule: '-32700 is for invalid JSON only; a valid JSON value that is not a request is -32600 Invalid Request (JSON-RPC 2.0 §5.1).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'null-id-refused',
    category: 'transport',
    description: 'A request with "id": null is refused with -32600 Invalid Request (id null); the method does not run.',
    rule: 'An id MAY be null; such a request is a call, not a notification, and is served (JSON-RPC 2.0 §4).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'by-name-id-lost',
    category: 'transport',
    description: 'By-name (object) params are still refused with -32602, but the error response carries "id": null instead of the request\'s id.',
    rule: 'The response id is the request\'s id whenever it could be read (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'stack-trace-leak',
    category: 'transport',
    description: '-32602 Invalid params and -32603 Internal error objects carry the exception: the message starts with its class ("TypeError: ...") and data.stack holds a JavaScript stack trace with the server\'s file paths.',
    rule: 'Error messages and data are for clients; stack traces, file paths and exception text are internal details that help attackers (sound; CWE-209).',
    level: 'SHOULD',
    scope: 'node',
  },
  {
    name: 'put-accepted',
    category: 'transport',
    description: 'PUT and DELETE on /rpc with a JSON body are served like POST (HTTP 200 with the JSON-RPC answer) instead of 405.',
    rule: 'The transport method is POST; another method on /rpc is refused with 405 (spec: Transport; RFC 9110 §15.5.6).',
    level: 'SHOULD',
    scope: 'node',
  },
  {
    name: 'empty-post-500',
    category: 'transport',
    description: 'A POST to /rpc with neither Content-Length nor Transfer-Encoding (an empty body) is answered with HTTP 500 and an HTML error page showing an exception and a stack trace with the server\'s file paths; Content-Length: 0 still gets -32700.',
    rule: 'A POST with no body is answered as an empty body is, with a JSON-RPC parse error (-32700), never a server failure (sound; RFC 9112 §6.3).',
    level: 'SHOULD',
    scope: 'node',
  },

  // ---- methods: result shapes and parameter handling (reference-node/methods/, rpc/handleRpcBody.ts) ----
  {
    name: 'balance-as-number',
    category: 'methods',
    description: 'chain_getAccount returns balance as a JSON number instead of a decimal string.',
    rule: 'Account balance is a decimal string parsable as a u128 (spec: Resources > Account).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'balance-padded',
    category: 'methods',
    description: 'chain_getAccount returns balance with leading zeros ("000" + value): parsable, not canonical.',
    rule: 'u128 amounts are canonical decimal strings with no leading zeros (profile: U128String).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'nonce-as-string',
    category: 'methods',
    description: 'chain_getAccount returns nonce as a decimal string instead of a JSON integer.',
    rule: 'Account nonce is an unsigned integer (spec: Resources > Account).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'proposer-short',
    category: 'methods',
    description: 'chain_getBlockByHeight reports proposer as its first 40 hex characters.',
    rule: 'Block proposer is a string of 64 hexadecimal characters (spec: Resources > Block).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'block-number-hex',
    category: 'methods',
    description: 'chain_blockNumber returns the height as a hex quantity ("0x1f") instead of a JSON number: a legal encoding of an integer, not the one the reference profile writes.',
    rule: 'The reference profile writes u64 integers as JSON numbers (profile: Wire names and encodings); the spec asks for an unsigned 64-bit integer and does not fix its encoding.',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'block-number-string',
    category: 'methods',
    description: 'chain_blockNumber returns the height as a decimal string ("5") instead of an integer.',
    rule: 'The current height is an unsigned 64-bit integer: a JSON integer, or a hex quantity, never a decimal string, which the spec keeps for balances (spec: Methods table, chain_blockNumber "Current block height, an unsigned 64-bit integer").',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'unknown-height-null',
    category: 'methods',
    description: 'chain_getBlockByHeight above the tip returns result null instead of the BlockNotFound error.',
    rule: 'A height above the current height is error -32001 BlockNotFound (profile: Unknown heights and accounts).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'unknown-account-error',
    category: 'methods',
    description: 'chain_getAccount for an address the chain never saw (empty account) answers error -32001 "Account not found" instead of {"balance": "0", "nonce": 0}.',
    rule: 'An address never seen is an empty account, not an error (profile: Unknown heights and accounts).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'health-no-mode',
    category: 'methods',
    description: 'chain_health omits mode.',
    rule: 'The health object has status and mode (spec: Resources > Health).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'extra-params-accepted',
    category: 'methods',
    description: 'Params beyond a method\'s declared ones are ignored instead of refused: chain_blockNumber [1] answers the height; chain_getAccount accepts a second param.',
    rule: 'Methods with no parameters take []; extra params are -32602 (spec: Transport; profile: Transport).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'wrong-param-type-accepted',
    category: 'methods',
    description: 'chain_getBlockByHeight accepts a height given as a decimal string ("5"); chain_getAccount given a number answers -32603 Internal error instead of -32602.',
    rule: 'A param of the wrong type is -32602 (profile: Unknown heights and accounts; JSON-RPC 2.0 §5.1).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'health-chain-id-string',
    category: 'methods',
    description: 'chain_health returns chain_id as a decimal string instead of a JSON integer.',
    rule: 'chain_health.chain_id is a u64 JSON integer (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'tx-hash-wrong',
    category: 'methods',
    description: 'chain_sendRawTransaction admits the transaction but returns SHA-256 of the 113-byte body instead of the 177 wire bytes: a well-formed hash that never appears in a block.',
    rule: 'The result is the transaction hash, SHA-256 of the wire bytes, the hash blocks list (profile: Results the spec leaves unshown; docs/transaction-codec.md).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'hash-uppercase',
    category: 'methods',
    description: 'chain_getBlockByHeight writes hash, parent_hash, proposer and transaction hashes in upper case.',
    rule: 'Hashes and identifiers are written in lower case, one spelling per value (profile: Wire names and encodings).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'height-lenient',
    category: 'methods',
    description: 'chain_getBlockByHeight takes any JSON number as the height: a negative one is read as 0 and a fraction is floored (-1 answers the block at 0, 1.5 the block at 1) instead of refusing them with -32602; a height given as a string is still refused.',
    rule: 'The height is an unsigned integer; a negative or fractional one is refused (spec: Methods table, chain_getBlockByHeight "height: integer"; code: JSON-RPC 2.0 §5.1).',
    level: 'SHOULD',
    scope: 'node',
  },
  {
    name: 'tx-param-lenient',
    category: 'methods',
    description: 'chain_sendRawTransaction answers a param that is a string but not a string of hex pairs (non-hex characters, odd length, a 0x prefix) with a made-up 64-hex hash (SHA-256 of the text) instead of refusing it; nothing is queued. Numbers and missing params are still refused.',
    rule: 'The transaction is "submitted as a hexadecimal string"; text that no reading makes hex pairs is refused (spec: Methods table, Resources > Transaction).',
    level: 'SHOULD',
    scope: 'node',
  },
  {
    name: 'faucet-address-lenient',
    category: 'methods',
    description: 'chain_faucetClaim takes any string as the address (63 characters, non-hex characters, a 0x prefix): it answers with a claim result (a made-up 64-hex transaction_hash, the configured amount) and sends nothing, instead of refusing it. Numbers and missing params are still refused.',
    rule: 'An address is a string of 64 hexadecimal characters; a malformed one is refused (spec: Methods table, chain_faucetClaim; Resources > Account).',
    level: 'SHOULD',
    scope: 'node',
  },

  // ---- chain: heights and blocks (reference-node/methods/chain_blockNumber.ts, chain_getBlockByHeight.ts) ----
  {
    name: 'block-missing',
    category: 'chain',
    description: 'chain_blockNumber reports one more than the tip: chain_getBlockByHeight has no block at that height.',
    rule: 'When the height rises, a block exists for the new height (spec: Methods, rule 1).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'height-regresses',
    category: 'chain',
    description: 'Every third chain_blockNumber call answers the tip minus 2 (at least 0): the height goes backwards.',
    rule: 'The block height never decreases (sound: a committed block stays committed).',
    level: 'SHOULD',
    scope: 'node',
  },
  {
    name: 'tx-count-wrong',
    category: 'chain',
    description: 'Blocks with transactions report transaction_count one higher than the length of their transactions list.',
    rule: 'transaction_count equals the length of transactions (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'parent-hash-broken',
    category: 'chain',
    description: 'Blocks at height >= 1 report their own hash as parent_hash.',
    rule: 'parent_hash is the previous block\'s hash (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'node',
  },

  // ---- state: admission and execution (reference-node/chain/, node/ReferenceNode.ts) ----
  {
    name: 'nonce-not-incremented',
    category: 'state',
    description: 'chain_getAccount reports the nonce as it was before the account\'s latest confirmed transaction (nonce - 1 once it is above 0); the chain itself is unchanged, so a client that signs with the reported nonce gets NonceTooLow.',
    rule: 'nonce is the nonce the account\'s next transaction must carry (spec: Resources > Account, Transaction).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'fee-not-charged',
    category: 'state',
    description: 'Confirmed transactions do not debit the fee from the sender, nor credit it to the proposer: the sender pays value only (supply still conserved).',
    rule: 'A transfer debits value + fee from the sender; fees go to the proposer (profile: Transactions; docs/chain.md).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'bad-signature-accepted',
    category: 'state',
    description: 'chain_sendRawTransaction skips signature verification: a transaction with a flipped signature byte is admitted and included.',
    rule: 'A transaction whose signature fails verification is refused, -32004 TxBadSignature (sound; code: profile).',
    level: 'SHOULD',
    scope: 'node',
  },
  {
    name: 'lenient-signature',
    category: 'state',
    description: 'Signatures are checked with plain node:crypto verify, without the strict pre-checks: ordinary bad signatures are still refused, but small-order public keys, small-order R and non-canonical A are admitted (and included).',
    rule: 'Strict ed25519 verification: canonical S, R and A, no small-order keys or R (profile: docs/transaction-codec.md).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'nonce-reuse-accepted',
    category: 'state',
    description: 'A transaction whose nonce is below the sender\'s next nonce is answered with its hash (then silently dropped) instead of NonceTooLow.',
    rule: 'A used nonce is refused at once with -32005 NonceTooLow (profile; what any sound node does is never apply it, which this node keeps to).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'nonce-gap-accepted',
    category: 'state',
    description: 'A client transaction whose nonce is ahead of the sender\'s next nonce is admitted (held until the gap fills) instead of NonceGap.',
    rule: 'A client transaction with a nonce gap is refused, -32006 NonceGap (profile: Transactions).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'overspend-accepted',
    category: 'state',
    description: 'A transaction with value + fee above the sender\'s available balance is answered with its hash (then silently dropped) instead of InsufficientBalance.',
    rule: 'value + fee above the balance less queued spends is -32007 InsufficientBalance (profile: Transactions).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'overflow-accepted',
    category: 'state',
    description: 'A well-signed transaction whose value + fee overflows u128 is answered with its hash (then silently dropped) instead of AmountOverflow.',
    rule: 'value + fee above 2^128-1 is -32008 AmountOverflow (profile: Transactions).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'duplicate-accepted',
    category: 'state',
    description: 'The same transaction sent again is answered with its hash instead of TxDuplicate.',
    rule: 'The same transaction (same hash) again is -32009 TxDuplicate (profile: Transactions).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'malformed-internal-error',
    category: 'state',
    description: 'Transaction bytes of the wrong length or an unknown version are answered with -32603 Internal error instead of TxMalformed.',
    rule: 'Hex of the wrong byte length or an unknown version byte is -32002 TxMalformed (profile: Transactions).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'wrong-error-codes',
    category: 'state',
    description: 'Every profile node error (-32001..-32014) is answered with the generic -32000 (message and data.reason kept).',
    rule: 'Each condition has its own code, -32001..-32014 (profile: Errors; docs/error-codes.md).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'faucet-no-limit',
    category: 'state',
    description: 'The faucet\'s per-address limit is not enforced: an address may claim again and again.',
    rule: 'Past the per-address limit a claim is -32011 FaucetLimit (profile: Faucet).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'faucet-no-credit',
    category: 'state',
    description: 'chain_faucetClaim answers with a transaction hash and the amount but sends nothing: no transaction, no credit.',
    rule: 'The claim is a real transfer from the faucet account, included in a block (profile: Faucet).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'wrong-chain-accepted',
    category: 'state',
    description: 'A transaction signed for another chain id is admitted (and included) instead of TxWrongChain.',
    rule: 'A transaction for another chain id is refused, -32003 TxWrongChain (sound: no cross-chain replay; code: profile).',
    level: 'SHOULD',
    scope: 'node',
  },

  // ---- pou: proof of usage and peers (reference-node/methods/chain_pou*.ts, net_peerCount.ts) ----
  {
    name: 'two-leaders',
    category: 'pou',
    description: 'chain_pouLocal says local_is_leader true with leader = itself, whoever leads: on a network of several MNs two or more claim to lead.',
    rule: 'One leader per network: every node names the same leader, and only it says local_is_leader (profile: Proof of usage).',
    level: 'SHOULD',
    scope: 'network',
  },
  {
    name: 'peers-empty',
    category: 'pou',
    description: 'chain_pouPeers returns an empty map while the node has live peers (net_peerCount still counts them).',
    rule: 'chain_pouPeers lists every live peer; net_peerCount is its size (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'network',
  },
  {
    name: 'peer-count-off',
    category: 'pou',
    description: 'net_peerCount answers the number of live peers + 1 (1 on a lone node, which has none).',
    rule: 'net_peerCount is the number of live peers, itself excluded: the size of chain_pouPeers\' map (profile).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'leader-not-hex',
    category: 'pou',
    description: 'chain_pouLocal returns leader as a JSON number (the first 12 hex digits read as an integer) instead of a 64-hex string.',
    rule: 'leader is the 64-hex identifier of the leader, or null (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'score-negative',
    category: 'pou',
    description: 'chain_pouLocal returns local_score as a negative number (-score - 1).',
    rule: 'local_score is a non-negative integer (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'node',
  },

  {
    name: 'unknown-height-latest',
    category: 'methods',
    description: 'chain_getBlockByHeight above the tip answers with the latest block instead of an error.',
    rule: 'A height that has no block is not answered with a block (sound; profile: BlockNotFound).',
    level: 'SHOULD',
    scope: 'node',
  },
  {
    name: 'faucet-amount-number',
    category: 'methods',
    description: 'chain_faucetClaim returns amount as a JSON number.',
    rule: 'amount is a u128 decimal string (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'address-lenient',
    category: 'methods',
    description: 'chain_getAccount answers any string as an address (63 characters, a 0x prefix) with an empty account.',
    rule: 'The address is 64 hexadecimal characters (spec: Methods table); a malformed one is refused.',
    level: 'SHOULD',
    scope: 'node',
  },
  {
    name: 'chain-stalled',
    category: 'chain',
    description: 'The leader never proposes a block: the height stays where it is.',
    rule: 'The chain advances (sound; spec rule 1 presumes rising heights).',
    level: 'SHOULD',
    scope: 'node',
  },
  {
    name: 'pou-flag-string',
    category: 'pou',
    description: 'chain_pouLocal returns local_is_leader as a string ("true" / "false").',
    rule: 'local_is_leader is a boolean (spec: Resources > PoU local status).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'peers-as-list',
    category: 'pou',
    description: 'chain_pouPeers returns peers as an array of identifiers instead of a map to scores.',
    rule: 'peers maps identifiers to scores (spec: Resources > PoU peers).',
    level: 'MUST',
    scope: 'node',
  },
  {
    name: 'peer-score-fraction',
    category: 'pou',
    description: 'chain_pouPeers reports each score plus 0.5.',
    rule: 'Scores are non-negative integers (profile; the spec only asks for an orderable number).',
    level: 'PROFILE',
    scope: 'network',
  },
  {
    name: 'peer-count-hex',
    category: 'pou',
    description: 'net_peerCount answers the count as a hex quantity ("0x2") instead of a JSON number: a legal encoding of an integer, not the one the reference profile writes.',
    rule: 'net_peerCount is a u64 written as a JSON number (profile: Results the spec leaves unshown, Wire names and encodings); the spec does not show its result.',
    level: 'PROFILE',
    scope: 'node',
  },
  {
    name: 'peer-count-negative',
    category: 'pou',
    description: 'net_peerCount answers a negative number (-1 - the number of live peers).',
    rule: 'A peer count is a non-negative integer (sound: "read the peer count"; the spec does not show its type).',
    level: 'SHOULD',
    scope: 'node',
  },
  // ---- network: several nodes of one chain (reference-node/node/ReferenceNode.ts) ----
  {
    name: 'no-relay',
    category: 'network',
    description: 'Transactions submitted to this node are not relayed to its peers: sent to a node that does not lead (an LN, say), a transaction is never included.',
    rule: 'A transaction admitted by any node of the network is included (sound; profile: relay).',
    level: 'SHOULD',
    scope: 'network',
  },
  {
    name: 'fork-view',
    category: 'network',
    description: 'chain_getBlockByHeight serves another hash for every block at an even height >= 2, and the matching parent_hash at the next height, as if the node followed a fork of its own; its hash links stay consistent and its real chain is unchanged.',
    rule: 'Every node of a network returns the same block at every height (sound: one chain).',
    level: 'SHOULD',
    scope: 'network',
  },

  {
    name: 'proposer-self',
    category: 'network',
    description: "chain_getBlockByHeight reports this node's own identifier as every block's proposer (hash unchanged): alone it looks right, next to its peers it disagrees.",
    rule: 'Every node of a network returns the same block (transaction_count, proposer) at every height (sound: one chain).',
    level: 'SHOULD',
    scope: 'network',
  },
  {
    name: 'height-far-ahead',
    category: 'network',
    description: 'chain_blockNumber reports 1000 blocks more than the chain has, as a node counting blocks of its own would.',
    rule: 'The nodes of a network are within a few blocks of each other, and a block exists for the height reported (spec rule 1).',
    level: 'SHOULD',
    scope: 'network',
  },

  // ---- discovery ----
  {
    name: 'discover-invalid',
    category: 'discovery',
    description: 'rpc.discover returns {"openrpc": "1.3.2"} with no info and no methods.',
    rule: 'rpc.discover returns a valid OpenRPC document listing the methods (profile: OpenRPC service discovery).',
    level: 'PROFILE',
    scope: 'node',
  },
] as const satisfies readonly FaultInfo[];

/** A fault's name; hooks take this type, so a misspelt name in a hook is a compile error. */
export type FaultName = (typeof CATALOGUE)[number]['name'];

/** Every fault, in documentation order. Names are stable: checks, tests and docs refer to them. */
export const FAULT_CATALOGUE: readonly FaultInfo[] = CATALOGUE;

export const FAULT_NAMES: readonly FaultName[] = CATALOGUE.map((f) => f.name);

/** A fault name that is not in the catalogue; the message lists every known one. */
export class UnknownFaultError extends Error {
  constructor(readonly unknown: readonly string[]) {
    super(
      `unknown fault${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => JSON.stringify(n)).join(', ')}; known faults: ${FAULT_NAMES.join(', ')} (see docs/faults.md)`,
    );
    this.name = 'UnknownFaultError';
  }
}

const KNOWN: ReadonlySet<string> = new Set(FAULT_NAMES);

/**
 * The faults a node runs with. Empty for every node unless asked for; the hooks read it with
 * `faults.has('name')`, whose argument is type-checked against the catalogue.
 */
export class FaultSet {
  static readonly none = new FaultSet([]);
  private readonly set: ReadonlySet<FaultName>;

  private constructor(names: readonly FaultName[]) {
    this.set = new Set(names);
  }

  /**
   * Validates names (each entry may be a comma-separated list; blanks are ignored). Throws
   * UnknownFaultError, naming every unknown entry and listing the known ones.
   */
  static parse(entries: Iterable<string>): FaultSet {
    const names: string[] = [];
    for (const entry of entries) for (const part of entry.split(',')) if (part.trim() !== '') names.push(part.trim());
    const unknown = names.filter((n) => !KNOWN.has(n));
    if (unknown.length > 0) throw new UnknownFaultError(unknown);
    return names.length === 0 ? FaultSet.none : new FaultSet(names as FaultName[]);
  }

  has(name: FaultName): boolean {
    // A correct node asks this on every call; with no fault set, no lookup is made.
    return this.set.size !== 0 && this.set.has(name);
  }

  get size(): number {
    return this.set.size;
  }

  /** The active faults, in catalogue order. */
  get names(): FaultName[] {
    return FAULT_NAMES.filter((n) => this.set.has(n));
  }
}

/** The catalogue entry of a fault. */
export function faultInfo(name: FaultName): FaultInfo {
  const info = FAULT_CATALOGUE.find((f) => f.name === name);
  if (!info) throw new UnknownFaultError([name]);
  return info;
}

/** The warning a faulty node logs at start. */
export function faultWarning(faults: FaultSet): string {
  return `WARNING: FAULT INJECTION ACTIVE (${faults.names.join(', ')}): this node is deliberately wrong. TEST-ONLY: use it for nothing but proving the conformance suite (docs/faults.md).`;
}
