import { describe, expect, it } from 'vitest';
import { parseJson } from '../../core/json/index.js';
import type { Exchange } from '../../suites/model.js';
import { fixtureRun, fixtureTranscript } from '../../test/support/fixtureRun.js';
import { renderTranscript } from './renderTranscript.js';

describe('renderTranscript', () => {
  const exchanges = fixtureTranscript(fixtureRun());
  const text = renderTranscript(exchanges);
  const lines = text.split('\n');

  it('writes one exchange per line, each a complete JSON value, ending with a newline', () => {
    expect(text.endsWith('\n')).toBe(true);
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(exchanges.length);
    // Bodies with newlines, CR, NUL and hostile markup stay inside their line.
    const parsed = lines.map((line) => JSON.parse(line) as Exchange);
    expect([...parsed].sort((a, b) => a.startedAt.localeCompare(b.startedAt))).toEqual(
      [...exchanges].sort((a, b) => a.startedAt.localeCompare(b.startedAt)),
    );
  });

  it('orders the exchanges by start time', () => {
    const times = lines.map((line) => Date.parse((JSON.parse(line) as Exchange).startedAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // The fixture lists network exchanges (which started first) late.
    expect(exchanges[0]?.startedAt).not.toBe((JSON.parse(lines[0]!) as Exchange).startedAt);
  });

  it('keeps the given order for equal times; an unreadable time goes right after the exchange given before it', () => {
    const base = exchanges[0]!;
    const at = (startedAt: string, node: string): Exchange => ({ ...base, node, startedAt });
    const out = renderTranscript([at('2025-01-01T00:00:02Z', 'a'), at('2025-01-01T00:00:01Z', 'b'), at('not a time', 'c'), at('2025-01-01T00:00:01Z', 'd')]);
    expect(out.trimEnd().split('\n').map((l) => (JSON.parse(l) as Exchange).node)).toEqual(['b', 'c', 'd', 'a']);
  });

  it('is empty for no exchanges, and writes bigints exactly', () => {
    expect(renderTranscript([])).toBe('');
    const withBig = { ...exchanges[0]!, ms: 2n ** 64n as unknown as number };
    expect(parseJson(renderTranscript([withBig]).trimEnd())).toMatchObject({ ms: 18446744073709551616n });
  });
});
