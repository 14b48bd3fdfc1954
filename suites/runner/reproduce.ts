import type { CheckResult, Exchange } from '../model.js';
import { curlFor } from './curlFor.js';

/** What a rerun of a check needs to be pasted as it is: the run's targets and its shaping options (--profile, --rpc-path, ...). */
export interface RerunContext {
  targets: readonly string[];
  args: readonly string[];
}

/**
 * The command that reproduces a failed result, given the exchange that showed the failure: a curl of that
 * exchange, or, where its request was kept only in part (`request.truncated`) and cannot be sent again as
 * it was, `chainrpc test --url … --only <id>` with the run's options, which runs the check again.
 * Undefined for a result that did not fail or showed no exchange.
 */
export function reproduceFor(result: CheckResult, shown: Exchange | undefined, rerun: RerunContext): string | undefined {
  if (result.status !== 'fail' || shown === undefined) return undefined;
  if (shown.request.truncated !== true) return curlFor(shown);
  const urls = result.node === 'network' ? rerun.targets.join(' --url ') : result.node;
  return ['chainrpc test', '--url', urls, '--only', result.id, ...rerun.args].join(' ');
}
