/**
 * How a long-running command (`node`, `devnet`) learns it should stop: SIGINT or SIGTERM, or the process
 * that started it exiting. The last matters more than it looks: `npx chainrpc node` runs the node under
 * `npm exec` and a shell, and a SIGTERM to the npx PID (the one a user's script holds) ends npm and the
 * shell but reaches no further, so without this watch the node runs on, orphaned, holding its ports. The
 * same watch ends a devnet's nodes when the devnet is killed outright (SIGKILL), and a test's nodes when
 * its runner dies. A node started from a shell with `&` keeps running after that shell, as anything
 * started so does (a CI step that starts a node for the next step relies on it).
 */
import { EXIT } from '../core/errors/exitCodes.js';
import { PARENT_PID_ENV } from '../core/process/parentPid.js';

/** How often the parent is looked at: a stop is seen within this. */
export const PARENT_POLL_MS = 500;

/** The parent named in PARENT_PID_ENV, when it is a pid; the variable is removed either way. */
function namedParent(env: NodeJS.ProcessEnv): number | undefined {
  const named = Number(env[PARENT_PID_ENV]);
  delete env[PARENT_PID_ENV];
  return Number.isSafeInteger(named) && named > 1 ? named : undefined;
}

/**
 * The parent: the one that named itself (PARENT_PID_ENV), else the parent as this module first loads (early in
 * the command's start-up, before it serves). Known limit: without the variable, a parent that exits before then (a
 * script that starts a node with `&` and ends at once) is not seen: the process is already init's, as one started
 * detached would be, and runs on.
 */
const STARTED_UNDER = namedParent(process.env) ?? process.ppid;

/** `--on-parent-exit`: what a command does when the process that started it exits. */
export const ON_PARENT_EXIT = ['stop', 'run'] as const;
export type OnParentExit = (typeof ON_PARENT_EXIT)[number];

/**
 * The default of `--on-parent-exit`: `stop` under npm (npx, npm run: npm sets npm_command for what it
 * runs), `run` otherwise. A devnet tells its nodes `stop` itself.
 */
export function defaultOnParentExit(env: NodeJS.ProcessEnv = process.env): OnParentExit {
  return env.npm_command !== undefined && env.npm_command !== '' ? 'stop' : 'run';
}

export interface UntilStoppedOptions {
  /** Also stop when the parent process exits (`--on-parent-exit stop`). */
  watchParent: boolean;
  /** A second signal while stopping: called instead of waiting (the command exits at once). */
  onSecondSignal: (signal: NodeJS.Signals) => void;
}

/**
 * Resolves with why the command should stop, the first time it should: `SIGINT`, `SIGTERM`, or "the
 * process that started it (pid N) exited". A signal after that calls `onSecondSignal`.
 */
export function untilStopped(options: UntilStoppedOptions): Promise<string> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (reason: string): void => {
      if (stopping) return;
      stopping = true;
      clearInterval(watch);
      resolve(reason);
    };
    const onSignal = (signal: NodeJS.Signals): void => {
      if (stopping) options.onSecondSignal(signal);
      else stop(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const parent = STARTED_UNDER;
    const look = (): void => {
      if (process.ppid !== parent) stop(`the process that started it (pid ${parent}) exited`);
    };
    const watch = setInterval(look, PARENT_POLL_MS);
    watch.unref();
    // A process whose parent was init from the start (pid 1: a service manager, or started detached) has none to lose.
    if (!options.watchParent || parent === 1) clearInterval(watch);
    else look();
  });
}

/** How long a stop may take before the command gives up on it and exits. */
export const STOP_DEADLINE_MS = 20_000;
/** After a stop that finished, how long the process may take to wind down before it exits anyway. */
export const WIND_DOWN_MS = 3_000;

/**
 * Runs `stop`, bounded: a stop that has not finished within STOP_DEADLINE_MS is given up on (said on stderr) and
 * the process exits with 4 (internal error: a stop that hangs is a bug); once it has finished, whatever still holds the event loop (a socket a peer
 * keeps open, a timer of a library) gets WIND_DOWN_MS, then the process exits with `code` anyway. A command
 * told to stop always ends. `exit` is process.exit, replaceable in tests.
 */
export async function stopBounded(stop: () => Promise<void>, code: number, log: (line: string) => void, exit: (code: number) => void = (c) => process.exit(c)): Promise<number> {
  const deadline = setTimeout(() => {
    log(`stopping did not finish in ${STOP_DEADLINE_MS / 1_000} s: exiting now (a bug: please report it)`);
    exit(EXIT.internal);
  }, STOP_DEADLINE_MS);
  try {
    await stop();
  } catch (err) {
    log(`stop failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    clearTimeout(deadline);
  }
  // Unref'd: it fires only if something else keeps the process alive.
  setTimeout(() => {
    log(`stopped, but something still held the process ${WIND_DOWN_MS / 1_000} s later: exiting now`);
    exit(code);
  }, WIND_DOWN_MS).unref();
  return code;
}
