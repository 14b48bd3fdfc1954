// Public API of the reference-profile transaction codec. See docs/transaction-codec.md.
export { CodecError, isCodecError } from './CodecError.js';
export type { CodecErrorCode } from './CodecError.js';
export { bytesToHex, hexToBytes, hexToFixedBytes } from './hex.js';
export { formatU128, parseU128, U128_MAX, U64_MAX } from './u128.js';
export { BASE_UNITS_PER_TOKEN, formatTokens, parseTokens, TOKEN_DECIMALS } from './tokens.js';
export {
  addressOf,
  generateKeypair,
  generatePrivateKey,
  KEY_DOMAIN_TAG,
  keypairFromSeed,
  keypairOf,
  parseAddress,
  privateKeyFromSeed,
  publicKeyOf,
} from './keys.js';
export type { Keypair } from './keys.js';
export {
  SIGNATURE_LENGTH,
  TX_BODY_LENGTH,
  TX_DOMAIN_TAG,
  TX_FIELDS,
  TX_SIGNING_MESSAGE_LENGTH,
  TX_VERSION,
  TX_WIRE_LENGTH,
} from './layout.js';
export type {
  SignedTransaction,
  TransactionRequest,
  TransactionVerifyCode,
  TransactionVerifyResult,
  UnsignedTransaction,
} from './types.js';
export { encodeTransactionBody } from './encodeTransactionBody.js';
export { signingMessage, signingMessageForBody } from './signingMessage.js';
export { signTransaction } from './signTransaction.js';
export type { TransactionToSign } from './signTransaction.js';
export { createTransactionSigner } from './createTransactionSigner.js';
export { createMessageSigner } from './createMessageSigner.js';
export type { MessageSigner } from './createMessageSigner.js';
export type { TransactionSigner } from './createTransactionSigner.js';
export { encodeSignedTransaction } from './encodeSignedTransaction.js';
export { decodeTransaction } from './decodeTransaction.js';
export { transactionHash } from './transactionHash.js';
export { verifyTransaction, verifyTransactionOffThread } from './verifyTransaction.js';
export type { TransactionToVerify } from './verifyTransaction.js';
export { verifyStrict, verifyStrictDetailed } from './strictVerify.js';
export { verifyStrictOffThread } from './offThreadVerify.js';
export type { StrictVerifyCode, StrictVerifyResult } from './strictVerify.js';
export { KEY_OBJECT_CACHE_SIZE, publicKeyObject } from './keyObjectCache.js';
// Deliberately bad signatures, for tests and for conformance checks that a node refuses them.
export {
  challenge,
  IDENTITY,
  IDENTITY_NON_CANONICAL,
  identityRSignature,
  L as ED25519_ORDER_L,
  P as ED25519_FIELD_P,
  signatureFrom,
  withSPlusL,
} from './craftSignature.js';
