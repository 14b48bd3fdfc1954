// The reference node's crash-safe store. See docs/chain.md, "Store layout" and "Commit protocol".
export { LevelStore } from './LevelStore.js';
export type { StoreWrite } from './LevelStore.js';
export { ChainStore, STORE_FORMAT, KEY_META, KEY_TIP, accountKey, blockKey, faucetKey, txKey } from './ChainStore.js';
export type { ChainMeta, StoredTip, TxLocation } from './ChainStore.js';
export { decodeBlockRecord, encodeBlockRecord } from './blockRecord.js';
export { CHECKSUM_LENGTH, sealValue, unsealValue } from './valueChecksum.js';
export { StoreDamagedError } from './StoreDamagedError.js';
export { StoreLockedError } from './StoreLockedError.js';
export { GenesisMismatchError } from './GenesisMismatchError.js';
