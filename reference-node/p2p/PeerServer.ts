import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { decodeBlockWire, encodeBlockWire, isChainError } from '../chain/index.js';
import type { Chain } from '../chain/index.js';
import { encodeHello, parseHello } from './hello.js';
import type { Hello } from './hello.js';
import type { PeerSet } from './PeerSet.js';
import { readJsonBody } from './readJsonBody.js';

/** Peer messages may carry a batch of full blocks. */
const P2P_MAX_BODY_BYTES = 64 * 1024 * 1024;
/** Most blocks one sync answer carries. */
export const SYNC_BATCH = 200;

/** What the peer endpoints use of their node. */
export interface PeerHost {
  readonly chain: Chain;
  readonly peers: PeerSet;
  /** This node's hello. */
  hello(): Hello;
  /** Takes a peer's hello; false when the peer is on another chain. */
  acceptHello(hello: Hello): boolean;
  /** Starts catching up from a peer that is ahead (no-op while a sync runs). */
  syncFrom(url: string): void;
  /** A peer's block conflicts with ours. */
  reportFork(url: string): void;
  leader(): string | null;
  readonly id: string;
  /** Runs a faucet claim on this node (the leader); throws ChainError when refused. */
  claimFaucetHere(address: string): Promise<{ transaction_hash: string; amount: string }>;
}

/**
 * The inbound side of the peer protocol: plain HTTP under /p2p/ on the node's port (PeerLink is the
 * outbound side). hello (identity, kind, score, height, known peers), txs (relayed transactions),
 * block (a new block), blocks (sync) and faucet (a claim run by the leader). Blocks are signed by
 * their proposer and re-executed by every node; the endpoints themselves are unauthenticated, for
 * devnets on trusted networks. Returns false for any other path (the RPC server answers 404).
 */
export async function servePeer(host: PeerHost, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://node');
  if (!url.pathname.startsWith('/p2p/')) return false;
  const send = (status: number, body: JsonValue): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(stringifyJson(body));
  };
  try {
    if (req.method === 'GET' && url.pathname === '/p2p/blocks') {
      const from = BigInt(/^\d{1,20}$/.test(url.searchParams.get('from') ?? '') ? (url.searchParams.get('from') as string) : '0');
      const max = Math.min(SYNC_BATCH, Math.max(1, Number(url.searchParams.get('max') ?? SYNC_BATCH) || SYNC_BATCH));
      send(200, { blocks: host.chain.blocksFrom(from, max).map(encodeBlockWire) });
      return true;
    }
    if (req.method !== 'POST') {
      send(405, { error: 'use POST' });
      return true;
    }
    const body = await readJsonBody(req, P2P_MAX_BODY_BYTES);
    const msg = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
    switch (url.pathname) {
      case '/p2p/hello': {
        const accepted = host.acceptHello(parseHello(body));
        send(accepted ? 200 : 409, accepted ? encodeHello(host.hello()) : { error: 'another chain (chain id or genesis differs)' });
        return true;
      }
      case '/p2p/txs': {
        if (typeof msg.from === 'string') host.peers.touch(msg.from);
        const txs = Array.isArray(msg.txs) ? msg.txs : [];
        let accepted = 0;
        for (const tx of txs) {
          if (typeof tx !== 'string') continue;
          try {
            await host.chain.submit(tx, 'relay');
            accepted++;
          } catch {
            // Already known, already confirmed, or invalid here: relays are best effort.
          }
        }
        send(200, { accepted });
        return true;
      }
      case '/p2p/block': {
        if (typeof msg.from === 'string') host.peers.touch(msg.from);
        const block = decodeBlockWire(msg.block ?? null);
        const outcome = await host.chain.importBlock(block);
        const sender = typeof msg.from === 'string' ? host.peers.get(msg.from) : undefined;
        if (outcome === 'gap' && sender) host.syncFrom(sender.url);
        if (outcome === 'conflict') host.reportFork(sender?.url ?? 'a peer');
        send(200, { status: outcome });
        return true;
      }
      case '/p2p/faucet': {
        if (host.leader() !== host.id) {
          send(200, { ok: false, error: { name: 'NodeUnavailable', data: { reason: 'this node is not the leader' } } });
          return true;
        }
        const address = typeof msg.address === 'string' ? msg.address : '';
        try {
          send(200, { ok: true, ...(await host.claimFaucetHere(address)) });
        } catch (err) {
          if (!isChainError(err)) throw err;
          send(200, { ok: false, error: { name: err.name, data: err.data } });
        }
        return true;
      }
      default:
        send(404, { error: `no peer endpoint ${url.pathname}` });
        return true;
    }
  } catch (err) {
    if (!res.headersSent) send(400, { error: (err as Error).message });
    return true;
  }
}
