/**
 * The first-run hint for a node that names its methods another way says what works: profile detect
 * finds the names only where the node lists them; otherwise it must be given the prefix.
 */
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import type { Exchange } from '../model.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { runHints } from './runHints.js';

const URL = 'http://127.0.0.1:8545';

/** One exchange: a call of `method` and the node's answer (an error code, or a result). */
function exchange(method: string, answer: { code: number } | { result: JsonValue }, id = 1): Exchange {
  const response = 'code' in answer ? { jsonrpc: '2.0', id, error: { code: answer.code, message: 'Method not found' } } : { jsonrpc: '2.0', id, result: answer.result };
  return {
    node: URL,
    request: { method: 'POST', url: `${URL}/rpc`, headers: {}, body: stringifyJson({ jsonrpc: '2.0', id, method, params: [] }) },
    response: { status: 200, headers: {}, body: stringifyJson(response), truncated: false },
    ms: 1,
    startedAt: '2026-11-23T10:00:00.000Z',
  };
}

/** Calls of the spec's chain_ methods that all get -32601, and net_peerCount answered, as on a node with its own prefix. */
const unknownNames = (): Exchange[] => [
  ...['chain_health', 'chain_blockNumber', 'chain_getAccount', 'chain_getBlockByHeight', 'chain_pouLocal', 'chain_faucetClaim'].map((m, i) => exchange(m, { code: -32601 }, i + 10)),
  exchange('net_peerCount', { result: 0 }, 99),
];

const hintsFor = (transcript: Exchange[]): string[] => runHints({ targets: [URL], profile: referenceProfile(), results: [], transcript });

describe('runHints: methods under another name', () => {
  it('a node that lists no methods: detect needs the prefix, and the hint gives the form that works', () => {
    const hints = hintsFor([...unknownNames(), exchange('rpc.discover', { code: -32601 }, 50)]);
    expect(hints).toHaveLength(1);
    const hint = hints[0] ?? '';
    expect(hint).toMatch(/^Most calls of the spec's methods under the prefix "chain_" \(6 of 6\) got -32601 Method not found, while other calls were answered/);
    expect(hint).toContain('Give --method-prefix <prefix>');
    expect(hint).toContain(`\`chainrpc profile detect --url ${URL}\` finds the names only where the node lists them (rpc.discover, rpc_methods, system.listMethods, rpc_modules), and this node answered rpc.discover with -32601`);
    expect(hint).toContain(`\`chainrpc profile detect --url ${URL} --method-prefix <prefix>\``);
  });

  it('a node that lists its methods: detect finds the names by itself', () => {
    const hint = hintsFor([...unknownNames(), exchange('rpc.discover', { result: { openrpc: '1.2.6', methods: [] } }, 50)])[0] ?? '';
    expect(hint).toContain(`the node lists its methods (rpc.discover), so \`chainrpc profile detect --url ${URL}\` finds the names and writes a draft profile.`);
    expect(hint).not.toContain('--method-prefix <prefix>`');
  });

  it('no hint when the names are right', () => {
    expect(hintsFor([exchange('chain_health', { result: {} }), exchange('chain_blockNumber', { result: 1 }, 2)])).toEqual([]);
  });
});
