/**
 * Binary form of a block in the store (the wire form between nodes is JSON, chain/blockWire.ts):
 *
 *   format u8 (1) || chain_id u64 || height u64 || parent_hash 32 || timestamp u64 || proposer 32 ||
 *   state_root 32 || signature 64 || hash 32 || pou_count u32 || (id 32 || score u64)* ||
 *   tx_count u32 || (wire 177)*
 *
 * Transactions are stored as their wire bytes and decoded with the codec, so a stored transaction
 * is exactly what was signed.
 */
import { decodeTransaction, TX_WIRE_LENGTH } from '../../core/codec/index.js';
import { ByteReader, concatBytes, hex32, toHex, u32be, u64be } from './bytes.js';
import type { Block } from './types.js';

const BLOCK_RECORD_FORMAT = 1;

export function encodeBlockRecord(block: Block): Uint8Array {
  const ids = Object.keys(block.pou).sort();
  const parts: Uint8Array[] = [
    new Uint8Array([BLOCK_RECORD_FORMAT]),
    u64be(block.chainId),
    u64be(block.height),
    hex32(block.parentHash),
    u64be(block.timestamp),
    hex32(block.proposer),
    hex32(block.stateRoot),
    new Uint8Array(Buffer.from(block.signature, 'hex')),
    hex32(block.hash),
    u32be(ids.length),
  ];
  for (const id of ids) parts.push(hex32(id), u64be(block.pou[id] ?? 0n));
  parts.push(u32be(block.transactions.length));
  for (const tx of block.transactions) parts.push(new Uint8Array(Buffer.from(tx.wire, 'hex')));
  return concatBytes(parts);
}

/** Throws RangeError/CodecError on a malformed record; the caller reports the store as damaged. */
export function decodeBlockRecord(bytes: Uint8Array): Block {
  const r = new ByteReader(bytes, 'block record');
  const format = r.u8();
  if (format !== BLOCK_RECORD_FORMAT) throw new RangeError(`block record format ${format} is not ${BLOCK_RECORD_FORMAT}`);
  const chainId = r.u64();
  const height = r.u64();
  const parentHash = r.hex(32);
  const timestamp = r.u64();
  const proposer = r.hex(32);
  const stateRoot = r.hex(32);
  const signature = r.hex(64);
  const hash = r.hex(32);
  const pou: Record<string, bigint> = {};
  const pouCount = r.u32();
  for (let i = 0; i < pouCount; i++) pou[r.hex(32)] = r.u64();
  const txCount = r.u32();
  const transactions = [];
  for (let i = 0; i < txCount; i++) transactions.push(decodeTransaction(toHex(r.bytesOf(TX_WIRE_LENGTH))));
  r.end();
  return { chainId, height, parentHash, timestamp, proposer, transactions, stateRoot, pou, signature, hash };
}
