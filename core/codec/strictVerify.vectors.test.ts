/**
 * verifyStrict against public Ed25519 vector sets, committed as test data in test/vectors/ed25519/
 * (sources, licences and what each set is for: that folder's README.md).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../paths.js';
import { verifyStrictOffThread } from './offThreadVerify.js';
import { verifyStrict, verifyStrictDetailed } from './strictVerify.js';

const vectorsDir = path.join(packageRoot, 'test', 'vectors', 'ed25519');

const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const read = (name: string): string => readFileSync(path.join(vectorsDir, name), 'utf8');

interface WycheproofFile {
  numberOfTests: number;
  testGroups: { publicKey: { pk: string }; tests: { tcId: number; msg: string; sig: string; result: 'valid' | 'invalid' | 'acceptable'; comment: string }[] }[];
}

interface Zip215Case {
  vk_bytes: string;
  sig_bytes: string;
}

describe('public vectors (test/vectors/ed25519)', () => {
  it('Wycheproof ed25519: agrees with the expected result of all 151 cases', () => {
    const file = JSON.parse(read('wycheproof_ed25519_test.json')) as WycheproofFile;
    const disagreements: string[] = [];
    let count = 0;
    for (const group of file.testGroups) {
      for (const test of group.tests) {
        count++;
        const got = verifyStrict(hex(group.publicKey.pk), hex(test.msg), hex(test.sig));
        if (got !== (test.result === 'valid')) disagreements.push(`tcId ${test.tcId} (${test.comment}): expected ${test.result}`);
      }
    }
    expect(count).toBe(file.numberOfTests);
    expect(count).toBe(151);
    expect(disagreements).toEqual([]);
  });

  it('ed25519-speccheck: rejects every case except case 3 (mixed-order A and R, valid under every equation)', () => {
    // Format: first line the case count, then msg=, pbk=, sig= lines per case.
    const lines = read('speccheck_cases.txt').trim().split('\n');
    const count = Number(lines[0]);
    expect(count).toBe(12);
    const field = (line: string | undefined, key: string): Uint8Array => {
      expect(line?.startsWith(`${key}=`)).toBe(true);
      return hex(line?.slice(key.length + 1) ?? '');
    };
    const outcomes: string[] = [];
    for (let i = 0; i < count; i++) {
      const msg = field(lines[1 + 3 * i], 'msg');
      const pub = field(lines[2 + 3 * i], 'pbk');
      const sig = field(lines[3 + 3 * i], 'sig');
      const result = verifyStrictDetailed(pub, msg, sig);
      outcomes.push(`case ${i}: ${result.ok ? 'accepted' : `rejected (${result.code})`}`);
    }
    expect(outcomes.filter((o) => o.includes('accepted'))).toEqual(['case 3: accepted']);
  });

  it('ZIP-215: rejects all 196 cases (small-order keys and R, canonical or not)', () => {
    const cases = JSON.parse(read('zip215.json')) as Zip215Case[];
    expect(cases).toHaveLength(196);
    const message = new TextEncoder().encode('Zcash');
    const accepted = cases.filter((c) => verifyStrict(hex(c.vk_bytes), message, hex(c.sig_bytes)));
    expect(accepted).toEqual([]);
  });

  it('the thread pool gives the same verdict, with the same reason, on every vector of the three sets', async () => {
    const all: { pub: Uint8Array; msg: Uint8Array; sig: Uint8Array }[] = [];
    const file = JSON.parse(read('wycheproof_ed25519_test.json')) as WycheproofFile;
    for (const group of file.testGroups) for (const test of group.tests) all.push({ pub: hex(group.publicKey.pk), msg: hex(test.msg), sig: hex(test.sig) });
    const lines = read('speccheck_cases.txt').trim().split('\n');
    const value = (line: string | undefined): Uint8Array => hex(line?.slice(line.indexOf('=') + 1) ?? '');
    for (let i = 0; i < Number(lines[0]); i++) all.push({ msg: value(lines[1 + 3 * i]), pub: value(lines[2 + 3 * i]), sig: value(lines[3 + 3 * i]) });
    const zcash = new TextEncoder().encode('Zcash');
    for (const c of JSON.parse(read('zip215.json')) as Zip215Case[]) all.push({ pub: hex(c.vk_bytes), msg: zcash, sig: hex(c.sig_bytes) });
    expect(all).toHaveLength(151 + 12 + 196);
    // All at once: the pool's slots and the queue behind them are part of what is tested.
    const offThread = await Promise.all(all.map((v) => verifyStrictOffThread(v.pub, v.msg, v.sig)));
    const onThread = all.map((v) => verifyStrictDetailed(v.pub, v.msg, v.sig));
    expect(offThread).toEqual(onThread);
    // Both verdicts occur, so the comparison above could fail either way.
    expect(onThread.filter((r) => r.ok).length).toBeGreaterThan(50);
    expect(onThread.filter((r) => !r.ok).length).toBeGreaterThan(200);
  });
});
