/** The data directory holds another chain than the one this node is configured for. */
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
export class GenesisMismatchError extends ChainrpcError {
  override readonly name = 'GenesisMismatchError';
  readonly kind = 'configuration';

  constructor(
    readonly dataDir: string,
    readonly stored: { readonly chainId: bigint; readonly genesisHash: string; readonly faucetAddress: string },
    readonly configured: { readonly chainId: bigint; readonly genesisHash: string; readonly faucetAddress: string },
  ) {
    super(
      `the data directory ${dataDir} holds chain id ${stored.chainId} (genesis ${stored.genesisHash}, faucet ${stored.faucetAddress}), ` +
        `but this node is configured for chain id ${configured.chainId} (genesis ${configured.genesisHash}, faucet ${configured.faucetAddress}). ` +
        'Start the node with the configuration that created this directory, or use another data directory (or remove this one to start over).',
    );
  }
}
