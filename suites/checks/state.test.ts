import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devnetFaucetKeypair } from '../../reference-node/chain/index.js';
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { describeResults, runChecks, startTestNode, testProfile } from '../../test/support/suites.js';
import type { ProxiedRequest, ProxiedResponse } from '../../test/support/suites.js';
import { resultOf, runThroughProxy } from '../../test/support/transportChecks.js';
import type { TestNode } from '../../test/support/suites.js';
import { chain_getAccount } from './methods/chain_getAccount.js';
import { stateChecks } from './state.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.stop();
});

describe('state checks', () => {
  it('all pass against the reference node', async () => {
    const results = await runChecks(stateChecks, [node.url]);
    expect(describeResults(results).filter((l) => !l.includes(': pass:'))).toEqual([]);
    expect(results).toHaveLength(stateChecks.length);
  }, 60_000);
});

describe('state checks without a faucet', () => {
  it('fund their keys from a funded --private-key instead, and all pass', async () => {
    const key = Buffer.from(devnetFaucetKeypair().privateKey).toString('hex');
    const profile = testProfile({ faucet: false, privateKey: key });
    const results = await runChecks(stateChecks, [node.url], { profile });
    const faucetChecks = results.filter((r) => r.id.startsWith('state/faucet-'));
    expect(faucetChecks.every((r) => r.status === 'skip')).toBe(true);
    expect(describeResults(results.filter((r) => !r.id.startsWith('state/faucet-') && r.status !== 'pass'))).toEqual([]);
  }, 60_000);
});

/** A JSON body's object, or undefined. */
const objectOf = (text: string): Record<string, JsonValue> | undefined => {
  try {
    const v = parseJson(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
};

describe('state checks on nodes that made other choices, or one mistake elsewhere', () => {
  it('a balance written as a JSON number is chain_getAccount\'s checks\' to judge: the state checks read it and judge what they name', async () => {
    const results = await runThroughProxy(stateChecks, node.url, (res: ProxiedResponse, req: ProxiedRequest) => {
      if (objectOf(req.body)?.method !== 'chain_getAccount') return res;
      const answer = objectOf(res.body);
      const result = answer?.result;
      if (answer === undefined || typeof result !== 'object' || result === null || Array.isArray(result) || typeof result.balance !== 'string') return res;
      return { ...res, body: stringifyJson({ ...answer, result: { ...result, balance: BigInt(result.balance) } }) };
    });
    expect(describeResults(results.filter((r) => r.status === 'fail' || r.status === 'error'))).toEqual([]);
    expect(resultOf(results, 'state/bad-signature-rejected').status).toBe('pass');
  }, 60_000);

  it('a balance in no integer\'s writing ("-N"): balance-is-u128-string fails saying so, the checks that need funds end in error at once, none fails (an outside tester\'s proxy: they waited out the funding, and faucet-credits said the credit never came)', async () => {
    const started = Date.now();
    const results = await runThroughProxy([...chain_getAccount, ...stateChecks], node.url, (res: ProxiedResponse, req: ProxiedRequest) => {
      if (objectOf(req.body)?.method !== 'chain_getAccount') return res;
      const answer = objectOf(res.body);
      const result = answer?.result;
      if (answer === undefined || typeof result !== 'object' || result === null || Array.isArray(result) || typeof result.balance !== 'string') return res;
      return { ...res, body: stringifyJson({ ...answer, result: { ...result, balance: `-${result.balance}` } }) };
    });
    // Only chain_getAccount's own checks fail (its profile shape, and "-0" for an unknown account, too): it is their form.
    expect(results.filter((r) => r.status === 'fail' && !r.id.startsWith('chain_getAccount/')).map((r) => r.id)).toEqual([]);
    expect(resultOf(results, 'chain_getAccount/balance-is-u128-string')).toMatchObject({ status: 'fail', evidence: { message: 'balance is not a decimal u128' } });
    const credits = resultOf(results, 'state/faucet-credits');
    expect(`${credits.status}: ${credits.evidence.message}`).toMatch(/^error: .*balance cannot be read as an integer in any writing/);
    // Not one inclusion timeout (5 s each) waited out.
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 60_000);

  it('a faucet paying less than the checks need: the setup error says so and what to give, not that the funds never came (an outside tester\'s faucet of 0.005 token)', async () => {
    const small = await startTestNode({ faucet: { amount: 5n * 10n ** 15n, limit: 1 } });
    try {
      const results = await runChecks(stateChecks.filter((c) => c.id === 'state/nonce-increments'), [small.url]);
      expect(resultOf(results, 'state/nonce-increments')).toMatchObject({
        status: 'error',
        evidence: { message: expect.stringMatching(/^setup: the faucet credited [0-9a-f]+… with 5000000000000000 base units, fewer than the 10000000000000000 the checks need .*give --private-key/) as unknown },
      });
    } finally {
      await small.stop();
    }
  }, 30_000);

  it('a credit not seen while every block the chain made was full at one size (one transaction each): no verdict, naming --concurrency 1; with room in a block, a failure', async () => {
    const check = stateChecks.filter((c) => c.id === 'state/transfer-moves-value-and-fee');
    // The recipient's credit is never shown (its balance read as 0): the wait runs out.
    const hide = (res: ProxiedResponse, req: ProxiedRequest): ProxiedResponse =>
      objectOf(req.body)?.method === 'chain_getAccount' ? { ...res, body: res.body.replace('"balance":"123456789"', '"balance":"0"') } : res;
    const full = await runThroughProxy(check, node.url, (res, req) => {
      const hidden = hide(res, req);
      return objectOf(req.body)?.method === 'chain_getBlockByHeight' ? { ...hidden, body: hidden.body.replace(/"transaction_count":\d+/, '"transaction_count":1') } : hidden;
    });
    expect(resultOf(full, 'state/transfer-moves-value-and-fee')).toMatchObject({ status: 'error', evidence: { message: expect.stringMatching(/each holding 1 transaction: blocks full at the node's own size.*--concurrency 1/) as unknown } });
    const room = await runThroughProxy(check, node.url, hide);
    expect(resultOf(room, 'state/transfer-moves-value-and-fee').status).toBe('fail');
  }, 60_000);

  it('nonce-increments fails on a node that reports nonce - 1 from nonce 2 on (an outside tester\'s node, certified before: one transfer never showed it)', async () => {
    const results = await runThroughProxy(stateChecks.filter((c) => c.id === 'state/nonce-increments'), node.url, (res: ProxiedResponse, req: ProxiedRequest) => {
      if (objectOf(req.body)?.method !== 'chain_getAccount') return res;
      return { ...res, body: res.body.replace(/"nonce":(\d+)/, (_m, n: string) => `"nonce":${Number(n) >= 2 ? Number(n) - 1 : Number(n)}`) };
    });
    expect(resultOf(results, 'state/nonce-increments')).toMatchObject({ status: 'fail', evidence: { message: 'the nonce did not increase by one at the second transaction' } });
  }, 60_000);

  it('transfer-moves-value-and-fee fails at once, saying so, on a node that credits a transfer twice (not "not seen" after its wait)', async () => {
    const results = await runThroughProxy(stateChecks.filter((c) => c.id === 'state/transfer-moves-value-and-fee'), node.url, (res: ProxiedResponse, req: ProxiedRequest) => {
      const answer = objectOf(res.body);
      const result = answer?.result;
      if (objectOf(req.body)?.method !== 'chain_getAccount' || answer === undefined || typeof result !== 'object' || result === null || Array.isArray(result) || result.balance !== '123456789') return res;
      return { ...res, body: stringifyJson({ ...answer, result: { ...result, balance: '246913578' } }) };
    });
    const r = resultOf(results, 'state/transfer-moves-value-and-fee');
    expect(`${r.status}: ${r.evidence.message}`).toMatch(/^fail: [0-9a-f]{12}… holds 246913578, more than the 123456789 sent to it: a transfer applied more than once\?$/);
  }, 60_000);

  it('bad-signature-rejected fails on a node that answers a bad signature as an internal error (-32603)', async () => {
    const results = await runThroughProxy(stateChecks.filter((c) => c.id === 'state/bad-signature-rejected'), node.url, (res, req) => {
      const answer = objectOf(res.body);
      if (objectOf(req.body)?.method !== 'chain_sendRawTransaction' || answer?.error === undefined) return res;
      return { ...res, body: stringifyJson({ ...answer, error: { code: -32603, message: 'Internal error' } }) };
    });
    const r = resultOf(results, 'state/bad-signature-rejected');
    expect(`${r.status}: ${r.evidence.message}`).toMatch(/^fail: a transaction whose signature does not verify was answered as an internal error \(-32603\), not refused as bad input/);
  }, 60_000);

  it('sequential-nonces-queued sends its transactions one call each when the node\'s batch limit (not in the profile) refuses the batch whole', async () => {
    const { maxBatch: _none, ...profile } = testProfile();
    const results = await runThroughProxy(
      stateChecks.filter((c) => c.id === 'state/sequential-nonces-queued'),
      node.url,
      (res) => res,
      (req) => {
        const list = req.body.startsWith('[') ? (parseJson(req.body) as JsonValue[]) : [];
        return list.length > 4 ? { status: 400, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Batch too large"}}' } : undefined;
      },
      profile,
    );
    const r = resultOf(results, 'state/sequential-nonces-queued');
    expect(`${r.status}: ${r.evidence.message}`).toBe('pass: all 5 included, sent as the 5 calls (a batch of 5 is over the node\'s batch limit)');
  }, 60_000);
});

describe('state/notification-executed', () => {
  const check = stateChecks.filter((c) => c.id === 'state/notification-executed');

  it('fails on a node that acknowledges a notification and never runs it (the fault notification-not-run)', async () => {
    const faulty = await startTestNode({ faults: ['notification-not-run'] });
    try {
      const r = resultOf(await runChecks(check, [faulty.url]), 'state/notification-executed');
      expect(`${r.status}: ${r.evidence.message}`).toMatch(/^fail: [0-9a-f]{12}… holding 5 base units did not happen within \d+ ms, in which the chain made \d+ blocks$/);
    } finally {
      await faulty.stop();
    }
  }, 60_000);

  it('ends in error, never fails, on a node that does not read the suite\'s transfers (their encoding is the network\'s choice)', async () => {
    // Every transfer refused as malformed, as a node of another encoding does (an outside tester's node): the
    // notification's own refusal is never seen, so no verdict on notifications, nor on what a transfer moves.
    const checks = stateChecks.filter((c) => c.id === 'state/notification-executed' || c.id === 'state/transfer-moves-value-and-fee');
    const results = await runThroughProxy(checks, node.url, (res) => res, (req) => {
      const call = objectOf(req.body);
      if (call?.method !== 'chain_sendRawTransaction') return undefined;
      return call.id === undefined
        ? { status: 204, headers: {}, body: '' }
        : { status: 200, headers: { 'content-type': 'application/json' }, body: stringifyJson({ jsonrpc: '2.0', id: call.id, error: { code: -32021, message: 'Malformed transaction' } }) };
    });
    for (const id of ['state/notification-executed', 'state/transfer-moves-value-and-fee']) {
      const r = resultOf(results, id);
      expect(`${id} ${r.status}: ${r.evidence.message}`).toMatch(new RegExp(`^${id} error: setup: the node refused a valid transfer from a funded key.* with -32021 \\(Malformed transaction\\)$`));
    }
  }, 60_000);

  it('passes on a node that answers a notification (another check\'s rule) as long as it runs it', async () => {
    const results = await runThroughProxy(check, node.url, (res, req) => (objectOf(req.body)?.id === undefined && res.status === 204 ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":null,"result":"ok"}' } : res));
    expect(resultOf(results, 'state/notification-executed').status).toBe('pass');
  }, 60_000);
});
