/**
 * Writes core/codec/tx-vectors.json: fixed seeds -> keys, fixed transactions -> signing message,
 * wire and hash, plus wire transactions a node must reject. Run: npx tsx test/support/makeTxVectors.ts
 * (add --check to compare with the committed file instead of writing it). txVectors.test.ts
 * recomputes every entry, so a format change cannot slip through unnoticed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IDENTITY, IDENTITY_NON_CANONICAL, identityRSignature, signatureFrom, withSPlusL } from '../../core/codec/craftSignature.js';
import { nobleSign } from '../../core/codec/ed25519.js';
import { encodeTransactionBody } from '../../core/codec/encodeTransactionBody.js';
import { bytesToHex, hexToBytes } from '../../core/codec/hex.js';
import { keypairFromSeed } from '../../core/codec/keys.js';
import { TX_DOMAIN_TAG, TX_FIELDS } from '../../core/codec/layout.js';
import { signingMessageForBody } from '../../core/codec/signingMessage.js';
import { signTransaction } from '../../core/codec/signTransaction.js';
import { U128_MAX, U64_MAX } from '../../core/codec/u128.js';
import type { TransactionRequest } from '../../core/codec/types.js';

export const TX_VECTORS_FILE = fileURLToPath(new URL('../../core/codec/tx-vectors.json', import.meta.url));

interface VectorInput {
  readonly name: string;
  readonly seed: string;
  readonly tx: TransactionRequest;
}

const addr = (seed: string): string => keypairFromSeed(seed).address;

const ALICE_PAYS_BOB: TransactionRequest = { chainId: 1n, to: addr('bob'), value: 1_500_000_000_000_000_000n, nonce: 0n, fee: 10n ** 15n };

const INPUTS: readonly VectorInput[] = [
  { name: 'alice pays bob 1.5 tokens, fee 0.001', seed: 'alice', tx: ALICE_PAYS_BOB },
  { name: 'same transfer on chain 2: one body byte differs, so the signature differs entirely', seed: 'alice', tx: { ...ALICE_PAYS_BOB, chainId: 2n } },
  { name: 'bob pays alice 1 base unit, zero fee, nonce 1', seed: 'bob', tx: { chainId: 1n, to: addr('alice'), value: 1n, nonce: 1n, fee: 0n } },
  { name: 'all zero numbers', seed: 'zero', tx: { chainId: 0n, to: '00'.repeat(32), value: 0n, nonce: 0n, fee: 0n } },
  { name: 'maximum values: chain id and nonce u64 max, value + fee = u128 max', seed: 'carol', tx: { chainId: U64_MAX, to: 'ff'.repeat(32), value: U128_MAX - 10n ** 15n, nonce: U64_MAX, fee: 10n ** 15n } },
];

const decimal = (tx: TransactionRequest): Record<string, string> => ({
  chainId: tx.chainId.toString(),
  to: tx.to,
  value: tx.value.toString(),
  nonce: tx.nonce.toString(),
  fee: tx.fee.toString(),
});

export function computeVector(input: VectorInput): Record<string, unknown> {
  const keys = keypairFromSeed(input.seed);
  const signed = signTransaction(input.tx, keys.privateKey);
  const body = encodeTransactionBody(signed);
  return {
    name: input.name,
    seed: input.seed,
    privateKey: bytesToHex(keys.privateKey),
    publicKey: bytesToHex(keys.publicKey),
    address: keys.address,
    tx: decimal(input.tx),
    body: bytesToHex(body),
    signingMessage: bytesToHex(signingMessageForBody(body)),
    signature: signed.signature,
    wire: signed.wire,
    hash: signed.hash,
  };
}

/** Wire bytes a strict node must refuse, with the stage and code this codec reports. */
function rejections(): Record<string, unknown>[] {
  const alice = keypairFromSeed('alice');
  const base = signTransaction(ALICE_PAYS_BOB, alice.privateKey);
  const wire = hexToBytes(base.wire);
  const bodyOf = (w: Uint8Array): Uint8Array => w.subarray(0, 113);
  const withSig = (body: Uint8Array, sig: Uint8Array): string => bytesToHex(new Uint8Array([...body, ...sig]));
  const withSender = (sender: Uint8Array): Uint8Array => {
    const body = bodyOf(wire).slice();
    body.set(sender, TX_FIELDS.sender.offset);
    return body;
  };
  const chain2 = bodyOf(wire).slice();
  chain2[TX_FIELDS.chainId.offset + 7] = 2;
  const version2 = wire.slice();
  version2[0] = 2;
  const overflow = encodeTransactionBody({ ...base, value: U128_MAX, fee: 0n }).slice();
  overflow[TX_FIELDS.fee.offset + 15] = 1; // fee = 1: value + fee = 2^128
  const smallOrderRSig = identityRSignature(alice.privateKey, alice.publicKey, signingMessageForBody(bodyOf(wire)));
  return [
    { name: 'S + L (second encoding of the same S)', wire: withSig(bodyOf(wire), withSPlusL(wire.subarray(113))), stage: 'verify', code: 'NON_CANONICAL_S' },
    { name: 'sender is the identity point, R = identity, S = 0 (the cofactorless equation holds for any message)', wire: withSig(withSender(IDENTITY), signatureFrom(IDENTITY, 0n)), stage: 'verify', code: 'SMALL_ORDER_A' },
    { name: 'sender is the identity encoded with y = p + 1, R = identity, S = 0', wire: withSig(withSender(IDENTITY_NON_CANONICAL), signatureFrom(IDENTITY, 0n)), stage: 'verify', code: 'NON_CANONICAL_A' },
    { name: "alice's key, R = identity, S = k*a mod L (the equation holds; no honest signer makes it)", wire: withSig(bodyOf(wire), smallOrderRSig), stage: 'verify', code: 'SMALL_ORDER_R' },
    { name: 'signature for chain 1 presented with chain id 2', wire: withSig(chain2, wire.subarray(113)), stage: 'verify', code: 'BAD_SIGNATURE' },
    { name: 'version byte 2', wire: bytesToHex(version2), stage: 'decode', code: 'UNSUPPORTED_VERSION' },
    { name: '176 bytes (last signature byte missing)', wire: bytesToHex(wire.subarray(0, 176)), stage: 'decode', code: 'WRONG_LENGTH' },
    { name: 'value + fee = 2^128', wire: withSig(overflow, nobleSign(signingMessageForBody(overflow), alice.privateKey)), stage: 'decode', code: 'AMOUNT_OVERFLOW' },
  ];
}

export function computeTxVectors(): Record<string, unknown> {
  return {
    description:
      'Reference-profile transaction codec vectors (docs/transaction-codec.md). Generated by `npx tsx test/support/makeTxVectors.ts`; do not edit by hand. Numbers are decimal strings, bytes lower-case hex.',
    keyDerivation: 'privateKey = SHA-256("chainrpc/key/v1" || 0x00 || UTF-8(seed)); publicKey = Ed25519 A (RFC 8032 5.1.5); address = hex(publicKey)',
    domainTag: TX_DOMAIN_TAG,
    signingMessage: 'ASCII(domainTag) || 0x00 || body',
    wire: 'body (113 bytes) || signature (64 bytes)',
    hash: 'SHA-256(wire bytes)',
    vectors: INPUTS.map(computeVector),
    rejections: rejections(),
  };
}

export function renderTxVectors(): string {
  return `${JSON.stringify(computeTxVectors(), null, 2)}\n`;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = renderTxVectors();
  if (process.argv.includes('--check')) {
    const same = readFileSync(TX_VECTORS_FILE, 'utf8') === text;
    console.log(same ? 'tx-vectors.json is up to date' : 'tx-vectors.json differs from what the codec computes');
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(TX_VECTORS_FILE, text);
    console.log(`wrote ${TX_VECTORS_FILE}`);
  }
}
