// Public API of the reference node's chain state machine. See docs/chain.md.
export { Chain, DEFAULT_FAUCET_AMOUNT, DEFAULT_FAUCET_LIMIT } from './Chain.js';
export type { BlockDraft, ChainOpenOptions, FaucetClaimOptions, FaucetSettings } from './Chain.js';
export { ChainError, isChainError } from './ChainError.js';
export type { ChainErrorDataMap, ChainErrorName } from './ChainError.js';
export { BlockRejectedError } from './BlockRejectedError.js';
export { BLOCK_DOMAIN_TAG, blockHash, blockHashBytes, encodeBlockHeader, pouRoot, txRoot } from './blockHash.js';
export type { HashedHeader } from './blockHash.js';
export { createBlockSigner, signBlock, verifyBlockSignature } from './signBlock.js';
export type { BlockSignatureCheck } from './signBlock.js';
export { DEVNET_FAUCET_BALANCE, DEVNET_FAUCET_SEED, devnetFaucetKeypair, devnetGenesis, genesisBlock, resolveGenesis } from './genesis.js';
export type { ResolvedGenesis } from './genesis.js';
export { toRpcBlock } from './toRpcBlock.js';
export { decodeBlockWire, encodeBlockWire, MAX_WIRE_BLOCK_TRANSACTIONS, MAX_WIRE_POU_ENTRIES } from './blockWire.js';
export { accountEntry, computeStateRoot, faucetEntry, stateRootHex } from './stateRoot.js';
export { applyTransaction } from './applyTransaction.js';
export type { ApplyResult } from './applyTransaction.js';
export { EMPTY_ACCOUNT, StateDraft, WorldState } from './WorldState.js';
export type { StateChanges, StateReader } from './WorldState.js';
export { DEFAULT_LIMITS } from './types.js';
export type {
  Account,
  Block,
  BlockHeader,
  ChainLimits,
  FaucetClaim,
  GenesisAllocation,
  GenesisConfig,
  ImportResult,
  ProduceOptions,
  ProposalRule,
  ResolvedLimits,
  RpcBlock,
  SubmitOutcome,
  SubmitSource,
  TransactionStatus,
} from './types.js';
// The store's errors, so the node can catch everything Chain.open throws from one module.
export { GenesisMismatchError, StoreDamagedError, StoreLockedError } from '../store/index.js';
export { REFERENCE_CHAIN_RULES } from './ChainRules.js';
export type { ChainRules } from './ChainRules.js';
