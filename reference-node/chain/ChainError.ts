/**
 * Admission and faucet refusals. `name` is the errors.schema.json definition name and `data` is
 * that definition's `data` (reason included), so the RPC layer maps name -> code and passes data
 * through unchanged. u64 fields are numbers when exact, else bigint; amounts are decimal strings.
 */
type U64Json = number | bigint;

export interface ChainErrorDataMap {
  TxMalformed: { reason: string };
  TxWrongChain: { reason: string; expected: U64Json; actual: U64Json };
  TxBadSignature: { reason: string };
  NonceTooLow: { reason: string; expected: U64Json; actual: U64Json };
  NonceGap: { reason: string; expected: U64Json; actual: U64Json };
  InsufficientBalance: { reason: string; available: string; required: string };
  AmountOverflow: { reason: string };
  TxDuplicate: { reason: string; hash: string };
  MempoolFull: { reason: string; limit: U64Json };
  FaucetLimit: { reason: string; address: string; limit: U64Json };
  FaucetUnavailable: { reason: string };
}

export type ChainErrorName = keyof ChainErrorDataMap;

export class ChainError<N extends ChainErrorName = ChainErrorName> extends Error {
  override readonly name: N;
  readonly data: ChainErrorDataMap[N];

  constructor(name: N, data: ChainErrorDataMap[N]) {
    super(data.reason);
    this.name = name;
    this.data = data;
  }
}

export function isChainError(error: unknown): error is ChainError {
  return error instanceof ChainError;
}
