import { describe, expect, it } from 'vitest';
import type { CheckResult, Exchange } from '../model.js';
import { curlFor } from './curlFor.js';
import { reproduceFor } from './reproduce.js';

const exchange = (truncated: boolean): Exchange => ({
  node: 'http://a:1',
  request: { method: 'POST', url: 'http://a:1/rpc', headers: { 'content-type': 'application/json' }, body: '[]', ...(truncated ? { truncated } : {}) },
  ms: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
});
const result = (status: CheckResult['status'], node = 'http://a:1'): CheckResult => ({
  id: 'transport/empty-batch', level: 'MUST', category: 'transport', title: 't', spec: '', scope: node === 'network' ? 'network' : 'node', node, status, durationMs: 1,
  evidence: { message: 'm', exchanges: [] },
});
const rerun = { targets: ['http://a:1', 'http://b:2'], args: ['--level', 'profile'] };

describe('reproduceFor', () => {
  it('repeats the exchange that showed a failure with curl', () => {
    expect(reproduceFor(result('fail'), exchange(false), rerun)).toBe(curlFor(exchange(false)));
  });

  it('runs the check again where the request was kept only in part, on every target for a network check', () => {
    expect(reproduceFor(result('fail'), exchange(true), rerun)).toBe('chainrpc test --url http://a:1 --only transport/empty-batch --level profile');
    expect(reproduceFor(result('fail', 'network'), exchange(true), rerun)).toBe('chainrpc test --url http://a:1 --url http://b:2 --only transport/empty-batch --level profile');
  });

  it('has nothing to reproduce for a result that did not fail, or showed no exchange', () => {
    for (const status of ['pass', 'error', 'skip'] as const) expect(reproduceFor(result(status), exchange(false), rerun)).toBeUndefined();
    expect(reproduceFor(result('fail'), undefined, rerun)).toBeUndefined();
  });
});
