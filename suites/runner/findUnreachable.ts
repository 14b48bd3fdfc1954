/**
 * The reachability probe a run starts with: which targets do not answer a JSON-RPC call at all, and why.
 * Apart from the runner because it is one step of setup with its own reading of an answer (what counts as
 * answering calls), before any check is scheduled.
 */
import { isUnreachable, rpcEndpoint, unreachableMessage } from '../../core/client/baseUrl.js';
import { CheckContext } from '../CheckContext.js';
import type { RunShared } from '../CheckContext.js';
import type { Exchange } from '../model.js';

/** Why a target is unreachable, and the exchanges that showed it. */
export interface Unreachable {
  message: string;
  exchanges: Exchange[];
}

/**
 * Reachability: a target that does not answer a JSON-RPC call at all gets an error verdict on every
 * check (exit code 3 when none answers); checks that need it are not run against it. Returns the targets
 * that do not answer, each with why.
 */
export async function findUnreachable(shared: RunShared, targets: string[], checkTimeoutMs: number): Promise<Map<string, Unreachable>> {
  const profile = shared.profile;
  const unreachable = new Map<string, Unreachable>();
  await Promise.all(
    targets.map(async (node) => {
      const ctx = new CheckContext(shared, { id: 'setup/reachable', level: 'MUST', category: 'transport', title: 'reachable', spec: '', scope: 'node' }, node, AbortSignal.timeout(Math.min(checkTimeoutMs, 10_000)));
      try {
        const res = await ctx.post({ jsonrpc: '2.0', method: ctx.method('chain_blockNumber'), params: [], id: 1 });
        const endpoint = rpcEndpoint(node, profile.rpcPath);
        const json = res.json;
        // An endpoint answers a call as a call: with its id, whatever it says. An error page in JSON (a 404
        // with id null for a path the server does not serve) is not one; a 2xx answer is left to the checks.
        const answersCalls = typeof json === 'object' && json !== null && !Array.isArray(json) && (json.id === 1 || (res.status >= 200 && res.status < 300));
        if (!answersCalls) {
          const got = json === undefined ? 'no JSON' : `${res.text.slice(0, 160)}${res.text.length > 160 ? '…' : ''}`;
          unreachable.set(node, { message: `${endpoint} does not answer JSON-RPC calls (HTTP ${res.status}: ${got}): not a JSON-RPC endpoint`, exchanges: ctx.exchanges });
        }
      } catch (err) {
        // Nothing answered at all (refused, no such host, no answer in time): the node is not running there.
        const cause = (err as Error).cause;
        const message = isUnreachable(cause) ? unreachableMessage(node, `${cause.code}: ${cause.message}`) : `${node} is unreachable: ${(err as Error).message}`;
        unreachable.set(node, { message, exchanges: ctx.exchanges });
      }
    }),
  );
  return unreachable;
}
