/**
 * Reference-profile transaction layout, version 1. All integers big-endian. The byte table in
 * docs/transaction-codec.md is this object; change one, change both (tx-vectors.json catches drift).
 */
export const TX_VERSION = 0x01;

export const TX_FIELDS = {
  version: { offset: 0, size: 1 },
  chainId: { offset: 1, size: 8 }, // u64
  sender: { offset: 9, size: 32 }, // ed25519 public key A
  to: { offset: 41, size: 32 }, // recipient address bytes
  value: { offset: 73, size: 16 }, // u128
  nonce: { offset: 89, size: 8 }, // u64
  fee: { offset: 97, size: 16 }, // u128
} as const;

export const TX_BODY_LENGTH = 113;
export const SIGNATURE_LENGTH = 64;
/** body || signature */
export const TX_WIRE_LENGTH = TX_BODY_LENGTH + SIGNATURE_LENGTH; // 177

/**
 * Signing message = TX_DOMAIN_TAG (ASCII, 14 bytes) || 0x00 || body. The tag is not transmitted;
 * it makes a transaction signature useless as a signature on any other message type signed by
 * the same key (and vice versa). The 0x00 ends the tag, so no tag is a prefix of another's message.
 */
export const TX_DOMAIN_TAG = 'chainrpc/tx/v1';
export const TX_SIGNING_PREFIX: Uint8Array = new Uint8Array([...Buffer.from(TX_DOMAIN_TAG, 'ascii'), 0x00]);
export const TX_SIGNING_MESSAGE_LENGTH = TX_SIGNING_PREFIX.length + TX_BODY_LENGTH; // 128
