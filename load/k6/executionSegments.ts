/**
 * k6 execution segments, exactly (k6 reads them as big.Rat: fractions, decimals and whole percentages): reading
 * one (`--execution-segment`), and checking that the segments of the summaries to merge cover the whole test
 * once, with no gap and no overlap.
 */
import type { K6Summary } from './K6Summary.js';
import { K6SummaryError } from './K6SummaryError.js';
import { add, cmp, ONE, parseRat, type Rat, showRat, sub, ZERO } from './Rational.js';

/** A k6 execution segment: (from, to] of the test, 0 <= from < to <= 1. */
export interface ExecutionSegment {
  from: Rat;
  to: Rat;
}

/**
 * Reads a k6 --execution-segment value as k6 does: "from:to" ("0:1/3", "1/3:2/3", "0:0.5", "50%:100%"), or a
 * single value meaning "0:value". Returns the segment, or what is wrong with the text.
 */
export function parseExecutionSegment(text: string): ExecutionSegment | string {
  const parts = text.split(':');
  if (parts.length > 2) return 'more than one ":" (write from:to, e.g. "1/3:2/3")';
  const [fromText, toText] = parts.length === 1 ? ['0', parts[0] ?? ''] : [parts[0] ?? '', parts[1] ?? ''];
  const from = parseRat(fromText.trim());
  const to = parseRat(toText.trim());
  if (from === undefined || to === undefined) return `"${from === undefined ? fromText : toText}" is not a fraction ("1/3"), a decimal ("0.5") or a whole percentage ("50%")`;
  if (cmp(to, ONE) > 0) return 'it ends beyond the whole test (1)';
  if (cmp(from, to) >= 0) return 'its start is not below its end';
  return { from, to };
}

const listed = (items: readonly string[]): string => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`);

/** Refuses whole runs mixed with others, a segment given twice, overlapping segments, and segments that leave a part of the test out. */
export function checkSegments(summaries: readonly K6Summary[], name: (i: number) => string): void {
  const whole = summaries.map((s, i) => (s.segment === null ? i : -1)).filter((i) => i >= 0);
  if (whole.length > 0 && summaries.length > 1) {
    const [a = 0, b] = whole;
    if (b !== undefined) throw new K6SummaryError(`${name(a)} and ${name(b)} are both summaries of a whole run (no --execution-segment): the same test twice; give one`);
    throw new K6SummaryError(`${name(a)} is the summary of a whole run (no --execution-segment): it cannot be merged with segments (${listed(summaries.flatMap((s, i) => (i === a ? [] : [`${s.segment ?? ''} in ${name(i)}`])))})`);
  }
  if (whole.length > 0) return;
  const segments = summaries
    .map((s, i) => ({ i, text: s.segment ?? '', seg: parseExecutionSegment(s.segment ?? '') }))
    .map(({ i, text, seg }) => {
      if (typeof seg === 'string') throw new K6SummaryError(`${name(i)}: segment "${text}" is not a k6 execution segment: ${seg}`);
      return { i, text, ...seg };
    })
    .sort((a, b) => cmp(a.from, b.from) || cmp(a.to, b.to));
  let cursor = ZERO;
  let reach: (typeof segments)[number] | undefined;
  const gaps: string[] = [];
  let covered = ZERO;
  for (const s of segments) {
    if (reach !== undefined && cmp(s.from, cursor) < 0) {
      if (cmp(s.from, reach.from) === 0 && cmp(s.to, reach.to) === 0) {
        throw new K6SummaryError(`${name(reach.i)} and ${name(s.i)} hold the same segment, ${showRat(s.from)}:${showRat(s.to)}: one part of the test twice (give each instance's summary once)`);
      }
      throw new K6SummaryError(`segments ${reach.text} (${name(reach.i)}) and ${s.text} (${name(s.i)}) overlap: a part of the test would count twice`);
    }
    if (cmp(s.from, cursor) > 0) gaps.push(`${showRat(cursor)}:${showRat(s.from)}`);
    covered = add(covered, sub(s.to, s.from));
    cursor = s.to;
    reach = s;
  }
  if (cmp(cursor, ONE) < 0) gaps.push(`${showRat(cursor)}:1`);
  if (gaps.length > 0) {
    const texts = segments.map((s) => s.text);
    throw new K6SummaryError(`${texts.length === 1 ? 'segment' : 'segments'} ${listed(texts)} ${texts.length === 1 ? 'covers' : 'cover'} ${showRat(covered)} of the test; ${listed(gaps)} ${gaps.length === 1 ? 'is' : 'are'} missing`);
  }
}
