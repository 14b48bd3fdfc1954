/**
 * The environment variable in which a process that starts a node names itself (a devnet does:
 * reference-node/devnet/startDevnet.ts spawnNode), so that a node whose parent dies before the node has even
 * loaded still knows it was started under it, and stops (cli/untilStopped.ts reads it once and removes it).
 */
export const PARENT_PID_ENV = 'CHAINRPC_PARENT_PID';
