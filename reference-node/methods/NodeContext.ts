import type { JsonValue } from '../../core/json/index.js';
import type { NodeKind } from '../../core/schema/types.generated.js';
import type { Chain } from '../chain/Chain.js';
import type { PeerSet } from '../p2p/PeerSet.js';

/** A faucet claim's answer (chain_faucetClaim's result). */
export type FaucetClaimAnswer = { transaction_hash: string; amount: string };

/** What the method handlers may use of a running node. Each handler is a thin view over it. */
export interface NodeContext {
  readonly kind: NodeKind;
  readonly id: string;
  readonly chain: Chain;
  readonly peers: PeerSet;
  /** This node's usage score (reference-node/node/UsageMeter.ts). */
  score(): bigint;
  /** The current leader's identifier (see electLeader), null while no live MN is known. */
  leader(): string | null;
  /** True while a live peer reports a chain more than a couple of blocks ahead of ours. */
  isSyncing(): boolean;
  /** Admits a client's transaction (throws the profile's errors), relays it; returns its hash. */
  submitTransaction(hex: string): Promise<string>;
  /** Runs a faucet claim here when this node leads, else on the leader. */
  claimFaucet(address: string): Promise<FaucetClaimAnswer>;
  /** The OpenRPC document (rpc.discover). */
  openrpc(): JsonValue;
}
