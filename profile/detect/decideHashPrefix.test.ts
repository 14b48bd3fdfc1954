import { describe, expect, it } from 'vitest';
import { decideHashPrefix } from './decideHashPrefix.js';

const H = 'ab'.repeat(32);

describe('decideHashPrefix', () => {
  it('all hashes with 0x: "0x"; none: "none"; both: "any"; no hash seen: the reference, low', () => {
    expect([decideHashPrefix([`0x${H}`, `0x${H}`, `0x${'0'.repeat(64)}`]).value, decideHashPrefix([`0x${H}`]).confidence]).toEqual(['0x', 'medium']);
    expect(decideHashPrefix([H, H, H]).value).toBe('none');
    expect(decideHashPrefix([H, `0x${H}`]).value).toBe('any');
    expect([decideHashPrefix(['', null, 3, 'xyz']).value, decideHashPrefix([]).basis]).toEqual(['none', 'default']);
  });
});
