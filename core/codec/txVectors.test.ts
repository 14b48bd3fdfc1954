/**
 * tx-vectors.json is the codec's contract with other implementations: recompute every entry
 * from its inputs through the public API and compare exactly. If this fails after an intended
 * format change, regenerate with `npx tsx test/support/makeTxVectors.ts` and say so in the review.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nobleVerifyStrict } from './ed25519.js';
import {
  bytesToHex,
  decodeTransaction,
  encodeTransactionBody,
  hexToBytes,
  parseU128,
  privateKeyFromSeed,
  publicKeyOf,
  signingMessage,
  signTransaction,
  transactionHash,
  verifyTransaction,
} from './index.js';
import { renderTxVectors, TX_VECTORS_FILE } from '../../test/support/makeTxVectors.js';
import { codeOf } from '../../test/support/codec.js';

interface Vector {
  name: string;
  seed: string;
  privateKey: string;
  publicKey: string;
  address: string;
  tx: { chainId: string; to: string; value: string; nonce: string; fee: string };
  body: string;
  signingMessage: string;
  signature: string;
  wire: string;
  hash: string;
}

interface Rejection {
  name: string;
  wire: string;
  stage: 'decode' | 'verify';
  code: string;
}

const text = readFileSync(TX_VECTORS_FILE, 'utf8');
const file = JSON.parse(text) as { vectors: Vector[]; rejections: Rejection[] };

describe('tx-vectors.json', () => {
  it('is exactly what makeTxVectors.ts generates', () => {
    expect(text).toBe(renderTxVectors());
  });

  it.each(file.vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const privateKey = privateKeyFromSeed(v.seed);
    expect(bytesToHex(privateKey)).toBe(v.privateKey);
    const publicKey = publicKeyOf(privateKey);
    expect(bytesToHex(publicKey)).toBe(v.publicKey);
    expect(v.address).toBe(v.publicKey);

    const request = {
      chainId: parseU128(v.tx.chainId),
      to: v.tx.to,
      value: parseU128(v.tx.value),
      nonce: parseU128(v.tx.nonce),
      fee: parseU128(v.tx.fee),
    };
    const unsigned = { ...request, sender: v.address };
    expect(bytesToHex(encodeTransactionBody(unsigned))).toBe(v.body);
    expect(bytesToHex(signingMessage(unsigned))).toBe(v.signingMessage);

    const signed = signTransaction(request, privateKey);
    expect(signed.signature).toBe(v.signature);
    expect(signed.wire).toBe(v.wire);
    expect(signed.wire).toBe(v.body + v.signature);
    expect(signed.hash).toBe(v.hash);
    expect(transactionHash(v.wire)).toBe(v.hash);

    expect(decodeTransaction(v.wire)).toEqual({ ...unsigned, signature: v.signature, hash: v.hash, wire: v.wire });
    expect(verifyTransaction(decodeTransaction(v.wire))).toEqual({ ok: true });
    // A second, independent verifier agrees (noble, strict mode).
    expect(nobleVerifyStrict(hexToBytes(v.signature), hexToBytes(v.signingMessage), publicKey)).toBe(true);
  });

  it.each(file.rejections.map((r) => [r.name, r] as const))('rejects: %s', (_name, r) => {
    if (r.stage === 'decode') {
      expect(codeOf(() => decodeTransaction(r.wire))).toBe(r.code);
    } else {
      const result = verifyTransaction(decodeTransaction(r.wire));
      expect(result.ok ? 'ok' : result.code).toBe(r.code);
    }
  });
});
