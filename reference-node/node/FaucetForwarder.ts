import type { JsonValue } from '../../core/json/index.js';
import type { Chain } from '../chain/index.js';
import type { FaucetClaimAnswer } from '../methods/NodeContext.js';
import type { PeerLink } from '../p2p/PeerLink.js';
import type { PeerSet } from '../p2p/PeerSet.js';
import { rpcError, toRpc } from '../methods/rpcError.js';

interface ForwarderDeps {
  readonly id: string;
  readonly chain: Chain;
  readonly peers: PeerSet;
  readonly blockTimeMs: number;
  leader(): string | null;
  link(url: string): PeerLink;
  relay(wires: string[]): void;
  stopping(): boolean;
}

/**
 * The faucet runs on the leader only (one signer, one nonce sequence): a claim made on any other node
 * is forwarded to the leader over /p2p/faucet, and the leader's answer (or refusal) is passed back.
 */
export class FaucetForwarder {
  constructor(private readonly deps: ForwarderDeps) {}

  /**
   * The leader can change at a block boundary, so nodes may briefly disagree on it. A claim that finds
   * no leader, or reaches a node that says it no longer leads, is tried again on the leader as this
   * node then sees it, for up to three block times (at least 1 s). An unreachable leader is not
   * retried: the claim may have run there.
   */
  async claim(address: string): Promise<FaucetClaimAnswer> {
    const { blockTimeMs } = this.deps;
    const deadline = Date.now() + Math.max(1_000, 3 * blockTimeMs);
    for (;;) {
      const attempt = await this.tryClaim(address);
      if ('claim' in attempt) return attempt.claim;
      if (Date.now() >= deadline || this.deps.stopping()) throw rpcError('NodeUnavailable', { reason: attempt.retry });
      await new Promise((r) => setTimeout(r, Math.max(50, Math.min(250, Math.floor(blockTimeMs / 2)))));
    }
  }

  /** Runs a claim on this node (the leader) and relays its transaction; throws ChainError when refused. */
  async claimHere(address: string): Promise<FaucetClaimAnswer> {
    const claim = await this.deps.chain.claimFaucet(address);
    this.deps.relay([claim.wire]);
    return { transaction_hash: claim.transaction_hash, amount: claim.amount };
  }

  /** One try: run the claim here if this node leads, else forward it to the leader. */
  private async tryClaim(address: string): Promise<{ claim: FaucetClaimAnswer } | { retry: string }> {
    const leader = this.deps.leader();
    if (leader === this.deps.id) {
      try {
        return { claim: await this.claimHere(address) };
      } catch (err) {
        throw toRpc(err);
      }
    }
    const peer = leader === null ? undefined : this.deps.peers.get(leader);
    if (!peer) return { retry: 'no live MN leader is known to run the faucet claim; retry shortly' };
    let answer: JsonValue;
    try {
      answer = await this.deps.link(peer.url).request('/p2p/faucet', { address });
    } catch (err) {
      throw rpcError('NodeUnavailable', { reason: `the leader ${peer.url} could not be reached for the faucet claim: ${(err as Error).message}` });
    }
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw rpcError('NodeUnavailable', { reason: 'the leader gave no faucet answer' });
    if (answer.ok === true && typeof answer.transaction_hash === 'string' && typeof answer.amount === 'string') {
      return { claim: { transaction_hash: answer.transaction_hash, amount: answer.amount } };
    }
    const error = answer.error;
    if (typeof error === 'object' && error !== null && !Array.isArray(error) && typeof error.name === 'string' && typeof error.data === 'object' && error.data !== null && !Array.isArray(error.data)) {
      const data = error.data;
      const reason = typeof data.reason === 'string' ? data.reason : 'refused by the leader';
      if (error.name === 'NodeUnavailable') return { retry: `${peer.url}: ${reason}` };
      throw rpcError(error.name, { ...data, reason });
    }
    throw rpcError('NodeUnavailable', { reason: 'the leader gave no faucet answer' });
  }
}
