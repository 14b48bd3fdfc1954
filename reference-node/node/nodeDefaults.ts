/** Defaults of a reference node; `chainrpc node --help` prints them. */
export const NODE_DEFAULTS = {
  port: 8545,
  host: '127.0.0.1',
  dataDir: '.chainrpc/node',
  blockTimeMs: 1000,
  chainId: 1n,
  faucetLimit: 1,
  maxBodyBytes: 1024 * 1024,
  maxBatch: 1000,
  maxBlockTransactions: 2000,
  maxPending: 100_000,
  requestTimeoutMs: 15_000,
} as const;
