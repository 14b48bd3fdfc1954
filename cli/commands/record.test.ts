import { describe, expect, it } from 'vitest';
import { recordStatusLine } from './record.js';

describe('chainrpc record: the progress line', () => {
  it('says how long, how many exchanges and how fast lately, and the capture size', () => {
    expect(recordStatusLine(12_000, 1_234, 102.6, 2_202_009, 1_234, false)).toBe('record: 12.0 s, 1,234 exchange(s) (103/s), capture 2.1 MiB');
    expect(recordStatusLine(500, 3, 6, 900, 3, false)).toBe('record: 500 ms, 3 exchange(s) (6/s), capture 0.9 KiB');
  });

  it('says when the size bound stopped the recording, and how much still passed on', () => {
    expect(recordStatusLine(60_000, 4_000, 0, 1_073_741_000, 9_000, true)).toMatch(/recording stopped at --max-size, 9,000 passed on$/);
  });
});
