/** The verdict's words for sightings not counted: re-sent and not shown again, or never re-sent for want of time. */
import { describe, expect, it } from 'vitest';
import { uncountedPhrase } from './fuzzHeadline.js';

describe('uncountedPhrase', () => {
  it('says a sighting the time budget left unsent as such, not as one that did not reproduce', () => {
    expect(uncountedPhrase([{ recheck: 'out-of-time' }])).toEqual(['1 sighting not re-sent (the time budget ran out)']);
    expect(uncountedPhrase([{ recheck: 'flaky' }, { recheck: 'flaky' }, { recheck: 'out-of-time' }])).toEqual(['2 flaky sightings did not reproduce', '1 sighting not re-sent (the time budget ran out)']);
    expect(uncountedPhrase([])).toEqual([]);
  });
});
