import type { ChainRules } from '../chain/ChainRules.js';
import type { FaucetClaimAnswer, NodeContext } from '../methods/NodeContext.js';
import type { TransportRules } from '../rpc/TransportRules.js';
import type { MethodTable } from '../rpc/types.js';

/** A client's transaction once admitted: its hash, and its wire form to relay (null: nothing was queued). */
export interface Admitted {
  readonly hash: string;
  readonly wire: string | null;
}

/**
 * The node's own steps that a variant may bend, each with an honest default (ReferenceNode builds
 * them): proposing at a tick, admitting and relaying a client's transaction, running a faucet claim.
 */
export interface NodeHooks {
  /** Whether the leader proposes a block at this tick. Honest: always. */
  proposes(): boolean;
  /** Admits a client's transaction to the mempool; throws ChainError when refused. Honest: chain.submit(hex, 'client'). */
  admitTransaction(hex: string): Promise<Admitted>;
  /** Tells the peers of client transactions this node admitted. Honest: every known peer, in order. */
  relayTransactions(wires: string[]): void;
  /** A client's faucet claim: run here when this node leads, else forwarded to the leader (FaucetForwarder). */
  claimFaucet(address: string): Promise<FaucetClaimAnswer>;
}

/**
 * The seams of the reference node, for a deliberate variant of it: each part, when given, receives
 * the honest rules (or table, or hooks) and returns the ones to run. An honest node is started without
 * a variant, and then nothing is wrapped. The fault layer above the node builds variants
 * from fault names, to prove the conformance suite; the node knows no fault.
 */
export interface NodeVariant {
  /** JSON-RPC and HTTP choices (rpc/TransportRules.ts). */
  readonly transport?: ((rules: TransportRules) => TransportRules) | undefined;
  /** Signature, chain id and fee rules (chain/ChainRules.ts). */
  readonly chain?: ((rules: ChainRules) => ChainRules) | undefined;
  /** The method table: handlers wrapped (before, after, or around a failure). */
  readonly methods?: ((table: MethodTable, node: NodeContext) => MethodTable) | undefined;
  /** Proposing, admission, relaying, the faucet. */
  readonly node?: ((hooks: NodeHooks, node: NodeContext) => NodeHooks) | undefined;
}
