import { describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import type { FuzzAnswer, FuzzCase } from '../model.js';
import { compareAnswers, comparisonLevel, firstDifference } from './differential.js';

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

  it('names the first field that differs before the excerpts, which a long result cuts before it', () => {
    const p = referenceProfile();
    // A block whose difference is past the excerpts' cut: its hashes and lists come first.
    const block = (ts: number): FuzzAnswer => answer(`{"jsonrpc":"2.0","id":1,"result":{"height":10,"hash":"${'ab'.repeat(32)}","parentHash":"${'cd'.repeat(32)}","proposer":"${'ef'.repeat(20)}","transactions":[],"timestamp":${ts}}}`);
    const message = compareAnswers(c('chain_getBlockByHeight', [10]), block(1700000000), block(1700000001), p, chain)?.message ?? '';
    expect(message).toMatch(/^first difference at \/timestamp: 1700000000 vs 1700000001; the nodes answered different results: /);
    // Without it, the message would not show the values that differ at all.
    expect(message.slice(message.indexOf('; ') + 2)).not.toContain('1700000001');
    const shape = compareAnswers(c('chain_health', []), answer('{"jsonrpc":"2.0","id":1,"result":{"ok":true,"peers":3}}'), answer('{"jsonrpc":"2.0","id":1,"result":{"ok":true,"peers":"3x"}}'), p, chain)?.message;
    expect(shape).toMatch(/^first difference at \/peers: number vs string; the nodes answered results of different shapes/);
  });

  it('finds the first difference by JSON Pointer: members absent, array items, escapes, the result itself', () => {
    expect(firstDifference({ a: 1n, b: [1n, 2n] }, { a: 1n, b: [1n, 3n] }, false)).toBe('/b/1: 2 vs 3');
    expect(firstDifference({ a: 1n }, { a: 1n, z: 'x' }, false)).toBe('/z: (absent) vs "x"');
    expect(firstDifference({ 'a/b~': 1n }, { 'a/b~': 2n }, false)).toBe('/a~1b~0: 1 vs 2');
    expect(firstDifference(5n, 6n, false)).toBe('the result itself: 5 vs 6');
    expect(firstDifference({ a: [1n] }, { a: [1n] }, false)).toBeUndefined();
    // By shape: values and lengths do not differ, kinds and keys do; a map's keys are not compared.
    expect(firstDifference({ a: [1n], b: 'x' }, { a: [1n, 2n], b: 'y' }, true)).toBeUndefined();
    expect(firstDifference({ [`${'a'.repeat(40)}`]: 1n }, { [`${'b'.repeat(40)}`]: 2n }, true)).toBeUndefined();
    expect(firstDifference({ a: null }, { a: 1n }, true)).toBe('/a: null vs number');
  });
});
