/** Another process (or another open store in this process) holds the data directory's LevelDB lock. */
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
export class StoreLockedError extends ChainrpcError {
  override readonly name = 'StoreLockedError';
  readonly kind = 'configuration';

  constructor(readonly dataDir: string, options?: ErrorOptions) {
    super(
      `the data directory ${dataDir} is already in use by another node process (its LevelDB LOCK file is held). ` +
        'Stop that process, or give this node a data directory of its own.',
      options,
    );
  }
}
