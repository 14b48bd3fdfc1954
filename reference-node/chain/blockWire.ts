/**
 * Blocks on the wire between nodes: a JSON object with u64 values as decimal strings (exact in
 * any JSON library) and transactions as their 354-hex wire form. decodeBlockWire is strict, since
 * the input comes from the network: exact key set, lower-case hex of exact lengths, canonical
 * decimals, every transaction decodable. It checks shape only; importBlock checks meaning (hash,
 * signature, execution, state root).
 */
import { decodeTransaction, isCodecError, U64_MAX } from '../../core/codec/index.js';
import type { SignedTransaction } from '../../core/codec/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { BlockRejectedError } from './BlockRejectedError.js';
import { isHex128, isHex64 } from './bytes.js';
import type { Block } from './types.js';

/** Upper bound on transactions in a wire block, whatever the sender's settings (memory bound). */
export const MAX_WIRE_BLOCK_TRANSACTIONS = 100_000;
/** Upper bound on PoU entries in a wire block. */
export const MAX_WIRE_POU_ENTRIES = 10_000;

const KEYS = ['chain_id', 'height', 'parent_hash', 'timestamp', 'proposer', 'transactions', 'state_root', 'pou', 'signature', 'hash'] as const;

export function encodeBlockWire(block: Block): JsonValue {
  const pou: Record<string, JsonValue> = {};
  for (const id of Object.keys(block.pou).sort()) pou[id] = (block.pou[id] ?? 0n).toString();
  return {
    chain_id: block.chainId.toString(),
    height: block.height.toString(),
    parent_hash: block.parentHash,
    timestamp: block.timestamp.toString(),
    proposer: block.proposer,
    transactions: block.transactions.map((tx) => tx.wire),
    state_root: block.stateRoot,
    pou,
    signature: block.signature,
    hash: block.hash,
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(reason: string): never {
  throw new BlockRejectedError(`malformed wire block: ${reason}`);
}

function u64Field(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !/^(0|[1-9][0-9]{0,19})$/.test(value)) fail(`${what} must be a canonical decimal string`);
  const n = BigInt(value);
  if (n > U64_MAX) fail(`${what} ${value} exceeds the u64 maximum`);
  return n;
}

function hex64Field(value: unknown, what: string): string {
  if (!isHex64(value)) fail(`${what} must be 64 lower-case hex characters`);
  return value;
}

/** JSON (already parsed) -> Block. Throws BlockRejectedError naming the first problem. */
export function decodeBlockWire(json: unknown): Block {
  if (!isPlainObject(json)) fail('expected a JSON object');
  for (const key of Object.keys(json)) if (!(KEYS as readonly string[]).includes(key)) fail(`unknown field ${JSON.stringify(key)}`);
  for (const key of KEYS) if (!(key in json)) fail(`missing field ${key}`);

  const rawTxs = json['transactions'];
  if (!Array.isArray(rawTxs)) fail('transactions must be an array');
  if (rawTxs.length > MAX_WIRE_BLOCK_TRANSACTIONS) fail(`more than ${MAX_WIRE_BLOCK_TRANSACTIONS} transactions`);
  const transactions: SignedTransaction[] = rawTxs.map((wire: unknown, i) => {
    if (typeof wire !== 'string' || !/^[0-9a-f]*$/.test(wire)) fail(`transactions[${i}] must be lower-case hex`);
    try {
      return decodeTransaction(wire);
    } catch (error) {
      if (isCodecError(error)) fail(`transactions[${i}]: ${error.message}`);
      throw error;
    }
  });

  const rawPou = json['pou'];
  if (!isPlainObject(rawPou)) fail('pou must be an object');
  const pouIds = Object.keys(rawPou);
  if (pouIds.length > MAX_WIRE_POU_ENTRIES) fail(`more than ${MAX_WIRE_POU_ENTRIES} pou entries`);
  const pou: Record<string, bigint> = {};
  for (const id of pouIds) pou[hex64Field(id, 'pou node id')] = u64Field(rawPou[id], `pou score of ${id}`);

  const signature = json['signature'];
  if (!isHex128(signature)) fail('signature must be 128 lower-case hex characters');

  return {
    chainId: u64Field(json['chain_id'], 'chain_id'),
    height: u64Field(json['height'], 'height'),
    parentHash: hex64Field(json['parent_hash'], 'parent_hash'),
    timestamp: u64Field(json['timestamp'], 'timestamp'),
    proposer: hex64Field(json['proposer'], 'proposer'),
    transactions,
    stateRoot: hex64Field(json['state_root'], 'state_root'),
    pou,
    signature,
    hash: hex64Field(json['hash'], 'hash'),
  };
}
