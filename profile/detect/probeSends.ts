/**
 * The detection's steps that send the node something: faucet claims and transactions, with the chain id
 * the transactions are signed for. Apart from detectProfile.ts, which runs them after the reads
 * (probeReads.ts); each can be turned off (DetectOptions.faucet, .transactions).
 */
import { referenceProfile } from '../referenceProfile.js';
import type { TxCodec } from '../TxCodec.js';
import type { Detection } from './Detection.js';
import { detectFaucet } from './detectFaucet.js';
import type { MethodsDetected } from './detectMethods.js';
import { detectTransactions } from './detectTransactions.js';
import { fallback, given, probed } from './Finding.js';
import { fieldOf, RESULT_FIELDS } from './findKeys.js';
import { describeCall } from './describe.js';
import { isObject } from './Prober.js';
import { resultOf } from './readResults.js';

type Key = ReturnType<TxCodec['newKey']>;

/** The chain id the transactions are signed for, and where it came from (for evidence). */
export interface SignFor {
  readonly chainId: bigint;
  readonly source: string;
}

/**
 * The faucet step (unless `faucet` is false, or the node does not serve chain_faucetClaim); the claimed key
 * when the faucet funded it.
 */
export async function probeFaucet(d: Detection, m: MethodsDetected, faucet: boolean | undefined, blockTimeMs: number): Promise<Key | undefined> {
  // Faucet: the claimed address is a codec key, so a node that refuses free transfers can be sent a funded one.
  const claimKey = d.codec.newKey();
  let funded = false;
  if (faucet === false) d.add([fallback('faucet', referenceProfile().faucet, 'not probed (--no-faucet)')]);
  else if (!m.served('chain_faucetClaim')) d.add([probed('faucet', false, 'high', `${m.wire('chain_faucetClaim')} is not served (see methods)`)]);
  else
    await d.step('faucet', async () => {
      d.sentAddresses.push(claimKey.address);
      const detected = await detectFaucet(d.prober, m, claimKey.address);
      d.add(detected.findings);
      funded = detected.funded;
      const claimed = resultOf(detected.claim);
      if (detected.claim !== undefined && claimed !== undefined) {
        d.results.push(claimed);
        d.observations.push({ source: detected.claim.call, result: claimed, names: detected.credit === 'transaction' ? RESULT_FIELDS.faucet : ['amount'] });
        // The claim's transaction hash, as written (the result itself, or its transaction_hash).
        d.hashes.push(typeof claimed === 'string' ? claimed : (fieldOf(claimed, RESULT_FIELDS.faucet, 'transaction_hash') ?? null));
      }
      if (funded) await readFundedAccount(d, m, claimKey.address, blockTimeMs);
    });
  return funded ? claimKey : undefined;
}

/**
 * The claimed account, once the chain shows it: its keys join the field decision, and its integers the integers
 * decision (Detection.fundedAccount). The account read among the results (readResults.ts) is a fresh one, which a
 * node may answer with null or an error, where no key and no integer shows (a node naming balance Balance or amount
 * would have none of them found; one writing its nonce "0x0" would be said to write JSON numbers). Read again for
 * up to three block times (at most 10 s) until it is an object.
 */
async function readFundedAccount(d: Detection, m: MethodsDetected, address: string, blockTimeMs: number): Promise<void> {
  const method = m.wire('chain_getAccount');
  if (!m.served('chain_getAccount')) return;
  const until = Date.now() + Math.min(10_000, 3 * blockTimeMs);
  for (;;) {
    const outcome = await d.prober.call(method, [address]);
    if (outcome.kind === 'result' && isObject(outcome.result)) {
      const call = describeCall(method, [address]);
      d.observations.push({ source: call, result: outcome.result, names: RESULT_FIELDS.account });
      d.fundedAccount = { call, outcome };
      return;
    }
    if (Date.now() >= until) return;
    await new Promise((r) => setTimeout(r, Math.max(100, Math.min(1_000, blockTimeMs / 4))));
  }
}

/** The chainId finding: the one given (--chain-id), else chain_health's (`read`), else 1. */
export function chainIdToSign(d: Detection, givenId: bigint | undefined, read: bigint | undefined): SignFor {
  if (givenId !== undefined) d.add([given('chainId', givenId, '--chain-id')]);
  else if (read !== undefined) d.add([probed('chainId', read, 'high', 'chain_health\'s chain_id; not written: the suite reads it from chain_health itself', false)]);
  else d.add([fallback('chainId', 1, 'chain_health carries no chain id; the suite signs for 1 (give --chain-id if that is wrong)', false)]);
  return { chainId: givenId ?? read ?? 1n, source: givenId !== undefined ? '--chain-id' : read !== undefined ? 'chain_health' : 'default' };
}

/** The transactions step (unless `transactions` is false, or the node does not serve chain_sendRawTransaction). */
export async function probeTransactions(d: Detection, m: MethodsDetected, transactions: boolean | undefined, signFor: SignFor, funded: Key | undefined, blockTimeMs: number): Promise<void> {
  const { codec, found } = d;
  if (transactions === false) d.add([fallback('txResult', referenceProfile().txResult, 'not probed (--no-transactions)')]);
  else if (!m.served('chain_sendRawTransaction')) d.add([fallback('txResult', referenceProfile().txResult, `${m.wire('chain_sendRawTransaction')} is not served`)]);
  else
    await d.step('transactions', async () => {
      const tx = await detectTransactions(d.prober, m, {
        codec,
        chainId: signFor.chainId,
        chainIdSource: signFor.source,
        fee: referenceProfile().fee,
        funded,
        blockTimeMs,
      });
      d.add(tx.findings);
      d.warnings.push(...tx.warnings);
      d.results.push(...tx.results);
      // The transactions' hashes, as written: bare results, or the object's hash key.
      const hashKey = tx.txObject?.hashKey;
      for (const r of tx.results) d.hashes.push(typeof r === 'string' ? r : hashKey !== undefined && isObject(r) ? (r[hashKey] ?? null) : null);
      if (tx.txObject !== undefined) {
        const result = resultOf(tx.txObject);
        if (result !== undefined) d.observations.push({ source: tx.txObject.call, result, names: RESULT_FIELDS.tx, known: { transaction_hash: tx.txObject.hashKey } });
      }
      if (found.get('txResult')?.basis === 'probed' && !found.has('codec')) d.add([probed('codec', codec.name, 'high', `the node accepted a transfer signed with ${codec.name}`, false)]);
    });
}
