import { describe, expect, it } from 'vitest';
import { wireMethod } from '../Profile.js';
import { faucetCandidates, matchMethodNames, prefixBefore, SPEC_METHODS, specSuffix } from './matchMethodNames.js';

const REFERENCE = [...SPEC_METHODS, 'rpc.discover'];

describe('prefixBefore', () => {
  it('finds the prefix in front of a suffix in any case and with any separators', () => {
    expect(prefixBefore('chain_getAccount', 'getAccount')).toBe('chain_');
    expect(prefixBefore('acme.get_account', 'getAccount')).toBe('acme.');
    expect(prefixBefore('ACME_GET_ACCOUNT', 'getAccount')).toBe('ACME_');
    expect(prefixBefore('acmeGetAccount', 'getAccount')).toBe('acme');
    expect(prefixBefore('getAccount', 'getAccount')).toBe('');
  });

  it('needs a word boundary and the whole suffix', () => {
    expect(prefixBefore('chain_xhealth', 'health')).toBeUndefined();
    expect(prefixBefore('chain_getAccounts', 'getAccount')).toBeUndefined();
    expect(prefixBefore('chain_health', 'blockNumber')).toBeUndefined();
  });
});

describe('matchMethodNames', () => {
  it('reads the reference node\'s list as the reference profile', () => {
    const m = matchMethodNames(REFERENCE);
    expect(m.methodPrefix).toBe('chain_');
    expect(m.methodNames).toEqual({});
    expect(Object.keys(m.wire).sort()).toEqual([...SPEC_METHODS].sort());
  });

  it('takes the most common prefix; net_peerCount keeps its own name', () => {
    // Every spec method under acme_ (net_peerCount is not under chain_: it keeps its name).
    const m = matchMethodNames([...SPEC_METHODS.map((s) => (s.startsWith('chain_') ? `acme_${specSuffix(s)}` : s)), 'rpc.discover']);
    expect(m.methodPrefix).toBe('acme_');
    expect(m.methodNames).toEqual({});
    for (const spec of SPEC_METHODS) expect(wireMethod(m, spec)).toBe(m.wire[spec]);
  });

  it('names the methods the prefix does not produce exactly (other separators, other case, odd ones out)', () => {
    const odd: Record<string, string> = {
      chain_blockNumber: 'acme.block_number',
      chain_getBlockByHeight: 'acme.get_block_by_height',
      chain_getAccount: 'acme.get_account',
      net_peerCount: 'acme.peer_count',
    };
    // Every spec method: the odd ones as above, the others under acme. as the spec spells them.
    const m = matchMethodNames(SPEC_METHODS.map((s) => odd[s] ?? `acme.${specSuffix(s)}`));
    expect(m.methodPrefix).toBe('acme.');
    expect(m.methodNames).toEqual(odd);
    for (const spec of SPEC_METHODS) expect(wireMethod(m, spec)).toBe(m.wire[spec]);
  });

  it('prefers the majority prefix when a method is listed twice, and a lone rename stays a rename', () => {
    const m = matchMethodNames(['acme_health', 'chain_health', 'acme_blockNumber', 'acme_getAccount', 'legacy_getBlockByHeight']);
    expect(m.methodPrefix).toBe('acme_');
    expect(m.wire.chain_health).toBe('acme_health');
    expect(m.methodNames).toEqual({ chain_getBlockByHeight: 'legacy_getBlockByHeight' });
    expect(m.wire.chain_pouLocal).toBeUndefined();
  });

  it('a prefix a profile file cannot hold becomes explicit names', () => {
    const m = matchMethodNames(['acme-health', 'acme-blockNumber']);
    expect(m.methodPrefix).toBe('chain_');
    expect(m.methodNames).toEqual({ chain_health: 'acme-health', chain_blockNumber: 'acme-blockNumber' });
  });

  it('finds a faucet listed under another name nodes give it, under the prefix or in a namespace of its own', () => {
    const acme = ['acme_health', 'acme_blockNumber', 'acme_getBlockByHeight', 'acme_getAccount', 'acme_faucet', 'net_peerCount'];
    const m = matchMethodNames(acme);
    expect([m.methodPrefix, m.methodNames]).toEqual(['acme_', { chain_faucetClaim: 'acme_faucet' }]);
    expect(wireMethod(m, 'chain_faucetClaim')).toBe('acme_faucet');
    expect(matchMethodNames(['acme_health', 'acme_blockNumber', 'acme.request_funds']).methodNames).toEqual({ chain_faucetClaim: 'acme.request_funds' });
    expect(matchMethodNames(['acme_health', 'acme_blockNumber', 'faucet_claim']).methodNames).toEqual({ chain_faucetClaim: 'faucet_claim' });
    // The spec's own suffix wins over an alias; a method named like no faucet is no faucet.
    expect(matchMethodNames([...acme, 'acme_faucetClaim']).methodNames).toEqual({});
    expect(matchMethodNames(['acme_health', 'acme_faucets', 'acme_refund']).wire.chain_faucetClaim).toBeUndefined();
  });

  it('an empty list matches nothing', () => {
    expect(matchMethodNames([])).toEqual({ methodPrefix: 'chain_', methodNames: {}, wire: {}, candidates: {} });
  });
});

describe('faucetCandidates', () => {
  it('the names nodes give a faucet under the prefix, then in a namespace of their own, each once', () => {
    const names = faucetCandidates('acme_');
    expect(names.slice(0, 3)).toEqual(['acme_faucet', 'acme_requestFunds', 'acme_fundAddress']);
    expect(names).toContain('faucet_claim');
    expect(names).toContain('requestAirdrop');
    expect(names).not.toContain('acme_faucetClaim');
    expect(new Set(names).size).toBe(names.length);
    expect(faucetCandidates('').filter((n) => n === 'faucet')).toHaveLength(1);
  });
});
