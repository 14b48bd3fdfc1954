/**
 * A corpus file, or the options of a corpus or of its source, that is wrong as given, in words the user can
 * act on (usage: exit 2). What the node refused while the senders were made ready is a FundingError.
 */
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
export class CorpusError extends ChainrpcError {
  override readonly name = 'CorpusError';
  readonly kind = 'usage';
}

/**
 * The senders of a corpus or a load run could not be made ready on the node: an account it answered without
 * a readable balance and nonce, a faucet or a transfer it refused, funds that never arrived, a nonce too high
 * (the node is wrong or refused: exit 1).
 */
export class FundingError extends ChainrpcError {
  override readonly name = 'FundingError';
  readonly kind = 'node';
}
