import { REFERENCE_SETTINGS } from '../../core/referenceSettings.js';

/** Defaults of a reference node; `chainrpc node --help` prints them. The profile's settings come from core/referenceSettings.ts. */
export const NODE_DEFAULTS = {
  ...REFERENCE_SETTINGS,
  port: 8545,
  host: '127.0.0.1',
  p2pPort: 30545,
  p2pHost: '127.0.0.1',
  dataDir: '.chainrpc/node',
  chainId: 1n,
  maxBlockTransactions: 2000,
  maxPending: 100_000,
  requestTimeoutMs: 15_000,
} as const;
