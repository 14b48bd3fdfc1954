/**
 * Playing a peer (or an outsider) against a reference node's peer listener, over real HTTP: signed
 * hellos from any key, and blocks built on the node's own chain and signed by any key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessageSigner, generatePrivateKey } from '../../core/codec/index.js';
import type { MessageSigner } from '../../core/codec/index.js';
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { blockHash, Chain, decodeBlockWire, encodeBlockWire } from '../../reference-node/chain/index.js';
import type { Block } from '../../reference-node/chain/index.js';
import { genesisConfig } from '../../reference-node/node/NetworkGenesis.js';
import type { NetworkGenesis } from '../../reference-node/node/NetworkGenesis.js';
import { expect } from 'vitest';
import { encodeHello } from '../../reference-node/p2p/hello.js';
import { PeerRefusal } from '../../reference-node/p2p/PeerRefusal.js';
import type { Hello } from '../../reference-node/p2p/hello.js';

export interface PeerAnswer {
  status: number;
  json: JsonValue | undefined;
  text: string;
}

function isRaw(body: JsonValue | { raw: string }): body is { raw: string } {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && typeof body.raw === 'string' && Object.keys(body).length === 1;
}

/** POSTs a peer message (a JSON value, or raw text sent as is). */
export async function postPeer(baseUrl: string, path: string, body: JsonValue | { raw: string }): Promise<PeerAnswer> {
  const text = isRaw(body) ? body.raw : stringifyJson(body);
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
  const answer = await res.text();
  let json: JsonValue | undefined;
  try {
    json = parseJson(answer);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text: answer };
}

/** The `error` text of a refused peer message. */
export function refusal(answer: PeerAnswer): string {
  const json = answer.json;
  return typeof json === 'object' && json !== null && !Array.isArray(json) && typeof json.error === 'string' ? json.error : answer.text;
}

/** The PeerRefusal `fn` throws (fails the test if it throws anything else, or nothing). */
export function thrownRefusal(fn: () => unknown): PeerRefusal {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PeerRefusal);
    return err as PeerRefusal;
  }
  throw new Error('expected a PeerRefusal, nothing was thrown');
}

/** A key of nobody's network. */
export function freshKey(): MessageSigner {
  return createMessageSigner(generatePrivateKey());
}

/** A hello signed by `key`, for the node's network unless told otherwise; timestamp now. */
export function signedHello(key: MessageSigner, network: { chainId: bigint; genesisHash: string }, fields: Partial<Hello> = {}): JsonValue {
  const hello: Hello = {
    id: key.address,
    kind: 'LN',
    url: 'http://127.0.0.1:9',
    score: 0n,
    height: 0n,
    chainId: network.chainId,
    genesisHash: network.genesisHash,
    peers: [],
    timestamp: BigInt(Date.now()),
    ...fields,
  };
  return encodeHello(hello, (m) => key.sign(m));
}

/** The node's blocks from `from` on, through its peer endpoint (GET /p2p/blocks). */
export async function fetchBlocks(p2pUrl: string, from: bigint): Promise<Block[]> {
  const blocks: Block[] = [];
  for (;;) {
    const res = await fetch(`${p2pUrl}/p2p/blocks?from=${from + BigInt(blocks.length)}&max=200`);
    const answer = parseJson(await res.text());
    const wires = typeof answer === 'object' && answer !== null && !Array.isArray(answer) && Array.isArray(answer.blocks) ? answer.blocks : [];
    blocks.push(...wires.map((w) => decodeBlockWire(w)));
    if (wires.length < 200) return blocks;
  }
}

export interface ForgeOptions {
  /** The proposer the block names (default: the signing key's id); the key still signs it. */
  proposer?: string;
  /** The PoU snapshot to write, from the parent's (default: the parent's, unchanged). */
  pou?: (parent: Block) => Record<string, bigint>;
  /** Default: now. */
  timestamp?: bigint;
}

/**
 * A block on the node's current tip, valid in every way the chain checks by itself (hash, state
 * root, a signature by `key`), built by replaying the node's chain in a scratch store. Whether the
 * network takes it (membership, snapshot, leader) is what the test is about.
 */
export async function forgeBlock(p2pUrl: string, network: NetworkGenesis, key: MessageSigner, options: ForgeOptions = {}): Promise<{ block: Block; wire: JsonValue }> {
  const dir = mkdtempSync(join(tmpdir(), 'chainrpc-forge-'));
  const scratch = await Chain.open({ dataDir: dir, genesis: genesisConfig(network) });
  try {
    for (const block of await fetchBlocks(p2pUrl, 1n)) await scratch.importBlock(block);
    // The scratch chain's mempool is empty: the block has no transactions, so no fee names its proposer.
    const produced = await scratch.produceBlock({
      proposer: key.address,
      sign: (hash) => key.sign(hash),
      timestamp: options.timestamp ?? BigInt(Date.now()),
      pou: options.pou ?? ((parent) => parent.pou),
    });
    let block = produced;
    if (options.proposer !== undefined) {
      const header = { ...produced, proposer: options.proposer };
      const hash = blockHash(header);
      block = { ...header, hash, signature: Buffer.from(key.sign(Buffer.from(hash, 'hex'))).toString('hex') };
    }
    return { block, wire: encodeBlockWire(block) };
  } finally {
    await scratch.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
