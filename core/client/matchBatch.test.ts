import { describe, expect, it } from 'vitest';
import { parseJson } from '../json/index.js';
import { matchBatch } from './matchBatch.js';

const ok = (id: unknown, result: unknown): string => JSON.stringify({ jsonrpc: '2.0', id, result });

describe('matchBatch', () => {
  it('orders outcomes by the ids sent', () => {
    const match = matchBatch(parseJson(`[${ok(3, 'c')},${ok(1, 'a')},${ok(2, 'b')}]`), [1, 2, 3]);
    expect(match).toEqual({
      ok: true,
      outcomes: [
        { ok: true, result: 'a' },
        { ok: true, result: 'b' },
        { ok: true, result: 'c' },
      ],
    });
  });

  it('lists every problem at once', () => {
    const match = matchBatch(parseJson(`[${ok(1, 'a')},${ok(1, 'again')},${ok(null, 'x')},${ok('2', 'y')},{"id":4}]`), [1, 2, 4]);
    expect(match.ok).toBe(false);
    if (match.ok) return;
    expect(match.ids).toEqual({ missing: [2], duplicated: [1], unexpected: [null, '2'] });
    expect(match.problems).toEqual([
      'element 4: the "jsonrpc" member is missing',
      'no response for id 2',
      'more than one response for id 1',
      'response for id null, "2", which was not sent',
    ]);
  });

  it('treats an empty array for a non-empty batch as all missing', () => {
    const match = matchBatch(parseJson('[]'), [5, 6]);
    expect(match.ok ? [] : match.ids.missing).toEqual([5, 6]);
  });
});
