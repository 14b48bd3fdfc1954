/**
 * Strict verification (strictVerify.ts) with the group equation on libuv's thread pool: node:crypto's `verify`
 * given a callback runs OpenSSL off the event loop, so a node verifies signatures on every core while its
 * event loop goes on serving requests. The byte-level rules run first, here, exactly as on the caller's
 * thread, and the verdicts are the same (strictVerify.vectors.test.ts runs every vector both ways).
 *
 * At most `VERIFY_SLOTS` verifications are in the pool at once; the rest wait here, first come first served.
 * The pool is also where the store's reads and writes run (classic-level), so a burst of a thousand signatures
 * never puts a block's commit behind a thousand verifications.
 */
import { verify as nodeVerify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { publicKeyObject } from './keyObjectCache.js';
import { equationResult, strictPrecheck } from './strictVerify.js';
import type { StrictVerifyResult } from './strictVerify.js';

/** The pool's size (libuv's UV_THREADPOOL_SIZE, 4 unless set): one verification per thread at most. */
export const VERIFY_SLOTS = poolSize(process.env.UV_THREADPOOL_SIZE);

function poolSize(setting: string | undefined): number {
  const n = Number(setting);
  // libuv's own bounds: 1 to 1024 threads; anything else (unset, not a number) is its default of 4.
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 1024) : 4;
}

let running = 0;
const waiting: (() => void)[] = [];

/** Strict verification with the reason for a rejection, its group equation on the thread pool. Never rejects. */
export function verifyStrictOffThread(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<StrictVerifyResult> {
  const refused = strictPrecheck(publicKey, signature);
  if (refused !== undefined) return Promise.resolve(refused);
  let key: KeyObject;
  try {
    key = publicKeyObject(publicKey);
  } catch {
    // OpenSSL refusing the key bytes (not a curve point) is a failed verification, as on the caller's thread.
    return Promise.resolve(equationResult(false));
  }
  return new Promise((resolve) => {
    const start = (): void => {
      running++;
      try {
        nodeVerify(null, message, key, signature, (error, holds) => {
          finished();
          resolve(equationResult(error === null && holds));
        });
      } catch {
        finished();
        resolve(equationResult(false));
      }
    };
    if (running < VERIFY_SLOTS) start();
    else waiting.push(start);
  });
}

function finished(): void {
  running--;
  waiting.shift()?.();
}

/** Verifications in the pool and waiting for it (tests). */
export function offThreadBacklog(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}
