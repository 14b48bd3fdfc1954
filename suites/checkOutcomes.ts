/**
 * How a check ends other than by passing, as the runner tells them apart (suites/runner/runSuite.ts):
 * the node is wrong (CheckFailure, a fail), the check does not apply (CheckSkip), or no verdict could be
 * reached (CheckError, an error). Apart from CheckContext so that what checks and their helpers throw
 * depends on nothing.
 */
import type { Exchange } from './model.js';

/** Thrown by ctx.fail: the node is wrong. */
export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly expected?: string,
    readonly actual?: string,
    /** The exchange that showed the failure, when it is not the check's last (the reproduce command repeats it). */
    readonly shown?: Exchange,
  ) {
    super(message);
  }
}

/** Thrown by ctx.skip: the check does not apply here. */
export class CheckSkip extends Error {}

/**
 * Thrown when no verdict can be reached: the exchange itself failed (refused, timed out, over the size
 * cap), or the check's setup could not be done (funding a key, a block to read). Never a failure.
 */
export class CheckError extends Error {}

/**
 * Thrown when the node kept answering HTTP 429 (Too Many Requests) after the client's retries: the request
 * was refused for the suite's rate, never judged (a limit on rate is the node's own choice: the spec leaves it
 * open). An error, never a failure; and a node that answers 429 is alive.
 */
export class RateLimited extends CheckError {}
