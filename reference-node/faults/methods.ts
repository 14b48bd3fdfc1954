/**
 * Methods faults: result shapes and parameter handling. They wrap a method's handler (before, after, or around its refusal) and, for lenient params, the params check. TEST-ONLY: each fault makes a reference node deliberately wrong (docs/faults.md).
 */
import type { JsonValue } from '../../core/json/index.js';
import { validators } from '../../core/schema/validators.js';
import { DEFAULT_FAUCET_AMOUNT, toRpcBlock } from '../chain/index.js';
import { jsonInteger } from '../../core/json/index.js';
import { rpcError } from '../methods/rpcError.js';
import { RpcMethodError } from '../rpc/RpcMethodError.js';
import { lenientParams, mapResult, onRefusal, rules, wrapMethod, text } from './bends.js';
import { bodyHash, flooredHeight, isAddress, isHexPairs, lenientAddress, lenientFaucetAddress, lenientHeightParam, lenientTxParam, madeUpTxHash, phantomFaucetClaim, skipsParamValidation } from './deviations.js';
import type { Fault } from './bends.js';

/** The JSON-RPC code of a profile error (schemas/errors.schema.json). */
const errorCode = (name: string): number => rpcError(name, { reason: '' }).code;

export const METHODS_FAULTS = [
  {
    name: 'balance-as-number',
    category: 'methods',
    description: 'chain_getAccount returns balance as a JSON number instead of a decimal string.',
    rule: 'Account balance is a decimal string parsable as a u128 (spec: Resources > Account).',
    level: 'MUST',
    scope: 'node',
    bend: { methods: mapResult('chain_getAccount', (r) => ({ ...r, balance: jsonInteger(BigInt(text(r.balance))) })) },
  },
  {
    name: 'balance-padded',
    category: 'methods',
    description: 'chain_getAccount returns balance with leading zeros ("000" + value): parsable, not canonical.',
    rule: 'u128 amounts are canonical decimal strings with no leading zeros (profile: U128String).',
    level: 'PROFILE',
    scope: 'node',
    bend: { methods: mapResult('chain_getAccount', (r) => ({ ...r, balance: `000${text(r.balance)}` })) },
  },
  {
    name: 'nonce-as-string',
    category: 'methods',
    description: 'chain_getAccount returns nonce as a decimal string instead of a JSON integer.',
    rule: 'Account nonce is an unsigned integer (spec: Resources > Account).',
    level: 'MUST',
    scope: 'node',
    bend: { methods: mapResult('chain_getAccount', (r) => ({ ...r, nonce: text(r.nonce) })) },
  },
  {
    name: 'proposer-short',
    category: 'methods',
    description: 'chain_getBlockByHeight reports proposer as its first 40 hex characters.',
    rule: 'Block proposer is a string of 64 hexadecimal characters (spec: Resources > Block).',
    level: 'MUST',
    scope: 'node',
    bend: { methods: mapResult('chain_getBlockByHeight', (b) => ({ ...b, proposer: text(b.proposer).slice(0, 40) })) },
  },
  {
    name: 'block-number-hex',
    category: 'methods',
    description: 'chain_blockNumber returns the height as a hex quantity ("0x1f") instead of a JSON number: a legal encoding of an integer, not the one the reference profile writes.',
    rule: 'The reference profile writes u64 integers as JSON numbers (profile: Wire names and encodings); the spec asks for an unsigned 64-bit integer and does not fix its encoding.',
    level: 'PROFILE',
    scope: 'node',
    bend: { methods: mapResult<number | bigint>('chain_blockNumber', (h) => `0x${h.toString(16)}`) },
  },
  {
    name: 'block-number-string',
    category: 'methods',
    description: 'chain_blockNumber returns the height as a decimal string ("5") instead of an integer.',
    rule: 'The current height is an unsigned 64-bit integer: a JSON integer, or a hex quantity, never a decimal string, which the spec keeps for balances (spec: Methods table, chain_blockNumber "Current block height, an unsigned 64-bit integer").',
    level: 'MUST',
    scope: 'node',
    bend: { methods: mapResult<number | bigint>('chain_blockNumber', (h) => h.toString()) },
  },
  {
    name: 'unknown-height-null',
    category: 'methods',
    description: 'chain_getBlockByHeight above the tip returns result null instead of the BlockNotFound error.',
    rule: 'A height above the current height is error -32001 BlockNotFound (profile: Unknown heights and accounts).',
    level: 'PROFILE',
    scope: 'node',
    bend: { methods: onRefusal('chain_getBlockByHeight', errorCode('BlockNotFound'), () => null) },
  },
  {
    name: 'unknown-account-error',
    category: 'methods',
    description: 'chain_getAccount for an address the chain never saw (empty account) answers error -32001 "Account not found" instead of {"balance": "0", "nonce": 0}.',
    rule: 'An address never seen is an empty account, not an error (profile: Unknown heights and accounts).',
    level: 'PROFILE',
    scope: 'node',
    bend: {
      methods: mapResult('chain_getAccount', (r, _node, params) => {
        if (r.balance !== '0' || r.nonce !== 0) return r;
        throw new RpcMethodError(-32001, 'Account not found', { reason: `no account ${text(params[0]).toLowerCase()} on this chain` });
      }),
    },
  },
  {
    name: 'health-no-mode',
    category: 'methods',
    description: 'chain_health omits mode.',
    rule: 'The health object has status and mode (spec: Resources > Health).',
    level: 'MUST',
    scope: 'node',
    bend: { methods: mapResult('chain_health', ({ mode: _mode, ...rest }) => rest) },
  },
  {
    name: 'extra-params-accepted',
    category: 'methods',
    description: 'Params beyond a method\'s declared ones are ignored instead of refused: chain_blockNumber [1] answers the height; chain_getAccount accepts a second param.',
    rule: 'Methods with no parameters take []; extra params are -32602 (spec: Transport; profile: Transport).',
    level: 'PROFILE',
    scope: 'node',
    bend: {
      // Params beyond the declared ones are not checked (nor refused).
      transport: rules((r) => ({
        checkParams: (method, params) => {
          const declared = validators().method(method)?.['x-params'].length;
          return r.checkParams(method, declared === undefined ? params : params.slice(0, declared));
        },
      })),
    },
  },
  {
    name: 'wrong-param-type-accepted',
    category: 'methods',
    description: 'chain_getBlockByHeight accepts a height given as a decimal string ("5"); chain_getAccount given a number answers -32603 Internal error instead of -32602.',
    rule: 'A param of the wrong type is -32602 (profile: Unknown heights and accounts; JSON-RPC 2.0 §5.1).',
    level: 'PROFILE',
    scope: 'node',
    bend: { transport: lenientParams(skipsParamValidation) },
  },
  {
    name: 'health-chain-id-string',
    category: 'methods',
    description: 'chain_health returns chain_id as a decimal string instead of a JSON integer.',
    rule: 'chain_health.chain_id is a u64 JSON integer (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'node',
    bend: { methods: mapResult('chain_health', (r) => ({ ...r, chain_id: text(r.chain_id) })) },
  },
  {
    name: 'tx-hash-wrong',
    category: 'methods',
    description: 'chain_sendRawTransaction admits the transaction but returns SHA-256 of the 113-byte body instead of the 177 wire bytes: a well-formed hash that never appears in a block.',
    rule: 'The result is the transaction hash, SHA-256 of the wire bytes, the hash blocks list (profile: Results the spec leaves unshown; docs/transaction-codec.md).',
    level: 'PROFILE',
    scope: 'node',
    bend: { methods: mapResult<string>('chain_sendRawTransaction', (_hash, _node, params) => bodyHash(text(params[0]))) },
  },
  {
    name: 'hash-uppercase',
    category: 'methods',
    description: 'chain_getBlockByHeight writes hash, parent_hash, proposer and transaction hashes in upper case.',
    rule: 'Hashes and identifiers are written in lower case, one spelling per value (profile: Wire names and encodings).',
    level: 'PROFILE',
    scope: 'node',
    bend: {
      methods: mapResult('chain_getBlockByHeight', (b) => {
        const up = (v: JsonValue | undefined): string => text(v).toUpperCase();
        return { ...b, hash: up(b.hash), parent_hash: up(b.parent_hash), proposer: up(b.proposer), transactions: Array.isArray(b.transactions) ? b.transactions.map(up) : [] };
      }),
    },
  },
  {
    name: 'height-lenient',
    category: 'methods',
    description: 'chain_getBlockByHeight takes any JSON number as the height: a negative one is read as 0 and a fraction is floored (-1 answers the block at 0, 1.5 the block at 1) instead of refusing them with -32602; a height given as a string is still refused.',
    rule: 'The height is an unsigned integer; a negative or fractional one is refused (spec: Methods table, chain_getBlockByHeight "height: integer"; code: JSON-RPC 2.0 §5.1).',
    level: 'SHOULD',
    scope: 'node',
    bend: {
      // Any JSON number reaches the handler: a negative one reads as 0, a fraction is floored.
      transport: lenientParams(lenientHeightParam),
      methods: wrapMethod('chain_getBlockByHeight', (next) => (params, call) => next([flooredHeight(params[0])], call)),
    },
  },
  {
    name: 'tx-param-lenient',
    category: 'methods',
    description: 'chain_sendRawTransaction answers a param that is a string but not a string of hex pairs (non-hex characters, odd length, a 0x prefix) with a made-up 64-hex hash (SHA-256 of the text) instead of refusing it; nothing is queued. Numbers and missing params are still refused.',
    rule: 'The transaction is "submitted as a hexadecimal string"; text that no reading makes hex pairs is refused (spec: Methods table, Resources > Transaction).',
    level: 'SHOULD',
    scope: 'node',
    bend: {
      // Text that is not hex pairs gets a made-up hash; nothing is queued.
      transport: lenientParams(lenientTxParam),
      methods: wrapMethod('chain_sendRawTransaction', (next) => (params, call) => (isHexPairs(text(params[0])) ? next(params, call) : madeUpTxHash(text(params[0])))),
    },
  },
  {
    name: 'faucet-address-lenient',
    category: 'methods',
    description: 'chain_faucetClaim takes any string as the address (63 characters, non-hex characters, a 0x prefix): it answers with a claim result (a made-up 64-hex transaction_hash, the configured amount) and sends nothing, instead of refusing it. Numbers and missing params are still refused.',
    rule: 'An address is a string of 64 hexadecimal characters; a malformed one is refused (spec: Methods table, chain_faucetClaim; Resources > Account).',
    level: 'SHOULD',
    scope: 'node',
    bend: {
      // A malformed address gets a made-up claim; nothing is sent.
      transport: lenientParams(lenientFaucetAddress),
      methods: wrapMethod('chain_faucetClaim', (next, node) => (params, call) => {
        const address = text(params[0]).toLowerCase();
        return isAddress(address) ? next(params, call) : phantomFaucetClaim(address, node.chain.faucetAmount ?? DEFAULT_FAUCET_AMOUNT);
      }),
    },
  },
  {
    name: 'unknown-height-latest',
    category: 'methods',
    description: 'chain_getBlockByHeight above the tip answers with the latest block instead of an error.',
    rule: 'A height that has no block is not answered with a block (sound; profile: BlockNotFound).',
    level: 'SHOULD',
    scope: 'node',
    bend: { methods: onRefusal('chain_getBlockByHeight', errorCode('BlockNotFound'), (node) => toRpcBlock(node.chain.tip()) as unknown as JsonValue) },
  },
  {
    name: 'faucet-amount-number',
    category: 'methods',
    description: 'chain_faucetClaim returns amount as a JSON number.',
    rule: 'amount is a u128 decimal string (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'node',
    bend: { methods: mapResult('chain_faucetClaim', (r) => ({ ...r, amount: Number(r.amount) })) },
  },
  {
    name: 'address-lenient',
    category: 'methods',
    description: 'chain_getAccount answers any string as an address (63 characters, a 0x prefix) with an empty account.',
    rule: 'The address is 64 hexadecimal characters (spec: Methods table); a malformed one is refused.',
    level: 'SHOULD',
    scope: 'node',
    bend: {
      // Any string reaches the handler; a malformed one reads as an empty account.
      transport: lenientParams(lenientAddress),
      methods: wrapMethod('chain_getAccount', (next) => (params, call) => (/^[0-9a-f]{64}$/.test(text(params[0]).toLowerCase()) ? next(params, call) : { balance: '0', nonce: 0 })),
    },
  },
] as const satisfies readonly Fault[];
