/**
 * Resilience faults: the proof of what `chainrpc load --chaos` measures (docs/chaos.md), as the other categories
 * are the proof of the conformance suite and of the fuzzer. Each shows only when a member of the network fails
 * (a leader killed, a member cut off), so neither the conformance catalogue nor the fuzzer is built to catch it,
 * and the fault matrix leaves them out (CONFORMANCE_FAULTS in faultCatalogue.ts). Each says in the node's log
 * exactly what it did, so a test can compare the measure with the truth. TEST-ONLY: each fault makes a
 * reference node deliberately wrong (docs/faults.md).
 */
import type { Fault } from './bends.js';
import { nodeHooks } from './bends.js';

export const RESILIENCE_FAULTS = [
  {
    name: 'drops-mempool-on-leader-change',
    category: 'resilience',
    description:
      'Drops every pending transaction when it sees the leader change, as a node that keeps its mempool per leader term would, and logs the hashes it dropped: transactions it accepted are never included unless their senders send them again.',
    rule: 'A transaction a node accepted is included, whatever becomes of the leader (sound: an accepted transaction is not lost; docs/chaos.md).',
    level: 'SHOULD',
    scope: 'network',
    bend: {
      ofProcess: ({ log }) => ({
        // Looked at before each client transaction is admitted and at each block time of a leader: a node under
        // load sees the change within one transaction, the new leader before it drafts its first block.
        node: nodeHooks((hooks, node) => {
          let leader: string | null | undefined;
          const dropOnChange = async (): Promise<void> => {
            const now = node.leader();
            const before = leader;
            leader = now;
            // The first look, and a moment with no leader known, are no change of leader.
            if (before === undefined || before === null || now === null || now === before) return;
            const dropped = await node.chain.dropPending();
            log?.(`FAULT drops-mempool-on-leader-change: the leader changed from ${before} to ${now}: dropped ${dropped.length} pending transaction(s): ${dropped.join(',')}`);
          };
          return {
            admitTransaction: async (hex) => {
              await dropOnChange();
              return hooks.admitTransaction(hex);
            },
            proposes: () => {
              void dropOnChange();
              return hooks.proposes();
            },
          };
        }),
      }),
    },
  },
] as const satisfies readonly Fault[];
