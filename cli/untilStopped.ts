/**
 * How a long-running command (`node`, `devnet`) learns it should stop: SIGINT or SIGTERM, or the process
 * that started it exiting. The last matters more than it looks: `npx chainrpc node` runs the node under
 * `npm exec` and a shell, and a SIGTERM to the npx PID (the one a user's script holds) ends npm and the
 * shell but reaches no further, so without this watch the node runs on, orphaned, holding its ports. The
 * same watch ends a devnet's nodes when the devnet is killed outright (SIGKILL), and a test's nodes when
 * its runner dies. A node started from a shell with `&` keeps running after that shell, as anything
 * started so does (a CI step that starts a node for the next step relies on it).
 */

/** How often the parent is looked at: a stop is seen within this. */
export const PARENT_POLL_MS = 500;

/**
 * The parent as this module first loads (early in the command's start-up, before it serves). Known limit: a
 * parent that exits before then (a script that starts a node with `&` and ends at once) is not seen: the process
 * is already init's, as one started detached would be, and runs on.
 */
const STARTED_UNDER = process.ppid;

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
