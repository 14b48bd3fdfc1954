/** A block from a peer (or the wire) that is invalid: the node logs it and does not import it. */
export class BlockRejectedError extends Error {
  override readonly name = 'BlockRejectedError';

  constructor(
    readonly reason: string,
    /** Height and hash as claimed by the block, when known. */
    readonly height?: bigint,
    readonly hash?: string,
  ) {
    super(height === undefined ? `block rejected: ${reason}` : `block ${height}${hash === undefined ? '' : ` (${hash})`} rejected: ${reason}`);
  }
}
