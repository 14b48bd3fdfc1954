// The reference node's crash-safe key-value store (LevelDB, checksummed values), knowing nothing of the
// chain: the chain's records on it are chain/ChainStore.ts. See docs/chain.md, "Store layout" and "Commit protocol".
export { LevelStore } from './LevelStore.js';
export type { StoreWrite } from './LevelStore.js';
export { CHECKSUM_LENGTH, sealValue, unsealValue } from './valueChecksum.js';
export { StoreDamagedError } from './StoreDamagedError.js';
export { StoreLockedError } from './StoreLockedError.js';
export { GenesisMismatchError } from './GenesisMismatchError.js';
