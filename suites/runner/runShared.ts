/**
 * What every check of one run shares (RunShared): a client, a wallet and a chain id per node, the ids of
 * calls, and the transcript. Apart from the runner because it is state, made once per run and closed at its end,
 * while the runner only schedules checks over it.
 */
import { createClient } from '../../core/client/index.js';
import type { RpcClient } from '../../core/client/index.js';
import { CheckContext, MAX_RESPONSE_BYTES } from '../CheckContext.js';
import type { RunShared } from '../CheckContext.js';
import type { Exchange } from '../model.js';
import type { Profile } from '../../profile/Profile.js';
import { asU64 } from '../../profile/readWire.js';
import { ProbeLock } from '../ProbeLock.js';
import { Funder, Wallet } from '../Wallet.js';

/** Most exchanges kept for the transcript: a run against a hostile node must stay bounded. */
const MAX_TRANSCRIPT = 20_000;

/** The shared state of a run, the transcript it fills, and how to close its clients. */
export interface RunResources {
  shared: RunShared;
  /** Every exchange of the run, in order (bodies capped). */
  transcript: Exchange[];
  /** Closes every client opened (an error closing one is ignored). */
  close: () => Promise<void>;
}

export interface RunSharedOptions {
  profile: Profile;
  targets: string[];
  checkTimeoutMs: number;
  /** Aborts when the run's deadline passes (the chain id probe stops then). */
  deadline: AbortSignal;
  /** Extra sink for every exchange. */
  onExchange?: (exchange: Exchange) => void;
  /** Most requests started per second to each node (the run's pace). Default: no limit. */
  maxRatePerNode?: number | undefined;
}

export function createRunShared(options: RunSharedOptions): RunResources {
  const { profile, checkTimeoutMs, deadline } = options;
  const transcript: Exchange[] = [];
  const clients = new Map<string, RpcClient>();
  const wallets = new Map<string, Wallet>();
  const chainIds = new Map<string, Promise<bigint>>();
  const locks = new Map<string, ProbeLock>();
  const rateRefusals = new Map<string, number>();
  // One funded key, one nonce sequence: its transfers go through the first node (the targets are one network).
  const funder = new Funder(options.targets[0] ?? '');
  let ids = 1000;

  const shared: RunShared = {
    profile,
    targets: options.targets,
    client(node) {
      let c = clients.get(node);
      if (!c) {
        c = createClient({
          baseUrl: node,
          rpcPath: profile.rpcPath,
          connections: 32,
          timeoutMs: Math.min(checkTimeoutMs, 10_000),
          maxResponseBytes: MAX_RESPONSE_BYTES,
          maxRequestsPerSecond: options.maxRatePerNode,
          // Every answer, each retry's too: the refusals for the rate a check's waits may have been held back by.
          onExchange: (e) => {
            if (e.response?.status === 429) rateRefusals.set(node, (rateRefusals.get(node) ?? 0) + 1);
          },
        });
        clients.set(node, c);
      }
      return c;
    },
    wallet(node) {
      let w = wallets.get(node);
      if (!w) {
        w = new Wallet(node, funder, options.targets);
        wallets.set(node, w);
      }
      return w;
    },
    record(exchange) {
      if (transcript.length < MAX_TRANSCRIPT) transcript.push(exchange);
      options.onExchange?.(exchange);
    },
    chainId(node) {
      let p = chainIds.get(node);
      if (!p) {
        p = (async () => {
          if (profile.chainId !== undefined) return profile.chainId;
          const probe = new CheckContext(shared, { id: 'setup/chain-id', level: 'PROFILE', category: 'methods', title: 'chain id', spec: '', scope: 'node' }, node, deadline);
          const r = await probe.call('chain_health', [], node).catch(() => undefined);
          return (r?.ok ? asU64(probe.field(r.result, 'chain_id')) : undefined) ?? 1n;
        })();
        chainIds.set(node, p);
      }
      return p;
    },
    rateRefused: (node) => rateRefusals.get(node) ?? 0,
    nextId: () => ids++,
    served: new Map(),
    lock(node) {
      let l = locks.get(node);
      if (!l) {
        l = new ProbeLock();
        locks.set(node, l);
      }
      return l;
    },
  };

  const close = async (): Promise<void> => {
    await Promise.all([...clients.values()].map((c) => c.close().catch(() => undefined)));
  };
  return { shared, transcript, close };
}
