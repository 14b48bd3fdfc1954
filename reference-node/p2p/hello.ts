import { createHash } from 'node:crypto';
import { verifyStrictDetailed } from '../../core/codec/index.js';
import type { JsonValue } from '../../core/json/index.js';
import type { NodeKind } from '../../core/schema/types.generated.js';
import { PeerRefusal } from './PeerRefusal.js';

/**
 * The greeting nodes exchange under /p2p/hello: who they are, how far their chain is, and when they
 * said so. Every hello is signed by the sender's identity key (its id is the public key), over the
 * domain tag and the canonical JSON of its fields, so nobody can speak for another node, and its
 * timestamp lets a receiver refuse stale and replayed hellos (PeerSet).
 */
export interface Hello {
  id: string;
  kind: NodeKind;
  /** The sender's peer (p2p) base URL. */
  url: string;
  score: bigint;
  height: bigint;
  chainId: bigint;
  genesisHash: string;
  peers: string[];
  /** The sender's clock when it signed, ms since the Unix epoch. */
  timestamp: bigint;
}

/** A hello as received: its fields and the sender's signature (128 hex). */
export interface SignedHello {
  readonly hello: Hello;
  readonly signature: string;
}

export const HELLO_DOMAIN_TAG = 'chainrpc/hello/v1';
/** Most peer URLs a hello may carry. */
export const MAX_HELLO_PEERS = 256;
/** Longest URL taken from a peer. */
const MAX_URL_LENGTH = 200;
const BASE_URL = /^https?:\/\/[^/\s]+$/;
const DECIMAL = /^(0|[1-9][0-9]{0,19})$/;
const FIELDS = ['id', 'kind', 'url', 'score', 'height', 'chain_id', 'genesis_hash', 'peers', 'timestamp', 'signature'] as const;

/** The signed fields, in their fixed order, integers as decimal strings. */
function fields(h: Hello): Record<string, JsonValue> {
  return {
    id: h.id,
    kind: h.kind,
    url: h.url,
    score: h.score.toString(),
    height: h.height.toString(),
    chain_id: h.chainId.toString(),
    genesis_hash: h.genesisHash,
    peers: h.peers,
    timestamp: h.timestamp.toString(),
  };
}

/** The 32 bytes a hello's signature covers: SHA-256 of the domain tag, a zero byte and the canonical JSON. */
export function helloDigest(h: Hello): Uint8Array {
  return new Uint8Array(createHash('sha256').update(HELLO_DOMAIN_TAG).update(new Uint8Array([0])).update(JSON.stringify(fields(h))).digest());
}

/** A hello as it travels, signed with the sender's key (`sign` returns a 64-byte ed25519 signature). */
export function encodeHello(h: Hello, sign: (message: Uint8Array) => Uint8Array): JsonValue {
  return { ...fields(h), signature: Buffer.from(sign(helloDigest(h))).toString('hex') };
}

function malformed(reason: string): never {
  throw new PeerRefusal(400, `malformed hello: ${reason}`);
}

/**
 * Reads a hello strictly (exact key set, canonical forms, bounded sizes): anything else is refused
 * with a PeerRefusal (400), so that the fields read are exactly the fields signed. The signature is
 * not checked here (verifyHello).
 */
export function parseHello(v: JsonValue): SignedHello {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) malformed('it must be a JSON object');
  for (const key of Object.keys(v)) if (!(FIELDS as readonly string[]).includes(key)) malformed(`unknown field ${JSON.stringify(key.slice(0, 40))}`);
  for (const key of FIELDS) if (!(key in v)) malformed(`missing field ${key}`);
  const { id, kind, url, score, height, chain_id, genesis_hash, peers, timestamp, signature } = v;
  if (typeof id !== 'string' || !/^[0-9a-f]{64}$/.test(id)) malformed('id must be 64 lower-case hex characters (the public key)');
  if (kind !== 'MN' && kind !== 'LN') malformed('kind must be MN or LN');
  if (typeof url !== 'string' || url.length > MAX_URL_LENGTH || !BASE_URL.test(url)) malformed('url must be a base URL such as http://127.0.0.1:30545');
  const numbers: Record<string, bigint> = {};
  for (const [name, n] of [['score', score], ['height', height], ['chain_id', chain_id], ['timestamp', timestamp]] as const) {
    if (typeof n !== 'string' || !DECIMAL.test(n) || BigInt(n) > 0xffff_ffff_ffff_ffffn) malformed(`${name} must be a canonical decimal string of a u64`);
    numbers[name] = BigInt(n);
  }
  if (typeof genesis_hash !== 'string' || !/^[0-9a-f]{64}$/.test(genesis_hash)) malformed('genesis_hash must be 64 lower-case hex characters');
  if (!Array.isArray(peers)) malformed('peers must be an array of base URLs');
  if (peers.length > MAX_HELLO_PEERS) malformed(`peers lists ${peers.length} URLs; at most ${MAX_HELLO_PEERS}`);
  const list: string[] = [];
  for (const p of peers) {
    if (typeof p !== 'string' || p.length > MAX_URL_LENGTH || !BASE_URL.test(p)) malformed('peers must be an array of base URLs');
    list.push(p);
  }
  if (typeof signature !== 'string' || !/^[0-9a-f]{128}$/.test(signature)) malformed('signature must be 128 lower-case hex characters');
  return {
    hello: {
      id,
      kind,
      url,
      score: numbers['score'] ?? 0n,
      height: numbers['height'] ?? 0n,
      chainId: numbers['chain_id'] ?? 0n,
      genesisHash: genesis_hash,
      peers: list,
      timestamp: numbers['timestamp'] ?? 0n,
    },
    signature,
  };
}

/** Checks the signature strictly against the sender's id (its public key); refuses (401) a hello someone else signed. */
export function verifyHello(signed: SignedHello): Hello {
  const result = verifyStrictDetailed(Buffer.from(signed.hello.id, 'hex'), helloDigest(signed.hello), Buffer.from(signed.signature, 'hex'));
  if (!result.ok) throw new PeerRefusal(401, `hello refused: its signature does not verify for ${signed.hello.id} (${result.code})`);
  return signed.hello;
}
