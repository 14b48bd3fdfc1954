import { createServer } from 'node:http';
import type { PeerGate } from './PeerGate.js';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { BlockRejectedError, decodeBlockWire, encodeBlockWire, isChainError } from '../chain/index.js';
import type { Chain } from '../chain/index.js';
import { urlHost } from '../rpc/createRpcServer.js';
import { PeerRefusal } from './PeerRefusal.js';
import type { PeerSet } from './PeerSet.js';
import { readJsonBody } from './readJsonBody.js';

/** Most blocks one sync answer carries. */
export const SYNC_BATCH = 200;
/** Most bytes each peer message may carry: a hello is small, a block can hold many transactions. */
export const P2P_BODY_LIMITS = {
  '/p2p/hello': 64 * 1024,
  '/p2p/txs': 8 * 1024 * 1024,
  '/p2p/block': 64 * 1024 * 1024,
  '/p2p/faucet': 4 * 1024,
} as const;
/** Most transactions one relay message may carry. */
export const MAX_RELAY_TRANSACTIONS = 10_000;

/** What the peer endpoints use of their node. */
export interface PeerHost {
  readonly id: string;
  readonly chain: Chain;
  readonly peers: PeerSet;
  /** This node's hello, signed, with a fresh timestamp. */
  hello(): JsonValue;
  /** Takes a peer's hello, sent to this node (parsed, verified, checked); throws PeerRefusal when refused. */
  acceptHello(message: JsonValue): void;
  /** Starts catching up from a peer that is ahead (no-op while a sync runs). */
  syncFrom(url: string): void;
  /** A peer's block conflicts with ours. */
  reportFork(url: string): void;
  leader(): string | null;
  /** Runs a faucet claim on this node (the leader); throws ChainError when refused. */
  claimFaucetHere(address: string): Promise<{ transaction_hash: string; amount: string }>;
  /** A refused peer message, one line (rate-limited by the caller's log). */
  refused(line: string): void;
}

/**
 * The inbound side of the peer protocol, on its own listener (never the JSON-RPC port): plain HTTP
 * under /p2p/. hello (signed: identity, kind, score, height, known peers), txs (relayed
 * transactions, each signed by its sender), block (a new block, signed by its proposer and checked
 * against the network's rules by Chain.importBlock), blocks (sync) and faucet (a claim run by the
 * leader). A refused message gets its status and reason (PeerRefusal) and a log line; nothing a
 * peer sends changes state unless it passes every check.
 */
export async function servePeer(host: PeerHost, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://node');
  const send = (status: number, body: JsonValue): void => {
    if (!res.headersSent && !res.destroyed) res.writeHead(status, { 'content-type': 'application/json' }).end(stringifyJson(body));
  };
  const from = req.socket.remoteAddress ?? 'unknown';
  try {
    if (url.pathname === '/p2p/blocks') {
      if (req.method !== 'GET') throw new PeerRefusal(405, 'use GET for /p2p/blocks');
      const fromHeight = BigInt(/^\d{1,20}$/.test(url.searchParams.get('from') ?? '') ? (url.searchParams.get('from') as string) : '0');
      const max = Math.min(SYNC_BATCH, Math.max(1, Number(url.searchParams.get('max') ?? SYNC_BATCH) || SYNC_BATCH));
      send(200, { blocks: host.chain.blocksFrom(fromHeight, max).map(encodeBlockWire) });
      return;
    }
    const limit = (P2P_BODY_LIMITS as Record<string, number>)[url.pathname];
    if (limit === undefined) throw new PeerRefusal(404, `no peer endpoint ${url.pathname.slice(0, 100)}`);
    if (req.method !== 'POST') throw new PeerRefusal(405, `use POST for ${url.pathname}`);
    const body = await readJsonBody(req, limit);
    const msg = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
    switch (url.pathname) {
      case '/p2p/hello': {
        host.acceptHello(body);
        send(200, host.hello());
        return;
      }
      case '/p2p/txs': {
        const txs = Array.isArray(msg.txs) ? msg.txs : [];
        if (txs.length > MAX_RELAY_TRANSACTIONS) throw new PeerRefusal(413, `a relay carries at most ${MAX_RELAY_TRANSACTIONS} transactions; this one has ${txs.length}`);
        let accepted = 0;
        for (const tx of txs) {
          if (typeof tx !== 'string') continue;
          // A transaction this node already holds or has confirmed (a stale one relayed again) is no work at all.
          if (host.chain.knowsWire(tx)) continue;
          try {
            await host.chain.submit(tx, 'relay');
            accepted++;
          } catch {
            // Already known, already confirmed, or invalid here: relays are best effort.
          }
        }
        send(200, { accepted });
        return;
      }
      case '/p2p/block': {
        let outcome;
        try {
          outcome = await host.chain.importBlock(decodeBlockWire(msg.block ?? null));
        } catch (err) {
          if (err instanceof BlockRejectedError) throw new PeerRefusal(400, `block refused: ${err.message}`);
          throw err;
        }
        // Only a member is asked for the blocks in between: anyone else could stall this node.
        const sender = typeof msg.from === 'string' ? host.peers.get(msg.from) : undefined;
        const member = sender?.member === true ? sender : undefined;
        if (outcome === 'gap' && member) host.syncFrom(member.url);
        if (outcome === 'conflict') host.reportFork(member?.url ?? `a peer at ${from}`);
        // A block may carry its sender's signed hello (the proposer's, ReferenceNode.broadcastBlock): taken as a
        // greeting once the block is in (so its height is no news), and answered with this node's own, so that a
        // proposer and its peers need no greetings of their own while blocks flow. A refused hello changes
        // nothing, is logged, and gets no hello back; the block is judged on its own either way.
        let greeted = false;
        if (msg.hello !== undefined) {
          try {
            host.acceptHello(msg.hello);
            greeted = true;
          } catch (err) {
            if (!(err instanceof PeerRefusal)) throw err;
            host.refused(`p2p: refused the hello of a block from ${from}: HTTP ${err.status}: ${err.message}`);
          }
        }
        send(200, greeted ? { status: outcome, hello: host.hello() } : { status: outcome });
        return;
      }
      case '/p2p/faucet': {
        if (host.leader() !== host.id) {
          send(200, { ok: false, error: { name: 'NodeUnavailable', data: { reason: 'this node is not the leader' } } });
          return;
        }
        const address = msg.address;
        if (typeof address !== 'string' || !/^[0-9a-fA-F]{64}$/.test(address)) throw new PeerRefusal(400, 'a forwarded faucet claim needs an address: 64 hex characters');
        try {
          send(200, { ok: true, ...(await host.claimFaucetHere(address)) });
        } catch (err) {
          if (!isChainError(err)) throw err;
          send(200, { ok: false, error: { name: err.name, data: err.data } });
        }
        return;
      }
      default:
        // P2P_BODY_LIMITS names every POST endpoint: any other path was refused above.
        throw new PeerRefusal(404, `no peer endpoint ${url.pathname.slice(0, 100)}`);
    }
  } catch (err) {
    if (err instanceof PeerRefusal) {
      host.refused(`p2p: refused ${req.method ?? '?'} ${url.pathname.slice(0, 100)} from ${from}: HTTP ${err.status}: ${err.message}`);
      send(err.status, { error: err.message });
      return;
    }
    host.refused(`p2p: ${req.method ?? '?'} ${url.pathname.slice(0, 100)} from ${from} failed: ${(err as Error).message}`);
    send(500, { error: 'the node failed while handling this message' });
  }
}

export interface PeerServer {
  readonly server: Server;
  listen(port: number, host: string): Promise<{ url: string }>;
  /** Stops accepting, lets messages in flight finish for up to 2 s, then cuts the rest. */
  close(): Promise<void>;
}

function serveWith(host: () => PeerHost | undefined, req: IncomingMessage, res: ServerResponse): void {
  const node = host();
  if (!node) {
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"starting"}');
    return;
  }
  void servePeer(node, req, res);
}

/** The peer listener: node:http with its own timeouts, serving only /p2p/ (servePeer); `gate`: the node's peer gate (PeerGate.ts). */
export function createPeerServer(host: () => PeerHost | undefined, gate?: PeerGate): PeerServer {
  const server = createServer({ requestTimeout: 15_000, headersTimeout: 10_000, keepAliveTimeout: 5_000 }, (req, res) => {
    if (gate !== undefined && !gate.open) {
      // Cut or slowed from outside (a run with faults): a message that does not pass meets a dropped connection.
      void gate.pass().then((passes) => (passes ? serveWith(host, req, res) : req.socket.destroy()));
      return;
    }
    serveWith(host, req, res);
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  let closing: Promise<void> | undefined;
  return {
    server,
    listen(port, hostName) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen({ port, host: hostName }, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          resolve({ url: `http://${urlHost(address)}:${address.port}` });
        });
      });
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), 2_000);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
