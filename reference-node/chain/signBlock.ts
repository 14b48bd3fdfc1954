/**
 * Proposer signatures: ed25519 over the 32-byte block hash with the node key. Verification is the
 * codec's strict verifier, the same rules as for transactions, so all nodes accept exactly the
 * same block signatures. A 32-byte message can never equal a 128-byte transaction signing message.
 */
import { createMessageSigner, verifyStrictDetailed } from '../../core/codec/index.js';
import { hex32, toHex } from './bytes.js';
import type { Block } from './types.js';

/** A `sign` function for produceBlock (the OpenSSL key object is built once). */
export function createBlockSigner(privateKey: Uint8Array): (hash: Uint8Array) => Uint8Array {
  const signer = createMessageSigner(privateKey);
  return (hash) => signer.sign(hash);
}

/** 128-hex signature of a 64-hex block hash. */
export function signBlock(hash: string, privateKey: Uint8Array): string {
  return toHex(createBlockSigner(privateKey)(hex32(hash, 'block hash')));
}

export type BlockSignatureCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Does block.signature verify (strictly) for block.proposer over block.hash? Does not recompute the hash. */
export function verifyBlockSignature(block: Pick<Block, 'proposer' | 'hash' | 'signature'>): BlockSignatureCheck {
  if (!/^[0-9a-f]{128}$/.test(block.signature)) return { ok: false, reason: 'signature is not 128 lower-case hex characters' };
  const result = verifyStrictDetailed(
    hex32(block.proposer, 'proposer'),
    hex32(block.hash, 'block hash'),
    new Uint8Array(Buffer.from(block.signature, 'hex')),
  );
  return result.ok ? { ok: true } : { ok: false, reason: `proposer signature fails strict verification (${result.code}): ${result.reason}` };
}
