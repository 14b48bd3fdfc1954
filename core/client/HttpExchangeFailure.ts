import type { TransportError } from './TransportError.js';
import type { Timing } from './types.js';

/**
 * Thrown by the HTTP senders (HttpTransport.send, sendExactHttp): the TransportError plus the
 * timing, so the failed exchange can still be recorded.
 */
export class HttpExchangeFailure extends Error {
  readonly error: TransportError;
  readonly timing: Timing;

  constructor(error: TransportError, timing: Timing) {
    super(error.message, { cause: error });
    this.error = error;
    this.timing = timing;
  }
}
