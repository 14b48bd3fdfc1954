/**
 * Block hash = SHA-256 of the canonical header encoding (docs/chain.md, "Block hash"):
 *
 *   "chainrpc/block/v1" || 0x00 || chain_id u64 || height u64 || parent_hash 32 || timestamp u64 ||
 *   proposer 32 || tx_count u32 || tx_root 32 || state_root 32 || pou_root 32
 *
 * All integers big-endian. The domain tag keeps a block hash from ever equalling another hash use.
 */
import { ascii, concatBytes, hex32, sha256, toHex, u32be, u64be } from './bytes.js';
import type { BlockHeader } from './types.js';

export const BLOCK_DOMAIN_TAG = 'chainrpc/block/v1';
const BLOCK_PREFIX = concatBytes([ascii(BLOCK_DOMAIN_TAG), new Uint8Array([0])]);

/** SHA-256 of the concatenated 32-byte transaction hashes, in execution order (SHA-256("") when empty). */
export function txRoot(txHashes: readonly string[]): Uint8Array {
  return sha256(...txHashes.map((hash) => hex32(hash, 'transaction hash')));
}

/** SHA-256 of: count u32, then for each entry sorted by id: id 32 bytes || score u64. */
export function pouRoot(pou: Readonly<Record<string, bigint>>): Uint8Array {
  const ids = Object.keys(pou).sort();
  const parts: Uint8Array[] = [u32be(ids.length, 'pou entry count')];
  for (const id of ids) parts.push(hex32(id, 'pou node id'), u64be(pou[id] ?? 0n, `pou score of ${id}`));
  return sha256(...parts);
}

export type HashedHeader = Omit<BlockHeader, 'transactions'> & { readonly transactions: readonly { readonly hash: string }[] };

/** The exact bytes the block hash is taken over. */
export function encodeBlockHeader(header: HashedHeader): Uint8Array {
  return concatBytes([
    BLOCK_PREFIX,
    u64be(header.chainId, 'chain id'),
    u64be(header.height, 'height'),
    hex32(header.parentHash, 'parent hash'),
    u64be(header.timestamp, 'timestamp'),
    hex32(header.proposer, 'proposer'),
    u32be(header.transactions.length, 'transaction count'),
    txRoot(header.transactions.map((tx) => tx.hash)),
    hex32(header.stateRoot, 'state root'),
    pouRoot(header.pou),
  ]);
}

export function blockHashBytes(header: HashedHeader): Uint8Array {
  return sha256(encodeBlockHeader(header));
}

/** 64 lower-case hex. */
export function blockHash(header: HashedHeader): string {
  return toHex(blockHashBytes(header));
}
