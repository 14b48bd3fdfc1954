import { describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import type { FuzzAnswer, FuzzCase } from '../model.js';
import { compareAnswers, comparisonLevel } from './differential.js';

const c = (method: string, params: unknown[]): FuzzCase => ({ rule: 'valid/call', family: 'valid', method, seed: 1, index: 0, title: '', risky: false, json: { jsonrpc: '2.0', method, params: params as never, id: 1 }, http: { method: 'POST', contentType: 'application/json', body: new Uint8Array() } });
const answer = (body: string): FuzzAnswer => ({ status: 200, text: body, ms: 1 });
const chain = { height: 100n };

describe('differential comparison', () => {
  it('compares blocks both have exactly, blocks near the head not at all, and heads by shape', () => {
    expect(comparisonLevel(c('chain_getBlockByHeight', [10]), chain)).toBe('exact');
    expect(comparisonLevel(c('chain_getBlockByHeight', [99]), chain)).toBe('none');
    expect(comparisonLevel(c('chain_getBlockByHeight', [10_000]), chain)).toBe('shape');
    expect(comparisonLevel(c('chain_blockNumber', []), chain)).toBe('shape');
    expect(comparisonLevel(c('chain_faucetClaim', ['ab']), chain)).toBe('none');
  });

  it('finds a different block, a result against an error, and different codes; not a different head', () => {
    const p = referenceProfile();
    const block = (h: string): FuzzAnswer => answer(`{"jsonrpc":"2.0","id":1,"result":{"height":10,"hash":"${h}"}}`);
    expect(compareAnswers(c('chain_getBlockByHeight', [10]), block('aa'), block('aa'), p, chain)).toBeUndefined();
    expect(compareAnswers(c('chain_getBlockByHeight', [10]), block('aa'), block('bb'), p, chain)?.oracle).toBe('disagreement');
    const err = (code: number): FuzzAnswer => answer(`{"jsonrpc":"2.0","id":1,"error":{"code":${code},"message":"x"}}`);
    expect(compareAnswers(c('chain_getAccount', ['ab']), block('aa'), err(-32602), p, chain)?.message).toMatch(/one node answered a result, the other the error InvalidParams/);
    expect(compareAnswers(c('chain_getAccount', ['ab']), err(-32001), err(-32602), p, chain)?.message).toMatch(/different errors: BlockNotFound and InvalidParams/);
    expect(compareAnswers(c('chain_blockNumber', []), answer('{"jsonrpc":"2.0","id":1,"result":5}'), answer('{"jsonrpc":"2.0","id":1,"result":6}'), p, chain)).toBeUndefined();
  });
});
