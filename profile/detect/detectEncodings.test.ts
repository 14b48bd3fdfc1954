import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../core/json/index.js';
import { detectEncodings, detectIntegers } from './detectEncodings.js';
import type { Finding } from './Finding.js';
import type { Observed, Read } from './readResults.js';

const answered = (call: string, result: JsonValue): Read => ({ call, outcome: { kind: 'result', result, status: 200 } });
const refused = (call: string, code: number): Read => ({ call, outcome: { kind: 'error', code, message: 'Account not found', data: undefined, status: 200 } });

/** The plain reads of a node writing JSON numbers, with these changed. */
const observed = (changes: Partial<Observed> = {}): Observed => ({
  genesisEvidence: '',
  blockNumber: answered('chain_blockNumber []', 12),
  tipHeight: 12n,
  tip: answered('chain_getBlockByHeight [12]', { height: 12, hash: 'ab'.repeat(32), parent_hash: 'cd'.repeat(32), timestamp: 1_795_262_400_000, proposer: 'ef'.repeat(32), transaction_count: 0, transactions: [] }),
  health: answered('chain_health []', { status: 'ok', mode: 'MN', chain_id: 1 }),
  peerCount: answered('net_peerCount []', 2),
  ...changes,
});

const byKey = (findings: Finding[]): Record<string, Finding> => Object.fromEntries(findings.map((f) => [f.key, f]));
const NOW = 1_795_262_400_500;

describe('detectEncodings: peerCountResult', () => {
  it('the count itself (a number or a hex quantity), the count as a decimal string, or an object holding it', () => {
    const of = (result: JsonValue): Finding | undefined => byKey(detectEncodings(observed({ peerCount: answered('net_peerCount []', result) }), NOW)).peerCountResult;
    expect([of(2)?.value, of('0x2')?.value, of({ count: 2, max: 50 })?.value]).toEqual(['integer', 'integer', 'object']);
    const decimal = of('2');
    expect([decimal?.value, decimal?.confidence, decimal?.basis]).toEqual(['decimal', 'high', 'probed']);
    expect(decimal?.evidence).toBe('net_peerCount [] -> result "2": the count as a decimal string');
    expect([of('0')?.value, of('18446744073709551615')?.value]).toEqual(['decimal', 'decimal']);
    // Not a count in any form the profile can say: the reference, low.
    const other = of('two');
    expect([other?.value, other?.basis, other?.confidence]).toEqual(['integer', 'default', 'low']);
    expect(other?.evidence).toMatch(/neither an integer, a decimal string nor an object with a count$/);
  });

  it('a decimal count is no integer of the integers decision: methodIntegers stays empty', () => {
    const f = byKey(detectEncodings(observed({ peerCount: answered('net_peerCount []', '2') }), NOW));
    expect([f.integers?.value, f.methodIntegers?.value]).toEqual(['number', {}]);
  });
});

describe('detectIntegers: the account the faucet funded', () => {
  const fresh = refused('chain_getAccount ["00…"]', -32040);
  const funded = answered('chain_getAccount ["11…"]', { balance: '10000000000000000000', Nonce: '0x0' });

  it('a node whose fresh accounts are errors shows an account\'s integers only on the funded one: they count', () => {
    const without = byKey(detectIntegers(observed({ account: { ...fresh, address: '00' } })));
    expect([without.integers?.value, without.methodIntegers?.value]).toEqual(['number', {}]);
    const f = byKey(detectIntegers(observed({ account: { ...fresh, address: '00' } }), funded));
    expect([f.integers?.value, f.methodIntegers?.value, f.methodIntegers?.confidence]).toEqual(['number', { chain_getAccount: 'hex' }, 'high']);
    expect(f.methodIntegers?.evidence).toMatch(/^chain_getAccount writes hex quantities \(the funded account's nonce\), while the others write JSON numbers$/);
  });

  it('every integer hex: the funded account agrees, nothing to override', () => {
    const { tip: _tip, ...noTip } = observed();
    const hex: Observed = { ...noTip, blockNumber: answered('chain_blockNumber []', '0xc'), health: answered('chain_health []', { status: 'ok', mode: 'MN', chain_id: '0x1' }), peerCount: answered('net_peerCount []', '0x2') };
    const f = byKey(detectIntegers(hex, funded));
    expect([f.integers?.value, f.methodIntegers?.value]).toEqual(['hex', {}]);
    expect(f.integers?.evidence).toMatch(/4 method\(s\) read: 0 write JSON numbers, 4 hex quantities/);
  });

  it('a fresh account and the funded one written differently: chain_getAccount mixes both, said by neither key', () => {
    const f = byKey(detectIntegers(observed({ account: { ...answered('chain_getAccount ["00…"]', { balance: '0', nonce: 0 }), address: '00' } }), funded));
    expect([f.integers?.value, f.integers?.confidence, f.methodIntegers?.value, f.methodIntegers?.confidence]).toEqual(['number', 'medium', {}, 'medium']);
    expect(f.integers?.evidence).toMatch(/chain_getAccount mixes both \(account nonce number, the funded account's nonce hex\)/);
  });
});
