/**
 * The network a run injects faults into, as the chaos runner needs it: its nodes, who proposed a block (a
 * block's proposer is an MN's id), and the actions. chainrpc's own devnet is one (cli/commands/load/devnetChaos.ts,
 * over reference-node/devnet/); load/ knows only this interface, as it knows nodes only through their URLs.
 */
import type { ChaosAction } from '../model.js';

export interface ChaosNode {
  name: string;
  /** 'node': a node of a network chainrpc did not start (--url), whose kind it does not know. */
  kind: 'MN' | 'LN' | 'node';
  /** Its JSON-RPC base URL (the same after a restart). */
  url: string;
}

/**
 * A network chainrpc did not start (`--url ... --chaos-exec`): its nodes named node1, node2, ... in the order of
 * the URLs, all taken as up (a node that is down just does not answer), no proposer known by name, and no action
 * of chainrpc's own: the user's commands (exec steps) are the faults.
 */
export function outsideNetwork(urls: readonly string[]): ChaosNetwork {
  return {
    nodes: urls.map((url, i) => ({ name: `node${i + 1}`, kind: 'node', url })),
    isUp: () => true,
    nameOfProposer: () => undefined,
    act: (action) => Promise.reject(new Error(`chainrpc did not start this network: it cannot ${action} its nodes (use --chaos-exec with your own command)`)),
  };
}

export interface ChaosNetwork {
  readonly nodes: readonly ChaosNode[];
  /** Whether the node is running and not paused, as far as the actions taken know. */
  isUp(name: string): boolean;
  /** The node whose id is a block's proposer (compared without case), if it is one of the network's. */
  nameOfProposer(proposer: string): string | undefined;
  /** Does the action; resolves once it is done (a restarted node serves again), rejects with why it could not be. */
  act(action: ChaosAction, name: string, delay?: { delayMs: number; loss: number }): Promise<void>;
  /** The node's process on this machine now, when chainrpc started it (a restart gives it a new one). */
  pidOf?(name: string): number | undefined;
}
