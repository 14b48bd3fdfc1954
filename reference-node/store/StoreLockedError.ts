/** Another process (or another open store in this process) holds the data directory's LevelDB lock. */
export class StoreLockedError extends Error {
  override readonly name = 'StoreLockedError';

  constructor(readonly dataDir: string, options?: ErrorOptions) {
    super(
      `the data directory ${dataDir} is already in use by another node process (its LevelDB LOCK file is held). ` +
        'Stop that process, or give this node a data directory of its own.',
      options,
    );
  }
}
