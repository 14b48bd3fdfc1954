/**
 * Proof-of-usage faults: scores, leaders and peers as the methods show them. TEST-ONLY: each fault makes a reference node deliberately wrong (docs/faults.md).
 */
import { jsonInteger } from '../../core/json/index.js';
import { allOf, isObject, mapResult, text } from './bends.js';
import type { Fault } from './bends.js';

export const POU_FAULTS = [
  {
    name: 'two-leaders',
    category: 'pou',
    description: 'chain_pouLocal says local_is_leader true with leader = itself, whoever leads: on a network of several MNs two or more claim to lead.',
    rule: 'One leader per network: every node names the same leader, and only it says local_is_leader (profile: Proof of usage).',
    level: 'SHOULD',
    scope: 'network',
    bend: { methods: mapResult('chain_pouLocal', (r, node) => ({ ...r, leader: node.id, local_is_leader: true })) },
  },
  {
    name: 'peers-empty',
    category: 'pou',
    description: 'chain_pouPeers returns an empty map while the node has live peers (net_peerCount still counts them).',
    rule: 'chain_pouPeers lists every live peer; net_peerCount is its size (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'network',
    bend: { methods: mapResult('chain_pouPeers', () => ({ peers: {} })) },
  },
  {
    name: 'peers-list-self',
    category: 'pou',
    description: 'The node counts itself among its peers: chain_pouPeers lists its own identifier with its score, and net_peerCount counts it (the two agree).',
    rule: 'chain_pouPeers lists every live peer the node knows, itself excluded (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'node',
    bend: {
      methods: allOf(
        mapResult('chain_pouPeers', (r, node) => ({ ...r, peers: { ...(isObject(r.peers) ? r.peers : {}), [node.id]: jsonInteger(node.score()) } })),
        mapResult<number>('net_peerCount', (n) => n + 1),
      ),
    },
  },
  {
    name: 'peer-count-off',
    category: 'pou',
    description: 'net_peerCount answers the number of live peers + 1 (1 on a lone node, which has none).',
    rule: 'net_peerCount is the number of live peers, itself excluded: the size of chain_pouPeers\' map (profile).',
    level: 'PROFILE',
    scope: 'node',
    bend: { methods: mapResult<number>('net_peerCount', (n) => n + 1) },
  },
  {
    name: 'leader-not-hex',
    category: 'pou',
    description: 'chain_pouLocal returns leader as a JSON number (the first 12 hex digits read as an integer) instead of a 64-hex string.',
    rule: 'leader is the 64-hex identifier of the leader, or null (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'node',
    bend: { methods: mapResult('chain_pouLocal', (r) => (typeof r.leader === 'string' ? { ...r, leader: Number.parseInt(r.leader.slice(0, 12), 16) } : r)) },
  },
  {
    name: 'score-negative',
    category: 'pou',
    description: 'chain_pouLocal returns local_score as a negative number (-score - 1).',
    rule: 'local_score is a non-negative integer (profile: Results the spec leaves unshown).',
    level: 'PROFILE',
    scope: 'node',
    bend: { methods: mapResult('chain_pouLocal', (r) => ({ ...r, local_score: jsonInteger(-BigInt(r.local_score as number | bigint) - 1n) })) },
  },
  {
    name: 'pou-flag-string',
    category: 'pou',
    description: 'chain_pouLocal returns local_is_leader as a string ("true" / "false").',
    rule: 'local_is_leader is a boolean (spec: Resources > PoU local status).',
    level: 'MUST',
    scope: 'node',
    bend: { methods: mapResult('chain_pouLocal', (r) => ({ ...r, local_is_leader: text(r.local_is_leader) })) },
  },
  {
    name: 'peers-as-list',
    category: 'pou',
    description: 'chain_pouPeers returns peers as an array of identifiers instead of a map to scores.',
    rule: 'peers maps identifiers to scores (spec: Resources > PoU peers).',
    level: 'MUST',
    scope: 'node',
    bend: { methods: mapResult('chain_pouPeers', (r) => ({ peers: isObject(r.peers) ? Object.keys(r.peers) : [] })) },
  },
  {
    name: 'peer-score-fraction',
    category: 'pou',
    description: 'chain_pouPeers reports each score plus 0.5.',
    rule: 'Scores are non-negative integers (profile; the spec only asks for an orderable number).',
    level: 'PROFILE',
    scope: 'network',
    bend: { methods: mapResult('chain_pouPeers', (r) => ({ peers: Object.fromEntries(Object.entries(isObject(r.peers) ? r.peers : {}).map(([id, score]) => [id, Number(score) + 0.5])) })) },
  },
  {
    name: 'peer-count-hex',
    category: 'pou',
    description: 'net_peerCount answers the count as a hex quantity ("0x2") instead of a JSON number: a legal encoding of an integer, not the one the reference profile writes.',
    rule: 'net_peerCount is a u64 written as a JSON number (profile: Results the spec leaves unshown, Wire names and encodings); the spec does not show its result.',
    level: 'PROFILE',
    scope: 'node',
    bend: { methods: mapResult<number>('net_peerCount', (n) => `0x${n.toString(16)}`) },
  },
  {
    name: 'peer-count-negative',
    category: 'pou',
    description: 'net_peerCount answers a negative number (-1 - the number of live peers).',
    rule: 'A peer count is a non-negative integer (sound: "read the peer count"; the spec does not show its type).',
    level: 'SHOULD',
    scope: 'node',
    bend: { methods: mapResult<number>('net_peerCount', (n) => -1 - n) },
  },
] as const satisfies readonly Fault[];
