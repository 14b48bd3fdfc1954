import { describe, expect, it } from 'vitest';
import { formatChange, formatCount, formatMetricValue, formatMicros, formatMs, formatPercent, formatRate } from './formatLoad.js';
import { formatTick } from '../shared/svgChart.js';

describe('formatLoad', () => {
  it.each([
    [0, '0 ms'],
    [412, '0.412 ms'],
    [4123, '4.12 ms'],
    [41_234, '41.2 ms'],
    [412_345, '412 ms'],
    [4_123_456, '4,123 ms'],
    [Number.NaN, '? ms'],
  ])('%s µs reads "%s"', (us, text) => {
    expect(formatMicros(us)).toBe(text);
  });

  it('writes counts, rates and milliseconds with thousands separators, whatever the machine\'s locale', () => {
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatRate(1998.6)).toBe('1,999');
    expect(formatRate(12.34)).toBe('12.3');
    expect(formatRate(40)).toBe('40');
    expect(formatMs(5723)).toBe('5,723 ms');
  });

  it.each([
    [0, '0%'],
    [0.000_05, '< 0.01%'],
    [0.000_528, '0.053%'],
    [0.000_6, '0.060%'],
    [0.004_5, '0.450%'],
    [0.0123, '1.23%'],
    [0.977, '97.7%'],
    [1, '100.0%'],
  ])('ratio %s reads "%s"', (ratio, text) => {
    expect(formatPercent(ratio)).toBe(text);
  });

  it('writes axis ticks short, with a real minus', () => {
    expect([0, 2.5, 1500, 0.25, 80, -10].map(formatTick)).toEqual(['0', '2.5', '1,500', '0.25', '80', '−10']);
  });

  it('signs changes with a real minus', () => {
    expect(formatChange(0.352)).toBe('+35.2%');
    expect(formatChange(-0.03)).toBe('−3.0%');
    expect(formatChange(0)).toBe('±0.0%');
  });

  it.each([
    ['ms', 50, '50.0 ms'],
    ['ms', 9.8, '9.80 ms'],
    ['ms', 5000, '5,000 ms'],
    ['%', 1, '1.00%'],
    ['%', 99, '99.0%'],
    ['/s', 2000, '2,000/s'],
    ['count', 12, '12'],
    // rss-growth's unit is written MB/h in a threshold; the figure is MiB per hour, and says so.
    ['MB/h', 19.8, '+19.8 MiB/h'],
  ] as const)('%s %s reads "%s"', (unit, value, text) => {
    expect(formatMetricValue(unit, value)).toBe(text);
  });

  it('says so when a threshold had nothing to measure', () => {
    expect(formatMetricValue('ms', null)).toBe('nothing measured');
  });
});
