import type { JsonValue } from '../../core/json/index.js';
import { camelCase } from '../Profile.js';
import { loose } from '../readWire.js';

/**
 * The result fields of each result the detection reads, by the reference profile's (snake_case)
 * names: schemas/methods/*.schema.json's `result` definitions and schemas/defs.schema.json's Block
 * and Account. findKeys.test.ts keeps their union equal to resultFieldNames().
 */
export const RESULT_FIELDS = {
  health: ['status', 'mode', 'chain_id'],
  block: ['height', 'hash', 'parent_hash', 'timestamp', 'proposer', 'transaction_count', 'transactions'],
  account: ['balance', 'nonce'],
  pouLocal: ['local_score', 'leader', 'local_is_leader'],
  pouPeers: ['peers'],
  faucet: ['transaction_hash', 'amount'],
  tx: ['transaction_hash'],
  peerCount: ['count'],
} as const satisfies Record<string, readonly string[]>;

/**
 * Other names nodes give the same fields (compared case- and separator-insensitively). A match by
 * synonym is a guess from the name alone, so it is reported with medium confidence.
 */
export const FIELD_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  transaction_count: ['tx_count', 'txCount', 'num_txs', 'numTxs', 'n_txs', 'txs_count', 'num_transactions', 'transactions_count', 'tx_num'],
  parent_hash: ['prev_hash', 'previous_hash', 'last_block_hash', 'prev_block_hash', 'previous_block_hash', 'parent', 'prev_block', 'parent_block_hash'],
  hash: ['block_hash', 'block_id', 'id'],
  timestamp: ['time', 'ts', 'timestamp_ms', 'block_time', 'created_at', 'time_ms'],
  transactions: ['txs', 'tx_hashes', 'transaction_hashes', 'txids', 'tx_list'],
  proposer: ['proposer_id', 'producer', 'miner', 'validator', 'author', 'leader', 'proposer_address'],
  height: ['number', 'block_number', 'block_height', 'index', 'num'],
  balance: ['amount', 'funds', 'available'],
  nonce: ['sequence', 'seq', 'next_nonce', 'account_nonce', 'tx_count'],
  status: ['state', 'health', 'node_status'],
  mode: ['kind', 'node_kind', 'role', 'node_type', 'type', 'node_mode'],
  chain_id: ['network_id', 'chain', 'network', 'chainid'],
  local_score: ['score', 'my_score', 'self_score', 'pou_score'],
  leader: ['leader_id', 'current_leader', 'leader_identifier'],
  local_is_leader: ['is_leader', 'leader_self', 'am_leader', 'is_local_leader', 'self_is_leader'],
  peers: ['scores', 'peer_scores', 'peer_map'],
  transaction_hash: ['tx_hash', 'txhash', 'hash', 'txid', 'tx_id', 'transaction_id', 'tx'],
  amount: ['value', 'credited', 'credit', 'funded'],
  count: ['peer_count', 'peers', 'num_peers', 'n_peers', 'peers_count', 'connected', 'connected_peers', 'total', 'value'],
};

/** How a key was found. */
export type KeyMatchHow = 'exact' | 'camelCase' | 'spelling' | 'synonym' | 'absent';

export interface KeyMatch {
  /** The node's key; null when the result has no key for the field. */
  readonly key: string | null;
  readonly how: KeyMatchHow;
}


/**
 * The node's key for each of `names` in one result object: the name itself, its camelCase, the same
 * word in another case or with other separators (Balance, transaction-count), or a known synonym, in
 * that order of preference; each key serves at most one field (exact matches are taken first).
 */
export function findKeys(object: { readonly [key: string]: JsonValue }, names: readonly string[]): Record<string, KeyMatch> {
  const keys = Object.keys(object);
  const taken = new Set<string>();
  const out: Record<string, KeyMatch> = {};
  const pass = (how: KeyMatchHow, pick: (name: string) => string | undefined): void => {
    for (const name of names) {
      if (out[name] !== undefined) continue;
      const key = pick(name);
      if (key !== undefined && !taken.has(key)) {
        out[name] = { key, how };
        taken.add(key);
      }
    }
  };
  pass('exact', (name) => keys.find((k) => k === name));
  pass('camelCase', (name) => keys.find((k) => k === camelCase(name)));
  pass('spelling', (name) => keys.find((k) => !taken.has(k) && loose(k) === loose(name)));
  // The first synonym in the list wins over later ones, whatever order the node's keys are in.
  pass('synonym', (name) => {
    for (const synonym of FIELD_SYNONYMS[name] ?? []) {
      const key = keys.find((k) => !taken.has(k) && loose(k) === loose(synonym));
      if (key !== undefined) return key;
    }
    return undefined;
  });
  for (const name of names) out[name] ??= { key: null, how: 'absent' };
  return out;
}

/** A field's value by the spec's name, found as findKeys finds it; undefined when the object has no such key. */
export function fieldOf(object: JsonValue | undefined, names: readonly string[], name: string): JsonValue | undefined {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return undefined;
  const key = findKeys(object, names)[name]?.key;
  return key === null || key === undefined ? undefined : object[key];
}
