import { describe, expect, it } from 'vitest';
import { parseJson, type JsonValue } from '../core/json/index.js';
import { agreementFor, canonicalAnswer, disagreement } from './compareAnswers.js';
import type { Profile } from './Profile.js';
import { referenceProfile } from './referenceProfile.js';

const ref = referenceProfile();
/** A node with other legal choices: camelCase keys, integers in hex, identifiers with 0x in upper case, ISO timestamps, a null for a missing block, its own code for BlockNotFound. */
const other: Profile = { ...referenceProfile(), name: 'other', keyCase: 'camelCase', integers: 'hex', timestamps: 'iso8601', unknownHeight: 'null', errorCodes: { ...ref.errorCodes, BlockNotFound: -39001 } };
const json = (text: string): JsonValue => parseJson(text);

const block = json('{"height":7,"hash":"ab12' + '00'.repeat(30) + '","parent_hash":"' + 'cd'.repeat(32) + '","timestamp":1764201600000,"transactions":[]}');
const sameBlockOther = json('{"height":"0x7","hash":"0xAB12' + '00'.repeat(30) + '","parentHash":"0x' + 'CD'.repeat(32) + '","timestamp":"2025-11-27T00:00:00.000Z","transactions":[]}');

describe('compareAnswers', () => {
  it('reads each node under its own profile: the same block spelt two legal ways is one answer', () => {
    expect(canonicalAnswer(ref, 'chain_getBlockByHeight', { result: block })).toEqual(canonicalAnswer(other, 'chain_getBlockByHeight', { result: sameBlockOther }));
    expect(disagreement('exact', 'chain_getBlockByHeight', { profile: ref, answer: { result: block } }, { profile: other, answer: { result: sameBlockOther } })).toBeUndefined();
    // A missing block: the reference's error and the other node's null are one answer.
    expect(disagreement('exact', 'chain_getBlockByHeight', { profile: ref, answer: { error: -32001 } }, { profile: other, answer: { result: null } })).toBeUndefined();
    expect(disagreement('exact', 'chain_getBlockByHeight', { profile: ref, answer: { error: -32001 } }, { profile: other, answer: { error: -39001 } })).toBeUndefined();
  });

  it('finds another value, a result against an error, another error, another shape', () => {
    const changed = json(JSON.stringify(block).replace('"height":7', '"height":8'));
    expect(disagreement('exact', 'chain_getBlockByHeight', { profile: ref, answer: { result: block } }, { profile: ref, answer: { result: changed } })).toMatch(/different results/);
    expect(disagreement('exact', 'chain_getAccount', { profile: ref, answer: { result: block } }, { profile: ref, answer: { error: -32602 } })).toMatch(/one node answered a result, the other the error InvalidParams/);
    expect(disagreement('shape', 'chain_blockNumber', { profile: ref, answer: { result: 5 } }, { profile: other, answer: { result: '0x6' } })).toBeUndefined();
    expect(disagreement('shape', 'chain_health', { profile: ref, answer: { result: json('{"status":"ok","height":5}') } }, { profile: ref, answer: { result: json('{"status":"ok"}') } })).toMatch(/different shapes/);
    // Scores by peer: two nodes see other peers (and one may see none yet); the shape is a map either way.
    const peers = (ids: string[]): JsonValue => json(JSON.stringify({ peers: Object.fromEntries(ids.map((id, i) => [id, i + 1])) }));
    expect(disagreement('shape', 'chain_pouPeers', { profile: ref, answer: { result: peers(['a4'.repeat(32)]) } }, { profile: ref, answer: { result: peers(['41'.repeat(32), 'cc'.repeat(32)]) } })).toBeUndefined();
    expect(disagreement('shape', 'chain_pouPeers', { profile: ref, answer: { result: peers(['a4'.repeat(32)]) } }, { profile: ref, answer: { result: peers([]) } })).toBeUndefined();
    expect(disagreement('shape', 'chain_pouPeers', { profile: ref, answer: { result: peers(['a4'.repeat(32)]) } }, { profile: ref, answer: { result: json('{"peers":[]}') } })).toMatch(/different shapes/);
    // Peer identifiers are any string of 16 characters or more (the spec), not only hex.
    expect(disagreement('shape', 'chain_pouPeers', { profile: ref, answer: { result: peers(['ab'.repeat(16)]) } }, { profile: ref, answer: { result: peers(['node-ef-ef-ef-ef-ef']) } })).toBeUndefined();
    // The peer count however each profile writes it (peerCountResult): the count, a decimal string, an object's count.
    const decimal: Profile = { ...ref, peerCountResult: 'decimal' };
    const boxed: Profile = { ...other, peerCountResult: 'object' };
    expect(disagreement('shape', 'net_peerCount', { profile: ref, answer: { result: 2 } }, { profile: decimal, answer: { result: '3' } })).toBeUndefined();
    expect(disagreement('shape', 'net_peerCount', { profile: decimal, answer: { result: '3' } }, { profile: boxed, answer: { result: json('{"count":"0x3"}') } })).toBeUndefined();
    expect(canonicalAnswer(boxed, 'net_peerCount', { result: json('{"count":"0x3"}') })).toEqual(canonicalAnswer(decimal, 'net_peerCount', { result: '3' }));
    expect(disagreement('shape', 'net_peerCount', { profile: decimal, answer: { result: '3' } }, { profile: boxed, answer: { result: json('{"peers":3}') } })).toMatch(/different shapes/);
    expect(disagreement('none', 'chain_faucetClaim', { profile: ref, answer: { result: 1 } }, { profile: ref, answer: { error: -32000 } })).toBeUndefined();
  });

  it('compares blocks both have exactly, blocks near the head not at all, the head and other volatile reads by shape', () => {
    expect(agreementFor('chain_getBlockByHeight', [10], 100n)).toBe('exact');
    expect(agreementFor('chain_getBlockByHeight', ['0x63'], 100n)).toBe('none');
    expect(agreementFor('chain_getBlockByHeight', [10_000], 100n)).toBe('shape');
    expect(agreementFor('chain_getBlockByHeight', [10], undefined)).toBe('none');
    expect(agreementFor('chain_getBlockByHeight', ['x'], undefined)).toBe('exact');
    expect(['chain_blockNumber', 'chain_health', 'chain_pouLocal', 'chain_pouPeers', 'net_peerCount'].map((m) => agreementFor(m, [], 1n))).toEqual(Array(5).fill('shape'));
    expect(agreementFor('chain_getAccount', ['ab'], 1n)).toBe('exact');
    expect([agreementFor('chain_sendRawTransaction', ['ab'], 1n), agreementFor('chain_faucetClaim', ['ab'], 1n)]).toEqual(['none', 'none']);
  });
});
