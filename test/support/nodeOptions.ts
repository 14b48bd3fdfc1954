import type { NodeOptions } from '../../reference-node/node/ReferenceNode.js';
import { NODE_DEFAULTS } from '../../reference-node/node/nodeDefaults.js';

/**
 * Options for an in-process reference node in tests: a lone MN on a free loopback port with a short
 * block time, a faucet of 10 tokens a claim, default limits and a silent log. Tests override what
 * they are about (faults, limits, peers, kind).
 */
export function testNodeOptions(dataDir: string, overrides: Partial<NodeOptions> = {}): NodeOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    p2pHost: '127.0.0.1',
    p2pPort: 0,
    kind: 'MN',
    dataDir,
    blockTimeMs: 100,
    peers: [],
    chainId: 1n,
    faucet: { amount: 10n ** 19n, limit: 1 },
    maxBodyBytes: NODE_DEFAULTS.maxBodyBytes,
    maxBatch: NODE_DEFAULTS.maxBatch,
    requestTimeoutMs: NODE_DEFAULTS.requestTimeoutMs,
    chain: {},
    log: () => undefined,
    ...overrides,
  };
}
