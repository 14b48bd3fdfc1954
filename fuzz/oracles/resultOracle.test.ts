import { describe, expect, it } from 'vitest';
import type { Profile } from '../../profile/Profile.js';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { errorViolations, resultViolations } from './resultOracle.js';

const REF = referenceProfile();
const HASH = 'ab'.repeat(32);

describe('resultViolations', () => {
  it('says the genesis block\'s problems by the profile\'s genesis forms (an empty parent_hash it allows is no problem)', () => {
    const profile: Profile = { ...REF, genesisBlock: { ...REF.genesisBlock, parent_hash: 'empty' } };
    const genesis = { height: 0, hash: HASH, parent_hash: '', timestamp: 0, proposer: '0'.repeat(64), transaction_count: 'zero', transactions: [] };
    const [v] = resultViolations('chain_getBlockByHeight', genesis, profile, { what: 'chain_getBlockByHeight [0]' });
    expect(v?.message).toContain('/transaction_count');
    expect(v?.message).not.toContain('parent_hash');
    expect(resultViolations('chain_getBlockByHeight', { ...genesis, transaction_count: 0 }, profile, { what: 'x' })).toEqual([]);
  });

  it('says a code given as a string is of the wrong type', () => {
    const [v] = errorViolations('chain_getAccount', { code: '-32040', message: 'no account' }, { ...REF, unknownAccount: 'error' }, { what: 'chain_getAccount ["ab"]' });
    expect(v?.message).toContain('with an error whose code is "-32040", a string, not an integer');
  });
});
