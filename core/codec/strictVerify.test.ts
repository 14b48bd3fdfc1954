import { createHash, verify as nodeVerify } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromLE, IDENTITY, IDENTITY_NON_CANONICAL, identityRSignature, L, P, signatureFrom, toLE32, withSPlusL } from './craftSignature.js';
import { nobleSign, NoblePoint, nobleVerifyStrict } from './ed25519.js';
import { bytesToHex } from './hex.js';
import { KEY_OBJECT_CACHE_SIZE, keyObjectCacheSize, publicKeyObject } from './keyObjectCache.js';
import { keypairFromSeed, publicKeyOf } from './keys.js';
import { L_BYTES, P_BYTES, SMALL_ORDER_ENCODINGS, verifyStrict, verifyStrictDetailed } from './strictVerify.js';
import { bytes32, privateKeyArb } from '../../test/support/codec.js';

/** node:crypto alone (OpenSSL, cofactorless), with the same key-object handling as verifyStrict. */
function rawVerify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    return nodeVerify(null, message, publicKeyObject(publicKey), signature);
  } catch {
    return false;
  }
}

const codeOf = (pub: Uint8Array, msg: Uint8Array, sig: Uint8Array): string => {
  const result = verifyStrictDetailed(pub, msg, sig);
  return result.ok ? 'ok' : result.code;
};

const alice = keypairFromSeed('alice');
const msg = new TextEncoder().encode('strict verification test message');
const goodSig = nobleSign(msg, alice.privateKey);

/** Small messages m0, m1, ... until `accept` holds: a deterministic search, so never flaky. */
function findMessage(accept: (m: Uint8Array) => boolean): Uint8Array {
  for (let i = 0; i < 256; i++) {
    const m = new TextEncoder().encode(`m${i}`);
    if (accept(m)) return m;
  }
  throw new Error('no message found in 256 tries');
}

/** T of order 8: T = [L]Q for a curve point Q whose torsion component has order 8. */
function findOrder8Point(): InstanceType<typeof NoblePoint> {
  for (let i = 0; i < 1000; i++) {
    const y = new Uint8Array(createHash('sha256').update(`point ${i}`).digest());
    y[31] = (y[31] ?? 0) & 0x7f;
    let q;
    try {
      q = NoblePoint.fromBytes(y);
    } catch {
      continue; // not a curve point
    }
    const t = q.multiply(L - 1n, false).add(q); // [L]Q kills the prime-order part
    if (!t.multiply(4n, false).is0()) return t;
  }
  throw new Error('no order-8 point found');
}

describe('verifyStrict: constants', () => {
  it('holds L and p as little-endian bytes', () => {
    expect(fromLE(L_BYTES)).toBe(L);
    expect(fromLE(P_BYTES)).toBe(P);
  });

  it('lists exactly the 8-torsion, derived as the multiples of one order-8 point', () => {
    const t = findOrder8Point();
    const multiples = new Set<string>();
    let m = NoblePoint.ZERO;
    for (let k = 0; k < 8; k++, m = m.add(t)) multiples.add(m.toHex());
    expect(multiples.size).toBe(8);
    expect(new Set(SMALL_ORDER_ENCODINGS.map(bytesToHex))).toEqual(multiples);
  });
});

describe('verifyStrict: honest signatures', () => {
  it('accepts them, as noble strict and raw node:crypto do', () => {
    fc.assert(
      fc.property(privateKeyArb, fc.uint8Array({ maxLength: 200 }), (priv, message) => {
        const pub = publicKeyOf(priv);
        const sig = nobleSign(message, priv);
        expect(verifyStrict(pub, message, sig)).toBe(true);
        expect(rawVerify(pub, message, sig)).toBe(true);
        expect(nobleVerifyStrict(sig, message, pub)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('rejects a different message or key', () => {
    expect(codeOf(alice.publicKey, new Uint8Array([1, 2]), goodSig)).toBe('BAD_SIGNATURE');
    expect(codeOf(keypairFromSeed('bob').publicKey, msg, goodSig)).toBe('BAD_SIGNATURE');
  });

  it('never throws on arbitrary bytes, and agrees with noble strict on them', () => {
    fc.assert(
      fc.property(bytes32, fc.uint8Array({ minLength: 64, maxLength: 64 }), (pub, sig) => {
        expect(verifyStrict(pub, msg, sig)).toBe(false);
        expect(nobleVerifyStrict(sig, msg, pub)).toBe(false);
      }),
    );
  });

  it('rejects wrong lengths', () => {
    expect(codeOf(alice.publicKey.subarray(1), msg, goodSig)).toBe('KEY_LENGTH');
    expect(codeOf(alice.publicKey, msg, goodSig.subarray(1))).toBe('SIGNATURE_LENGTH');
  });
});

describe('verifyStrict: S must be canonical (S < L, RFC 8032 §5.1.7 step 1)', () => {
  it('rejects S + L, the second encoding of a valid signature', () => {
    const malleated = withSPlusL(goodSig);
    expect(fromLE(malleated.subarray(32))).toBeLessThan(2n ** 256n);
    expect(codeOf(alice.publicKey, msg, malleated)).toBe('NON_CANONICAL_S');
  });

  it('rejects S = L and S = 2^256 - 1', () => {
    expect(codeOf(alice.publicKey, msg, signatureFrom(goodSig.subarray(0, 32), L))).toBe('NON_CANONICAL_S');
    expect(codeOf(alice.publicKey, msg, signatureFrom(goodSig.subarray(0, 32), 2n ** 256n - 1n))).toBe('NON_CANONICAL_S');
  });

  it('lets S = L - 1 through the range check, then fails the equation', () => {
    expect(codeOf(alice.publicKey, msg, signatureFrom(goodSig.subarray(0, 32), L - 1n))).toBe('BAD_SIGNATURE');
  });
});

describe('verifyStrict: small-order public keys', () => {
  it.each(SMALL_ORDER_ENCODINGS.map((a) => [bytesToHex(a), a] as const))('rejects A = %s where node:crypto alone accepts', (_hex, a) => {
    // R = identity, S = 0: [S]B - [k]A = -[k]A, which is the identity when k is a multiple of A's order.
    const forged = signatureFrom(IDENTITY, 0n);
    const m = findMessage((candidate) => rawVerify(a, candidate, forged));
    expect(rawVerify(a, m, forged)).toBe(true);
    expect(codeOf(a, m, forged)).toBe('SMALL_ORDER_A');
  });
});

describe('verifyStrict: canonical point encodings (RFC 8032 §5.1.3)', () => {
  // y = p + k for k = 0..18 is y = k mod p: the only 255-bit values with a second encoding.
  const nonCanonical = Array.from({ length: 19 }, (_, k) => toLE32(P + BigInt(k))).flatMap((y) => {
    const negX = y.slice();
    negX[31] = (negX[31] ?? 0) | 0x80;
    return [y, negX];
  });
  const xZeroSignSet = [toLE32(1n | (1n << 255n)), toLE32(P - 1n + (1n << 255n))];

  it('rejects A = identity encoded as y = p + 1, which node:crypto alone accepts', () => {
    const forged = signatureFrom(IDENTITY, 0n);
    expect(rawVerify(IDENTITY_NON_CANONICAL, msg, forged)).toBe(true);
    expect(codeOf(IDENTITY_NON_CANONICAL, msg, forged)).toBe('NON_CANONICAL_A');
  });

  it('rejects every A with y >= p or with x = 0 and the sign bit set', () => {
    for (const a of [...nonCanonical, ...xZeroSignSet]) expect(codeOf(a, msg, goodSig)).toBe('NON_CANONICAL_A');
  });

  it('rejects every R with y >= p or with x = 0 and the sign bit set', () => {
    for (const r of [...nonCanonical, ...xZeroSignSet]) {
      expect(codeOf(alice.publicKey, msg, signatureFrom(r, fromLE(goodSig.subarray(32))))).toBe('NON_CANONICAL_R');
    }
  });

  it('rejects R = identity encoded as y = p + 1 even when the equation holds for it', () => {
    const sig = identityRSignature(alice.privateKey, alice.publicKey, msg, IDENTITY_NON_CANONICAL);
    expect(codeOf(alice.publicKey, msg, sig)).toBe('NON_CANONICAL_R');
  });
});

describe('verifyStrict: small-order R', () => {
  it('rejects R = identity with S = k*a, which satisfies the equation and which node:crypto alone accepts', () => {
    const sig = identityRSignature(alice.privateKey, alice.publicKey, msg);
    expect(rawVerify(alice.publicKey, msg, sig)).toBe(true);
    expect(codeOf(alice.publicKey, msg, sig)).toBe('SMALL_ORDER_R');
  });

  it('rejects every small-order R', () => {
    for (const r of SMALL_ORDER_ENCODINGS) expect(codeOf(alice.publicKey, msg, signatureFrom(r, 0n))).toBe('SMALL_ORDER_R');
  });
});

describe('key object cache', () => {
  it('stays bounded', () => {
    for (let i = 0; i <= KEY_OBJECT_CACHE_SIZE + 10; i++) {
      const pub = new Uint8Array(32);
      new DataView(pub.buffer).setUint32(0, i);
      publicKeyObject(pub);
    }
    expect(keyObjectCacheSize()).toBe(KEY_OBJECT_CACHE_SIZE);
  });
});
