import { describe, expect, it } from 'vitest';
import { decideIntegers } from './decideIntegers.js';
import type { IntegerSample } from './decideIntegers.js';

const number = (method: string, where = method): IntegerSample => ({ method, where, form: 'number' });
const hex = (method: string, where = method): IntegerSample => ({ method, where, form: 'hex' });
const HEAD = 'chain_blockNumber [] -> result 16';

describe('decideIntegers', () => {
  it('one encoding everywhere: no per-method override, high', () => {
    const [integers, methodIntegers] = decideIntegers([number('chain_blockNumber'), number('chain_getBlockByHeight', 'height'), number('net_peerCount')], HEAD);
    expect([integers.value, integers.confidence, methodIntegers.value, methodIntegers.confidence]).toEqual(['number', 'high', {}, 'high']);
  });

  it('net_peerCount as a hex quantity while the others write numbers: an override for it alone', () => {
    const [integers, methodIntegers] = decideIntegers([number('chain_blockNumber'), number('chain_getBlockByHeight'), number('chain_getAccount'), hex('net_peerCount', 'the peer count')], HEAD);
    expect([integers.value, integers.confidence]).toEqual(['number', 'high']);
    expect([methodIntegers.value, methodIntegers.confidence]).toEqual([{ net_peerCount: 'hex' }, 'high']);
    expect(methodIntegers.evidence).toMatch(/net_peerCount writes hex quantities \(the peer count\), while the others write JSON numbers/);
  });

  it('the encoding most methods share wins, even over chain_blockNumber', () => {
    const [integers, methodIntegers] = decideIntegers([number('chain_blockNumber'), hex('chain_getBlockByHeight'), hex('chain_getAccount'), hex('net_peerCount')], HEAD);
    expect([integers.value, methodIntegers.value]).toEqual(['hex', { chain_blockNumber: 'number' }]);
  });

  it("a tie goes to chain_blockNumber's encoding", () => {
    expect(decideIntegers([hex('chain_blockNumber'), number('net_peerCount')], HEAD).map((f) => f.value)).toEqual(['hex', { net_peerCount: 'number' }]);
    expect(decideIntegers([number('chain_blockNumber'), hex('net_peerCount')], HEAD).map((f) => f.value)).toEqual(['number', { net_peerCount: 'hex' }]);
  });

  it('a method that mixes both forms is said by neither key, and lowers the confidence', () => {
    const [integers, methodIntegers] = decideIntegers([number('chain_blockNumber'), number('chain_getBlockByHeight', 'height'), hex('chain_getBlockByHeight', 'timestamp')], HEAD);
    expect([integers.value, integers.confidence, methodIntegers.value, methodIntegers.confidence]).toEqual(['number', 'medium', {}, 'medium']);
    expect(integers.evidence).toMatch(/chain_getBlockByHeight mixes both \(height number, timestamp hex\)/);
  });

  it('without chain_blockNumber: medium; with no integer at all: the reference default, low', () => {
    expect(decideIntegers([hex('net_peerCount')], undefined).map((f) => [f.value, f.confidence])).toEqual([
      ['hex', 'medium'],
      [{}, 'high'],
    ]);
    const [integers, methodIntegers] = decideIntegers([], undefined);
    expect([integers.value, integers.basis, methodIntegers.value, methodIntegers.basis]).toEqual(['number', 'default', {}, 'default']);
  });
});
