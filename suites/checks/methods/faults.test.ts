/**
 * The method checks, proven: each fault-injected reference node (reference-node/faults/, docs/faults.md)
 * fails the checks that guard its rule, and passes the ones for which its deviation is a legal
 * variation. Checks that no fault of the catalogue reaches are shown to fail against a stub node that
 * accepts anything.
 */
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/support/startTestServer.js';
import { parseJson, stringifyJson } from '../../../core/json/index.js';
import type { JsonValue } from '../../../core/json/index.js';
import type { FaultName } from '../../../reference-node/faults/faultCatalogue.js';
import type { Check } from '../../Check.js';
import type { CheckResult } from '../../model.js';
import { describeResults, runChecks, startTestNetwork, startTestNode, testProfile } from '../../../test/support/suites.js';
import { methodChecks } from './index.js';

/** Every check id seen failing in this file: at the end, every method check must be in it. */
const failedSomewhere = new Set<string>();

const byMethod = (...methods: string[]): Check[] => methodChecks.filter((c) => methods.some((m) => c.id.startsWith(`${m}/`)));
const ids = (results: CheckResult[], status: CheckResult['status']): string[] => results.filter((r) => r.status === status).map((r) => r.id);

function record(results: CheckResult[]): void {
  for (const id of ids(results, 'fail')) failedSomewhere.add(id);
}

interface Case {
  fault: FaultName;
  checks: Check[];
  /** Must fail (status fail, not error). */
  fails: string[];
  /** Must still pass: the fault's deviation is legal at that check's level. */
  passes?: string[];
}

const CASES: Case[] = [
  { fault: 'balance-as-number', checks: byMethod('chain_getAccount'), fails: ['chain_getAccount/balance-is-u128-string', 'chain_getAccount/profile-shape'], passes: ['chain_getAccount/nonce-is-unsigned-integer'] },
  { fault: 'balance-padded', checks: byMethod('chain_getAccount'), fails: ['chain_getAccount/profile-shape'], passes: ['chain_getAccount/balance-is-u128-string', 'chain_getAccount/nonce-is-unsigned-integer'] },
  { fault: 'nonce-as-string', checks: byMethod('chain_getAccount'), fails: ['chain_getAccount/nonce-is-unsigned-integer', 'chain_getAccount/profile-shape'], passes: ['chain_getAccount/balance-is-u128-string'] },
  // An error for an unknown account is a legal choice: the MUST checks read an account the suite funded.
  {
    fault: 'unknown-account-error',
    checks: byMethod('chain_getAccount'),
    fails: ['chain_getAccount/unknown-account'],
    passes: ['chain_getAccount/balance-is-u128-string', 'chain_getAccount/nonce-is-unsigned-integer', 'chain_getAccount/bad-address-refused'],
  },
  {
    fault: 'proposer-short',
    checks: byMethod('chain_getBlockByHeight'),
    fails: ['chain_getBlockByHeight/spec-fields', 'chain_getBlockByHeight/profile-shape', 'chain_getBlockByHeight/genesis'],
  },
  { fault: 'hash-uppercase', checks: byMethod('chain_getBlockByHeight'), fails: ['chain_getBlockByHeight/profile-shape'], passes: ['chain_getBlockByHeight/spec-fields'] },
  // A hex quantity is a legal encoding of an integer: MUST holds, the reference profile's JSON numbers do not.
  { fault: 'block-number-hex', checks: byMethod('chain_blockNumber'), fails: ['chain_blockNumber/profile-shape'], passes: ['chain_blockNumber/unsigned-64-bit-integer', 'chain_blockNumber/extra-params'] },
  {
    fault: 'unknown-height-null',
    checks: byMethod('chain_getBlockByHeight'),
    fails: ['chain_getBlockByHeight/above-tip-answer'],
    // null for a height with no block is a legal answer where the spec is silent.
    passes: ['chain_getBlockByHeight/above-tip-not-a-block', 'chain_getBlockByHeight/spec-fields'],
  },
  { fault: 'wrong-error-codes', checks: byMethod('chain_getBlockByHeight'), fails: ['chain_getBlockByHeight/above-tip-answer'], passes: ['chain_getBlockByHeight/above-tip-not-a-block'] },
  { fault: 'health-no-mode', checks: byMethod('chain_health'), fails: ['chain_health/status-and-mode-strings', 'chain_health/profile-values'] },
  // chain_id is the profile's addition: its type is no MUST matter.
  { fault: 'health-chain-id-string', checks: byMethod('chain_health'), fails: ['chain_health/profile-values'], passes: ['chain_health/status-and-mode-strings'] },
  {
    fault: 'extra-params-accepted',
    checks: methodChecks,
    fails: [
      'chain_health/extra-params',
      'chain_blockNumber/extra-params',
      'chain_getBlockByHeight/invalid-params-code',
      'chain_getAccount/invalid-params-code',
      'chain_sendRawTransaction/invalid-params-code',
      'chain_faucetClaim/invalid-params-code',
    ],
    // Ignoring extra params is a legal choice: no SHOULD check asks for their refusal.
    passes: ['chain_getBlockByHeight/bad-height-refused', 'chain_getAccount/bad-address-refused', 'chain_sendRawTransaction/bad-params-refused', 'chain_faucetClaim/bad-params-refused'],
  },
  {
    fault: 'wrong-param-type-accepted',
    checks: byMethod('chain_getBlockByHeight', 'chain_getAccount'),
    fails: ['chain_getBlockByHeight/invalid-params-code', 'chain_getAccount/invalid-params-code'],
    // "5" as a height is a legal leniency; a number as the address answered -32603 is still a refusal.
    passes: ['chain_getBlockByHeight/bad-height-refused', 'chain_getAccount/bad-address-refused'],
  },
  {
    fault: 'invalid-params-code',
    checks: methodChecks,
    fails: [
      'chain_health/extra-params',
      'chain_blockNumber/extra-params',
      'chain_getBlockByHeight/invalid-params-code',
      'chain_getAccount/invalid-params-code',
      'chain_sendRawTransaction/invalid-params-code',
      'chain_faucetClaim/invalid-params-code',
    ],
    // Refused with the wrong code is still refused.
    passes: ['chain_getBlockByHeight/bad-height-refused', 'chain_sendRawTransaction/bad-params-refused', 'chain_faucetClaim/bad-params-refused'],
  },
  { fault: 'tx-count-wrong', checks: byMethod('chain_getBlockByHeight'), fails: ['chain_getBlockByHeight/transaction-count-matches'], passes: ['chain_getBlockByHeight/genesis'] },
  { fault: 'tx-hash-wrong', checks: byMethod('chain_sendRawTransaction'), fails: ['chain_sendRawTransaction/result-is-transaction-hash'] },
  // The spec leaves the types of leader and local_score unshown: MUST holds, PROFILE fails.
  { fault: 'leader-not-hex', checks: byMethod('chain_pouLocal'), fails: ['chain_pouLocal/profile-types'], passes: ['chain_pouLocal/spec-fields'] },
  { fault: 'score-negative', checks: byMethod('chain_pouLocal'), fails: ['chain_pouLocal/profile-types'], passes: ['chain_pouLocal/spec-fields'] },
  // A lone node has no peers: net_peerCount says 1, chain_pouPeers lists none.
  { fault: 'peer-count-off', checks: byMethod('net_peerCount', 'chain_pouPeers'), fails: ['net_peerCount/matches-pou-peers'], passes: ['net_peerCount/non-negative-integer', 'chain_pouPeers/spec-map'] },
  // A lone MN leads: its own identifier is the leader's, and it lists it among its peers (and counts it, so the two agree).
  { fault: 'peers-list-self', checks: byMethod('net_peerCount', 'chain_pouPeers'), fails: ['chain_pouPeers/itself-excluded'], passes: ['net_peerCount/matches-pou-peers', 'chain_pouPeers/spec-map', 'chain_pouPeers/profile-types'] },
  { fault: 'block-number-string', checks: byMethod('chain_blockNumber'), fails: ['chain_blockNumber/unsigned-64-bit-integer', 'chain_blockNumber/profile-shape'] },
  { fault: 'height-lenient', checks: byMethod('chain_getBlockByHeight'), fails: ['chain_getBlockByHeight/bad-height-refused', 'chain_getBlockByHeight/invalid-params-code'], passes: ['chain_getBlockByHeight/spec-fields'] },
  { fault: 'tx-param-lenient', checks: byMethod('chain_sendRawTransaction'), fails: ['chain_sendRawTransaction/bad-params-refused', 'chain_sendRawTransaction/invalid-params-code'] },
  { fault: 'faucet-address-lenient', checks: byMethod('chain_faucetClaim'), fails: ['chain_faucetClaim/bad-params-refused', 'chain_faucetClaim/invalid-params-code'], passes: ['chain_faucetClaim/result-shape'] },
  { fault: 'peer-count-negative', checks: byMethod('net_peerCount'), fails: ['net_peerCount/non-negative-integer', 'net_peerCount/profile-shape', 'net_peerCount/matches-pou-peers'] },
  // net_peerCount's result is not shown by the spec: a hex quantity is a count too, but not the reference profile's.
  { fault: 'peer-count-hex', checks: byMethod('net_peerCount'), fails: ['net_peerCount/profile-shape'], passes: ['net_peerCount/non-negative-integer', 'net_peerCount/matches-pou-peers'] },
];

describe('method checks against fault-injected reference nodes', () => {
  for (const c of CASES) {
    it(`${c.fault}: fails ${c.fails.join(', ')}`, async () => {
      const node = await startTestNode({ faults: [c.fault] });
      try {
        const results = await runChecks(c.checks, [node.url]);
        record(results);
        const lines = describeResults(results);
        if (process.env.SHOW_EVIDENCE) console.log(`${c.fault}:\n${lines.join('\n')}`);
        for (const id of c.fails) expect(lines.find((l) => l.startsWith(`${id}: `)), `${id} on ${c.fault}`).toMatch(/: fail: /);
        for (const id of c.passes ?? []) expect(lines.find((l) => l.startsWith(`${id}: `)), `${id} on ${c.fault}`).toMatch(/: pass: /);
      } finally {
        await node.stop();
      }
    });
  }

  it('tx-count-wrong is caught under a faucet that credits directly too: a transfer makes the block to count', async () => {
    const node = await startTestNode({ faults: ['tx-count-wrong'] });
    try {
      const results = await runChecks(byMethod('chain_getBlockByHeight'), [node.url], { profile: testProfile({ faucetCredit: 'direct' }) });
      record(results);
      expect(describeResults(results).find((l) => l.startsWith('chain_getBlockByHeight/transaction-count-matches: '))).toMatch(/: fail: block \d+: transaction_count is not the length of transactions/);
    } finally {
      await node.stop();
    }
  });

  it('peers-empty shows only with peers: a lone node lists none and counts none (passes); in a network of an MN and an LN it fails', async () => {
    const lone = await startTestNode({ faults: ['peers-empty'] });
    try {
      const results = await runChecks(byMethod('net_peerCount'), [lone.url]);
      expect(describeResults(results).filter((l) => !l.includes(': pass: '))).toEqual([]);
    } finally {
      await lone.stop();
    }
    const net = await startTestNetwork(['MN', 'LN'], () => ({ faults: ['peers-empty'] }));
    try {
      const results = await runChecks(byMethod('net_peerCount', 'chain_pouPeers'), net.urls);
      record(results);
      const matches = results.filter((r) => r.id === 'net_peerCount/matches-pou-peers');
      expect(matches.map((r) => `${r.status}: ${r.evidence.actual ?? ''}`)).toEqual(['fail: net_peerCount 1, chain_pouPeers lists 0', 'fail: net_peerCount 1, chain_pouPeers lists 0']);
      // An empty map is still a map of the right types.
      expect(results.filter((r) => r.id.startsWith('chain_pouPeers/') && r.id !== 'chain_pouPeers/itself-excluded').map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
      // Judged on the MN, which leads; the LN does not, and its own identifier cannot be read.
      expect(results.filter((r) => r.id === 'chain_pouPeers/itself-excluded').map((r) => `${r.node === net.urls[0] ? 'MN' : 'LN'} ${r.status}`).sort()).toEqual(['LN skip', 'MN pass']);
    } finally {
      await net.stop();
    }
  });
});

/** What the stub answers, per method, whatever the params: plausible where it must be, wrong where a check looks. */
const STUB_ANSWERS: Record<string, JsonValue> = {
  chain_health: { status: 'ok', mode: 'MN', chain_id: 1 },
  chain_blockNumber: 5,
  // A block for any height, also far above the tip.
  chain_getBlockByHeight: { height: 5, transaction_count: 0, proposer: 'ab'.repeat(32) },
  // Any address accepted.
  chain_getAccount: { balance: '0', nonce: 0 },
  // A 0x-prefixed short hash and a numeric amount.
  chain_faucetClaim: { transaction_hash: '0x5e1f', amount: 10000 },
  // local_is_leader missing.
  chain_pouLocal: { local_score: 3, leader: null },
  // A short identifier and a string score.
  chain_pouPeers: { peers: { peer1: 'high' } },
  net_peerCount: -1,
};

describe('method checks that no fault of the catalogue reaches, against a stub node that accepts anything', () => {
  const stubbed = [
    'chain_getBlockByHeight/above-tip-not-a-block',
    'chain_getAccount/bad-address-refused',
    'chain_faucetClaim/result-shape',
    'chain_pouLocal/spec-fields',
    'chain_pouPeers/spec-map',
    'chain_pouPeers/profile-types',
    'net_peerCount/non-negative-integer',
  ];
  it(`fail: ${stubbed.join(', ')}`, async () => {
    const stub = await startTestServer((req, res) => {
      const body = parseJson(req.body.toString('utf8'));
      const request = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
      const answer = typeof request.method === 'string' ? STUB_ANSWERS[request.method] : undefined;
      const id = request.id ?? null;
      const response = answer === undefined ? { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } } : { jsonrpc: '2.0', id, result: answer };
      res.writeHead(200, { 'content-type': 'application/json' }).end(stringifyJson(response));
    });
    try {
      const results = await runChecks(methodChecks.filter((c) => stubbed.includes(c.id)), [stub.url]);
      record(results);
      if (process.env.SHOW_EVIDENCE) console.log(describeResults(results).join('\n'));
      // stubbed is in catalogue order, as results are.
      expect(results.map((r) => `${r.id}: ${r.status}`)).toEqual(stubbed.map((id) => `${id}: fail`));
    } finally {
      await stub.close();
    }
  });
});

describe('proof', () => {
  it('every method check failed somewhere above', () => {
    expect(methodChecks.map((c) => c.id).filter((id) => !failedSomewhere.has(id))).toEqual([]);
  });
});
