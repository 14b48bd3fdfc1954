import { describe, expect, it } from 'vitest';
import { renderJsonReport } from './jsonReport.js';

describe('renderJsonReport', () => {
  it('writes the report as JSON.stringify(report, null, 2) does, with a final newline, format first', () => {
    const report = { format: 'chainrpc-load/2', tool: { name: 'chainrpc', version: '0.1.0' }, scenarios: [{ name: 'reads', p99Ms: 12.5 }] } as const;
    const text = renderJsonReport(report);
    expect(text).toBe(`${JSON.stringify(report, null, 2)}\n`);
    expect(Object.keys(JSON.parse(text) as object)[0]).toBe('format');
  });

  it('keeps bigints exact', () => {
    expect(renderJsonReport({ format: 'chainrpc-x/1', count: 2n ** 64n } as { format: 'chainrpc-x/1' })).toContain('"count": 18446744073709551616');
  });
});
