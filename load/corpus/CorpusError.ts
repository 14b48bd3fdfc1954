/** A corpus that cannot be made or read, in words the user can act on (the CLI exits 2). */
export class CorpusError extends Error {
  override readonly name = 'CorpusError';
}
