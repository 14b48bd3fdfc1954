import type { JsonValue } from '../../core/json/index.js';
import type { NodeKind } from '../../core/schema/types.generated.js';

/** The greeting nodes exchange under /p2p/hello: who they are and how far their chain is. */
export interface Hello {
  id: string;
  kind: NodeKind;
  url: string;
  score: bigint;
  height: bigint;
  chainId: bigint;
  genesisHash: string;
  peers: string[];
}

/** A hello as it travels (integers as decimal strings). */
export function encodeHello(h: Hello): JsonValue {
  return {
    id: h.id,
    kind: h.kind,
    url: h.url,
    score: h.score.toString(),
    height: h.height.toString(),
    chain_id: h.chainId.toString(),
    genesis_hash: h.genesisHash,
    peers: h.peers,
  };
}

/** Reads a hello; throws on anything malformed. At most 256 peer URLs are taken. */
export function parseHello(v: JsonValue): Hello {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('hello must be an object');
  const { id, kind, url, score, height, chain_id, genesis_hash, peers } = v;
  if (typeof id !== 'string' || !/^[0-9a-f]{64}$/.test(id)) throw new Error('hello.id must be 64 lower-case hex');
  if (kind !== 'MN' && kind !== 'LN') throw new Error('hello.kind must be MN or LN');
  if (typeof url !== 'string' || !/^https?:\/\/[^/]+$/.test(url)) throw new Error('hello.url must be a base URL');
  for (const [name, n] of [['score', score], ['height', height], ['chain_id', chain_id]] as const) {
    if (typeof n !== 'string' || !/^\d{1,20}$/.test(n)) throw new Error(`hello.${name} must be a decimal string`);
  }
  if (typeof genesis_hash !== 'string') throw new Error('hello.genesis_hash must be a string');
  const list = Array.isArray(peers) ? peers.filter((p): p is string => typeof p === 'string' && /^https?:\/\/[^/]+$/.test(p)).slice(0, 256) : [];
  return { id, kind, url, score: BigInt(score as string), height: BigInt(height as string), chainId: BigInt(chain_id as string), genesisHash: genesis_hash, peers: list };
}
