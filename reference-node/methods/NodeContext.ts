import type { JsonValue } from '../../core/json/index.js';
import type { NodeKind } from '../../core/schema/types.generated.js';
import type { Chain } from '../chain/Chain.js';
import type { FaultSet } from '../faults/faultCatalogue.js';
import type { PeerSet } from '../p2p/PeerSet.js';
import type { UsageMeter } from '../node/UsageMeter.js';

/** What the method handlers may use of a running node. Each handler is a thin view over it. */
export interface NodeContext {
  readonly kind: NodeKind;
  readonly id: string;
  readonly chain: Chain;
  readonly peers: PeerSet;
  readonly meter: UsageMeter;
  /** Fault injection, TEST-ONLY (docs/faults.md); empty unless the node was started with faults. */
  readonly faults: FaultSet;
  /** The current leader's identifier (see electLeader), null while no live MN is known. */
  leader(): string | null;
  /** True while a live peer reports a chain more than a couple of blocks ahead of ours. */
  isSyncing(): boolean;
  /** Admits a client's transaction (throws the profile's errors), relays it; returns its hash. */
  submitTransaction(hex: string): Promise<string>;
  /** Runs a faucet claim here when this node leads, else on the leader. */
  claimFaucet(address: string): Promise<{ transaction_hash: string; amount: string }>;
  /** The OpenRPC document (rpc.discover). */
  openrpc(): JsonValue;
}
