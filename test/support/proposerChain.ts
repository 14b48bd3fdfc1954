// Test helper: a node serving a chain of blocks 0..tip, block h proposed by `proposerAt(h)`, its heights as hex quantities.
import { startTestServer, type TestServer } from './startTestServer.js';

/** A node answering chain_blockNumber with `tip` and chain_getBlockByHeight with block h (hash, proposer, timestamp 1 s apart). */
export function startProposerChain(tip: number, proposerAt: (h: number) => string): Promise<TestServer> {
  return startTestServer((req, res) => {
    const call = JSON.parse(req.body.toString()) as { id: number; method: string; params: number[] };
    const h = call.params[0] ?? 0;
    const result = call.method === 'chain_blockNumber' ? `0x${tip.toString(16)}` : { height: h, hash: `0x${h.toString(16).padStart(64, '0')}`, proposer: proposerAt(h), timestamp: 1_000 * h };
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result }));
  });
}
