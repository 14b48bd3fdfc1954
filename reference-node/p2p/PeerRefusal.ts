/**
 * A peer message refused: the HTTP status the peer protocol answers with and the reason, sent back
 * to the peer and logged. 400 malformed, 401 bad signature, 403 not allowed (not a member, not the
 * leader), 409 another chain, replayed, stale or from the future, 413 too large, 429 no room.
 */
export class PeerRefusal extends Error {
  override readonly name = 'PeerRefusal';

  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(reason);
  }
}
