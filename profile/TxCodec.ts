/** A transfer as the suite builds it: the spec's transaction fields plus the network's chain id. */
export interface Transfer {
  chainId: bigint;
  to: string;
  value: bigint;
  nonce: bigint;
  fee: bigint;
}

export interface EncodedTransaction {
  /** The chain_sendRawTransaction parameter. */
  wire: string;
  /** The transaction hash as the node should report it, when the codec can compute it. */
  hash?: string;
}

/**
 * How the suite builds transactions for a network. The spec leaves the wire encoding and the
 * signature scheme unshown, so a profile names a codec module for networks whose format differs from
 * the reference profile's. The negative variants are optional: checks that need one skip without it.
 */
export interface TxCodec {
  name: string;
  /** A fresh private key (opaque bytes for the codec) and its account address (64 hex). */
  newKey(): { privateKey: Uint8Array; address: string };
  addressOf(privateKey: Uint8Array): string;
  sign(privateKey: Uint8Array, tx: Transfer): EncodedTransaction;
  /**
   * The chain id a signed transaction (wire hex) was signed for; undefined when the hex is no transaction of this
   * format. Optional: a replay leaves out the transactions whose chain it cannot tell (docs/replay.md).
   */
  chainIdOf?(wire: string): bigint | undefined;
  /** Variants a strict node must refuse; each returns wire hex. */
  crafted?: {
    /** A valid transaction with one signature byte changed. */
    badSignature(privateKey: Uint8Array, tx: Transfer): string;
    /** Signature with S + L (non-canonical S), otherwise valid. */
    nonCanonicalS(privateKey: Uint8Array, tx: Transfer): string;
    /** R is a small-order point (the identity) and the cofactorless equation holds: only a strict verifier refuses it. */
    smallOrderR(privateKey: Uint8Array, tx: Transfer): string;
    /**
     * A sender whose public key is a small-order point (the identity), and transactions from it whose signature is
     * R = B, S = 1 (a canonical S, an R of full order): the equation holds for any message, so a verifier that checks
     * S and R but not the key takes them. `address` is the sender's account (the check funds it first). Optional: without it, that part of
     * the check is not probed, and says so.
     */
    smallOrderKey?: { address: string; sign(tx: Transfer): string };
    /** A well-signed transaction whose value + fee exceeds 2^128-1: value 2^128-1 and the transfer's own fee (at least 1), so a node with a minimum fee cannot refuse it for its fee. */
    overflow(privateKey: Uint8Array, tx: Transfer): string;
    /** The bytes of a valid transaction minus the last byte. */
    wrongLength(privateKey: Uint8Array, tx: Transfer): string;
  };
}
