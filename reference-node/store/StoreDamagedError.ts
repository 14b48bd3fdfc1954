/**
 * The data directory's contents are not a chain this node can trust. Never serve from it: the
 * message names the problem and the directory and says how to recover.
 */
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
export class StoreDamagedError extends ChainrpcError {
  override readonly name = 'StoreDamagedError';
  readonly kind = 'configuration';

  constructor(
    readonly dataDir: string,
    /** What is wrong, e.g. "block 12: parent hash does not match block 11". */
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(
      `the chain store in ${dataDir} is damaged: ${problem}. The node will not serve from it. ` +
        `To recover, stop the node, remove the data directory (rm -rf ${JSON.stringify(dataDir)}) and start it again: ` +
        'it starts from genesis and resyncs the chain from its peers (a single node starts a fresh chain).',
      options,
    );
  }
}
