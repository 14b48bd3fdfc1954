import { describe, expect, it } from 'vitest';
import { decideErrorData } from './decideErrorData.js';
import type { ErrorDataShape } from './Prober.js';

const tally = (counts: Partial<Record<ErrorDataShape, number>>) => new Map(Object.entries(counts).map(([shape, count]) => [shape as ErrorDataShape, { count: count ?? 0, example: `error with ${shape}` }]));
const decided = (counts: Partial<Record<ErrorDataShape, number>>) => {
  const f = decideErrorData(tally(counts));
  return { value: f.value, confidence: f.confidence };
};

describe('decideErrorData: the shape of the error data a node keeps to', () => {
  it('states one shape when the node keeps to it (all: high; nine in ten: medium)', () => {
    expect(decided({ object: 26 })).toEqual({ value: 'object', confidence: 'high' });
    expect(decided({ string: 10 })).toEqual({ value: 'string', confidence: 'high' });
    expect(decided({ absent: 9, object: 1 })).toEqual({ value: 'absent', confidence: 'medium' });
  });

  it('says any (not compared) for a node of no one shape, or whose objects carry no reason', () => {
    expect(decided({ absent: 12, 'object-without-reason': 19 })).toEqual({ value: 'any', confidence: 'medium' });
    expect(decided({ 'object-without-reason': 5 })).toEqual({ value: 'any', confidence: 'medium' });
    expect(decided({ object: 6, string: 4 })).toEqual({ value: 'any', confidence: 'medium' });
    // Data as arrays or numbers (JSON-RPC 2.0 §5.1: any value): seen, and of no shape the profile states.
    expect(decided({ other: 11 })).toEqual({ value: 'any', confidence: 'medium' });
    expect(decided({ other: 3, object: 8 })).toEqual({ value: 'any', confidence: 'medium' });
  });

  it('falls back to the reference profile\'s when no error object was seen', () => {
    expect(decideErrorData(new Map()).value).toBe('object');
  });
});
