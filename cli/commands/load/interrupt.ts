/** Ctrl-C in a load command: the first stops it cleanly, a second quits at once. */
import { EXIT } from '../../CliError.js';

/** What a command holds while it can be interrupted: the signal its work watches, and whether it was. */
export interface Interruptible {
  signal: AbortSignal;
  interrupted: () => boolean;
  dispose: () => void;
}

/**
 * The first Ctrl-C (SIGINT or SIGTERM) aborts the signal, saying `what` happens next; a second exits at once.
 * A run stops sending and writes the report of what ran; a command that only writes files stops at its next
 * step (a funding wait ends at once) and writes none.
 */
export function interruptible(what = 'load: interrupted: stopping, then writing the report of what ran'): Interruptible {
  const controller = new AbortController();
  let count = 0;
  const onSignal = (): void => {
    count++;
    if (count > 1) process.exit(EXIT.interrupted);
    process.stderr.write(`\n${what} (Ctrl-C again to quit at once)\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    interrupted: () => count > 0,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
