import type { JsonValue } from '../../core/json/index.js';
import { GENESIS_ZEROS } from '../Profile.js';
import type { GenesisBlock, GenesisHashForm, GenesisTimeForm } from '../Profile.js';
import { showJson } from './describe.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { fieldOf, RESULT_FIELDS } from './findKeys.js';
import { integerOf } from './integerOf.js';
import { isObject } from './Prober.js';

const ZEROS_64 = '0'.repeat(64);

/** How the genesis block wrote a hash or identifier (undefined: no such key). */
export function genesisHashForm(value: JsonValue | undefined): GenesisHashForm {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (value === '') return 'empty';
  return value === ZEROS_64 ? 'zeros' : 'any';
}

/** How the genesis block wrote its parent_hash, a hash, which may carry a 0x (hashPrefix): 0x and 64 zeros are zeros too (an identifier never is). */
export const genesisParentHashForm = (value: JsonValue | undefined): GenesisHashForm => (value === `0x${ZEROS_64}` ? 'zeros' : genesisHashForm(value));

/** How the genesis block wrote its timestamp: 0 (any integer form, or the epoch as ISO 8601), another value, null, or no key. */
export function genesisTimeForm(value: JsonValue | undefined): GenesisTimeForm {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (integerOf(value)?.value === 0n || (typeof value === 'string' && Date.parse(value) === 0)) return 'zero';
  return 'any';
}

/**
 * genesisBlock: what the genesis block (at the genesis height just found) writes as parent_hash,
 * proposer and timestamp, the fields no earlier block can fill: 64 zeros (the reference), an empty
 * string, null, no key, or a value like any other block's. `where` names the block for the evidence.
 */
export function decideGenesisBlock(block: JsonValue | undefined, where: string): Finding {
  if (!isObject(block)) return fallback('genesisBlock', { ...GENESIS_ZEROS }, 'no genesis block was read');
  const field = (name: string): JsonValue | undefined => fieldOf(block, RESULT_FIELDS.block, name);
  const value: GenesisBlock = {
    parent_hash: genesisParentHashForm(field('parent_hash')),
    proposer: genesisHashForm(field('proposer')),
    timestamp: genesisTimeForm(field('timestamp')),
  };
  const seen = (Object.keys(value) as Array<keyof GenesisBlock>).map((name) => `${name} ${showJson(field(name), 24)} (${value[name]})`);
  return probed('genesisBlock', { ...value }, 'high', `${where}: ${seen.join(', ')}`);
}
