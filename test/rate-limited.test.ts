/**
 * A node with a rate limit: a legal choice (the spec: "Limits on ... rate ...: not shown"), which an outside
 * tester's node made with HTTP 429, Retry-After and a JSON-RPC error echoing the id. The suite used to judge
 * those refusals as the node's answers (MUST failures: "error code -32005, not -32600"). Now a refused request
 * is sent again after the wait the node asks for; a check whose request is still refused ends in error, never
 * in a failure; and a node that refuses for the rate is alive.
 */
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../core/json/index.js';
import type { JsonValue } from '../core/json/index.js';
import { nodeChecks, useUpstream, wrong } from './support/legalVariations.js';
import { runChecks, startProxy, testProfile } from './support/suites.js';
import type { ProxiedRequest, ProxiedResponse } from './support/suites.js';

const upstream = useUpstream();

/** The id of a single request body, for the refusal to echo (null when there is none to read). */
function idOf(body: string): JsonValue {
  try {
    const value = parseJson(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && value.id !== undefined ? value.id : null;
  } catch {
    return null;
  }
}

function refusal(req: ProxiedRequest, retryAfter: string): ProxiedResponse {
  return {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
    body: stringifyJson({ jsonrpc: '2.0', id: idOf(req.body), error: { code: -32005, message: 'rate limit exceeded' } }),
  };
}

describe('a node that refuses requests over its rate with HTTP 429', () => {
  /** A proxy in front of the upstream node that serves RATE requests a second (bursts of BURST) and refuses the rest. */
  async function limitedNode(): Promise<{ url: string; refused: () => number; close: () => Promise<void> }> {
    const RATE = 60;
    const BURST = 10;
    let tokens = BURST;
    let last = performance.now();
    let refused = 0;
    const proxy = await startProxy(
      upstream().url,
      (res) => res,
      (req) => {
        const now = performance.now();
        tokens = Math.min(BURST, tokens + ((now - last) / 1000) * RATE);
        last = now;
        if (tokens >= 1) {
          tokens -= 1;
          return undefined;
        }
        refused++;
        return refusal(req, '1');
      },
    );
    return { url: proxy.url, refused: () => refused, close: () => proxy.close() };
  }

  it('fails no check: refusals are asked again after Retry-After, never judged (a check that runs out of time has no verdict)', async () => {
    const node = await limitedNode();
    try {
      // The suite starts 16 checks at once: it meets the limit.
      const results = await runChecks(nodeChecks, [node.url], { profile: testProfile() });
      expect(node.refused(), 'the suite met the limit (else this proves nothing)').toBeGreaterThan(0);
      // No failure. Errors are allowed: a check whose requests keep meeting the limit may run out of time (its own
      // timeout, or an exchange's), which is no verdict.
      expect(wrong(results).filter((line) => !/: error: /.test(line))).toEqual([]);
      expect(results.filter((r) => r.status === 'pass').length).toBeGreaterThan(results.length / 2);
    } finally {
      await node.close();
    }
  }, 120_000);

  it('passes every check at a pace the node takes (--max-rate)', async () => {
    const node = await limitedNode();
    try {
      const results = await runChecks(nodeChecks, [node.url], { profile: testProfile(), maxRatePerNode: 50 });
      expect(wrong(results)).toEqual([]);
    } finally {
      await node.close();
    }
  }, 120_000);

  it('a check whose request is refused every time ends in error, naming the rate, and never fails', async () => {
    // Every call of chain_pouLocal is refused, at once (Retry-After: 0); everything else is served.
    const proxy = await startProxy(
      upstream().url,
      (res) => res,
      (req) => (req.body.includes('"chain_pouLocal"') ? refusal(req, '0') : undefined),
    );
    try {
      const checks = nodeChecks.filter((c) => c.id.startsWith('chain_pouLocal/'));
      expect(checks.length).toBeGreaterThan(0);
      const results = await runChecks(checks, [proxy.url], { profile: testProfile() });
      expect(results.filter((r) => r.status === 'fail')).toEqual([]);
      const errors = results.filter((r) => r.status === 'error');
      expect(errors.length).toBeGreaterThan(0);
      for (const r of errors) expect(r.evidence.message).toMatch(/HTTP 429 Too Many Requests.*--max-rate/);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
