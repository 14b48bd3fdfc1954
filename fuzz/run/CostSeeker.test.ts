import { describe, expect, it } from 'vitest';
import { stringifyJson, type JsonValue } from '../../core/json/index.js';
import type { FuzzCase } from '../model.js';
import { CostSeeker, grow, grownTitle } from './CostSeeker.js';

const caseOf = (json: JsonValue, index = 0): FuzzCase => ({ rule: 'valid/call', family: 'valid', seed: 1, index, title: `#${index}`, risky: false, json, http: { method: 'POST', contentType: 'application/json', body: new TextEncoder().encode(stringifyJson(json)) } });

describe('--seek slow', () => {
  it('grows a request through its params: batches and arrays doubled, strings doubled, numbers ten times larger', () => {
    expect(grow([1, 2])).toEqual([1, 2, 1, 2]);
    expect(grow({ jsonrpc: '2.0', method: 'm', params: ['ab'], id: 1 })).toEqual({ jsonrpc: '2.0', method: 'm', params: ['ab', 'ab'], id: 1 });
    expect(grow('ab')).toBe('abab');
    expect(grow(10n)).toBe(100n);
  });

  it('keeps the costliest cases per request byte, grows them every other case, and reports them against the median', () => {
    const seeker = new CostSeeker(1024 * 1024);
    const cheap = caseOf({ params: [1] }, 1);
    const dear = caseOf({ params: [2, 3] }, 2);
    seeker.weigh(cheap, { status: 200, text: '{}', ms: 1 }, 'http://a/rpc');
    seeker.weigh(dear, { status: 200, text: '{}', ms: 100 }, 'http://a/rpc');
    // Unanswered within the timeout (alone): weighed as costlier than any answer, not dropped; a reset is no cost.
    seeker.weigh(caseOf({ params: [9] }, 3), { failure: { code: 'TIMEOUT', message: 'x' }, ms: 5_000 }, 'http://a/rpc');
    seeker.weigh(caseOf({ params: [8] }, 4), { failure: { code: 'ECONNRESET', message: 'x' }, ms: 3 }, 'http://a/rpc');
    expect(seeker.grown(10, cheap)).toBeUndefined(); // even: a fresh case
    // Grown from the costliest answered one: a case that timed out is past what can be timed.
    const grown = seeker.grown(11, cheap);
    expect(grown?.json).toEqual({ params: [2, 3, 2, 3] });
    expect(grown?.index).toBe(11);
    // A case grown again says how many steps, once: "(grown 3 times …)", not the words three times over.
    expect(grown?.title).toBe('#2 (grown for --seek slow)');
    expect(grownTitle(grownTitle(grown?.title ?? ''))).toBe('#2 (grown 3 times for --seek slow)');
    const costly = seeker.costly(() => 2);
    expect(costly.map((k) => k.case.title)).toEqual(['#3', '#2', '#1']);
    expect(costly[1]?.costRatio).toBe(50);
  });

  it('asks for a case to be timed alone only when its time may rank it among the costliest (one unanswered: by its no-answer re-check)', () => {
    const seeker = new CostSeeker(1024 * 1024);
    for (let i = 0; i < 10; i++) seeker.weigh(caseOf({ params: [i] }, i), { status: 200, text: '{}', ms: 10 + i }, 'http://a/rpc');
    expect(seeker.candidate(caseOf({ params: ['x'] }, 20), { status: 200, text: '{}', ms: 5 })).toBe(false);
    expect(seeker.candidate(caseOf({ params: ['y'] }, 21), { status: 200, text: '{}', ms: 500 })).toBe(true);
    expect(seeker.candidate(caseOf({ params: ['z'] }, 22), { failure: { code: 'TIMEOUT', message: 'x' }, ms: 5_000 })).toBe(false);
    // One already kept is not weighed twice.
    expect(seeker.candidate(caseOf({ params: [9] }, 9), { status: 200, text: '{}', ms: 500 })).toBe(false);
  });

  it('weighs a small body as a kilobyte: an expensive large input outranks a tiny one slowed by noise', () => {
    const seeker = new CostSeeker(1024 * 1024);
    const tiny = caseOf(1, 1);
    const large = caseOf({ params: ['ab'.repeat(32_000)] }, 2);
    seeker.weigh(tiny, { status: 200, text: '{}', ms: 15 }, 'http://a/rpc');
    seeker.weigh(large, { status: 200, text: '{}', ms: 2_500 }, 'http://a/rpc');
    expect(seeker.costly(() => 1).map((k) => k.case.title)).toEqual(['#2', '#1']);
  });
});
