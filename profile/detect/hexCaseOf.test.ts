import { describe, expect, it } from 'vitest';
import { decideHexCase } from './decideHexCase.js';
import { hexCaseOf, hexStrings } from './hexCaseOf.js';

const LOWER = 'ab'.repeat(32);
const UPPER = 'AB'.repeat(32);
const MIXED = `Ab${'ab'.repeat(31)}`;
const DIGITS = '0'.repeat(64);

describe('hexStrings', () => {
  it('collects 64-hex values and keys (peer identifiers), with or without 0x, and nothing else', () => {
    expect(hexStrings({ a: LOWER, b: [`0x${UPPER}`, 'short', 5], peers: { [MIXED]: 1 } })).toEqual([LOWER, UPPER, MIXED]);
  });
});

describe('hexCaseOf', () => {
  it('lower, upper, any; digits-only values say nothing', () => {
    expect(hexCaseOf([LOWER, DIGITS]).hexCase).toBe('lower');
    expect(hexCaseOf([UPPER, UPPER]).hexCase).toBe('upper');
    expect(hexCaseOf([LOWER, UPPER]).hexCase).toBe('any');
    expect(hexCaseOf([MIXED]).hexCase).toBe('any');
    expect(hexCaseOf([DIGITS]).hexCase).toBeUndefined();
    expect(hexCaseOf([]).hexCase).toBeUndefined();
  });

  it('leaves out the addresses the detection sent itself', () => {
    expect(decideHexCase([{ address: UPPER, hash: LOWER }], [UPPER.toLowerCase()]).value).toBe('lower');
    const none = decideHexCase([{ hash: DIGITS }], []);
    expect([none.value, none.confidence]).toEqual(['lower', 'low']);
  });
});
