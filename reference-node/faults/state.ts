/**
 * State faults: admission and execution of transactions, the faucet. They bend the chain rules (chain/ChainRules.ts) or the node's admission hook (node/NodeVariant.ts). TEST-ONLY: each fault makes a reference node deliberately wrong (docs/faults.md).
 */
import { decodeTransaction, verifyTransaction } from '../../core/codec/index.js';
import { DEFAULT_FAUCET_AMOUNT, isChainError } from '../chain/index.js';
import type { ChainErrorName } from '../chain/index.js';
import { jsonInteger } from '../../core/json/index.js';
import { chainRules, eachError, isObject, mapResult, nodeHooks, requestValue, rules } from './bends.js';
import { phantomClaimHash, transferOf, verifyKeyUnchecked, verifyLenient, wireHash } from './deviations.js';
import type { Fault, FaultBend } from './bends.js';
import type { NodeContext } from '../methods/NodeContext.js';

/**
 * A client's transaction refused with `refusal` is answered with a hash anyway, and silently dropped (`taken`, when
 * given, sees it first: the node it came to and its hex).
 */
const admittedAnyway = (refusal: ChainErrorName, taken?: (node: NodeContext, hex: string) => void): ReturnType<typeof nodeHooks> =>
  nodeHooks((hooks, node) => ({
    admitTransaction: async (hex) => {
      try {
        return await hooks.admitTransaction(hex);
      } catch (err) {
        if (!isChainError(err) || err.name !== refusal) throw err;
        taken?.(node, hex);
        return { hash: wireHash(hex), wire: null };
      }
    },
  }));

/** What each node with an `applied` fault has credited, by recipient (lower-case hex). */
const CREDITED = new WeakMap<NodeContext, Map<string, bigint>>();

/**
 * A client's transaction refused with `refusal` is answered with a hash anyway, and applied as far as any client
 * can see: its recipient is credited its value (a node whose check was skipped and the transfer executed; the
 * sender's side is left as it was, as a node that mints the difference would).
 */
const appliedAnyway = (refusal: ChainErrorName): FaultBend => ({
  node: admittedAnyway(refusal, (node, hex) => {
    const { to, value } = transferOf(hex);
    const credits = CREDITED.get(node) ?? new Map<string, bigint>();
    CREDITED.set(node, credits);
    credits.set(to, (credits.get(to) ?? 0n) + value);
  }),
  methods: mapResult('chain_getAccount', (r, node, params) => {
    const address = typeof params[0] === 'string' ? params[0].toLowerCase().replace(/^0x/, '') : '';
    const credit = CREDITED.get(node)?.get(address);
    return credit === undefined || typeof r.balance !== 'string' ? r : { ...r, balance: (BigInt(r.balance) + credit).toString() };
  }),
});

export const STATE_FAULTS = [
  {
    name: 'notification-not-run',
    category: 'state',
    description: 'A single notification (a request without an id) gets the profile\'s empty 204 and is never run: the dispatcher drops it before calling its method, so a transaction sent that way is never admitted.',
    rule: 'A notification is a request: the server runs it and only sends no reply (JSON-RPC 2.0 §4.1).',
    level: 'SHOULD',
    scope: 'node',
    bend: {
      transport: rules((r) => ({
        takeOver: (text, exchange) => {
          const body = requestValue(text);
          if (!isObject(body) || 'id' in body || typeof body.method !== 'string') return r.takeOver?.(text, exchange) ?? false;
          exchange.res.writeHead(204);
          exchange.res.end();
          return true;
        },
      })),
    },
  },
  {
    name: 'nonce-not-incremented',
    category: 'state',
    description: 'chain_getAccount reports the nonce as it was before the account\'s latest confirmed transaction (nonce - 1 once it is above 0); the chain itself is unchanged, so a client that signs with the reported nonce gets NonceTooLow.',
    rule: 'nonce is the nonce the account\'s next transaction must carry (spec: Resources > Account, Transaction).',
    level: 'MUST',
    scope: 'node',
    bend: { methods: mapResult('chain_getAccount', (r) => { const nonce = BigInt(r.nonce as number | bigint); return nonce > 0n ? { ...r, nonce: jsonInteger(nonce - 1n) } : r; }) },
  },
  {
    name: 'fee-not-charged',
    category: 'state',
    description: 'Confirmed transactions do not debit the fee from the sender, nor credit it to the proposer: the sender pays value only (supply still conserved).',
    rule: 'A transfer debits value + fee from the sender; fees go to the proposer (profile: Transactions; docs/chain.md).',
    level: 'PROFILE',
    scope: 'node',
    bend: { chain: chainRules({ fee: () => 0n }) },
  },
  {
    name: 'bad-signature-accepted',
    category: 'state',
    description: 'chain_sendRawTransaction skips signature verification: a transaction with a flipped signature byte is admitted and included.',
    rule: 'A transaction whose signature fails verification is refused, -32004 TxBadSignature (sound; code: profile).',
    level: 'SHOULD',
    scope: 'node',
    bend: { chain: chainRules({ verify: () => ({ ok: true }) }) },
  },
  {
    name: 'lenient-signature',
    category: 'state',
    description: 'Signatures are checked with plain node:crypto verify, without the strict pre-checks: ordinary bad signatures are still refused, but small-order public keys, small-order R and non-canonical A are admitted (and included).',
    rule: 'Strict ed25519 verification: canonical S, R and A, no small-order keys or R (profile: docs/transaction-codec.md).',
    level: 'PROFILE',
    scope: 'node',
    bend: { chain: chainRules({ verify: verifyLenient }) },
  },
  {
    name: 'small-order-key-accepted',
    category: 'state',
    description: 'Signatures are checked strictly (canonical S, no small-order or non-canonical R), but the sender\'s public key is not: a small-order key is admitted, and with it a signature that holds for any message (R = B, S = 1).',
    rule: 'Strict ed25519 verification: no small-order public keys (profile: docs/transaction-codec.md; "Taming the many EdDSAs").',
    level: 'PROFILE',
    scope: 'node',
    bend: { chain: chainRules({ verify: verifyKeyUnchecked }) },
  },
  {
    name: 'nonce-reuse-accepted',
    category: 'state',
    description: 'A transaction whose nonce is below the sender\'s next nonce is answered with its hash (then silently dropped) instead of NonceTooLow.',
    rule: 'A used nonce is refused at once with -32005 NonceTooLow (profile; what any sound node does is never apply it, which this node keeps to).',
    level: 'PROFILE',
    scope: 'node',
    bend: { node: admittedAnyway('NonceTooLow') },
  },
  {
    name: 'nonce-gap-accepted',
    category: 'state',
    description: 'A client transaction whose nonce is ahead of the sender\'s next nonce is admitted (held until the gap fills) instead of NonceGap.',
    rule: 'A client transaction with a nonce gap is refused, -32006 NonceGap (profile: Transactions).',
    level: 'PROFILE',
    scope: 'node',
    bend: {
      // A client's future transaction is held, as a relayed one would be.
      node: nodeHooks((_hooks, node) => ({
        admitTransaction: async (hex) => {
          const { hash, wire } = await node.chain.submit(hex, 'relay');
          return { hash, wire };
        },
      })),
    },
  },
  {
    name: 'overspend-accepted',
    category: 'state',
    description: 'A transaction with value + fee above the sender\'s available balance is answered with its hash (then silently dropped) instead of InsufficientBalance.',
    rule: 'value + fee above the balance less queued spends is -32007 InsufficientBalance (profile: Transactions).',
    level: 'PROFILE',
    scope: 'node',
    bend: { node: admittedAnyway('InsufficientBalance') },
  },
  {
    name: 'overflow-accepted',
    category: 'state',
    description: 'A well-signed transaction whose value + fee overflows u128 is answered with its hash (then silently dropped) instead of AmountOverflow.',
    rule: 'value + fee above 2^128-1 is -32008 AmountOverflow (profile: Transactions).',
    level: 'PROFILE',
    scope: 'node',
    bend: { node: admittedAnyway('AmountOverflow') },
  },
  {
    name: 'nonce-reuse-applied',
    category: 'state',
    description: 'A transaction whose nonce the sender has already used is answered with its hash and its transfer applied: the recipient is credited again (a replayed transfer pays twice).',
    rule: 'A transaction is valid only with the sender\'s current nonce (spec: Resources > Transaction, "must equal the sender account\'s current nonce"): one reusing a used nonce is never applied.',
    level: 'SHOULD',
    scope: 'node',
    bend: appliedAnyway('NonceTooLow'),
  },
  {
    name: 'replay-applied',
    category: 'state',
    description: 'The same signed transaction sent again after it was confirmed is answered with its hash and its transfer applied again: the recipient is credited twice (a replayed transfer pays twice).',
    rule: 'A transaction is valid only with the sender\'s current nonce (spec: Resources > Transaction), which its first use moved on: the same transaction is never applied twice.',
    level: 'SHOULD',
    scope: 'node',
    bend: appliedAnyway('TxDuplicate'),
  },
  {
    name: 'overspend-applied',
    category: 'state',
    description: 'A transaction with value + fee above the sender\'s balance is answered with its hash and its transfer applied: the recipient is credited value the sender never had.',
    rule: 'A transfer cannot move more than the sender holds (spec: Units, "the sender\'s balance is at least value plus fee"): an overspend is never applied.',
    level: 'SHOULD',
    scope: 'node',
    bend: appliedAnyway('InsufficientBalance'),
  },
  {
    name: 'overflow-applied',
    category: 'state',
    description: 'A well-signed transaction whose value + fee overflows u128 is answered with its hash and its transfer applied: the recipient is credited the value (the sum wrapped, so the sender\'s check passed).',
    rule: 'value and fee are unsigned 128-bit integers (spec: Resources > Transaction): a transfer whose value + fee overflows them is never applied.',
    level: 'SHOULD',
    scope: 'node',
    bend: appliedAnyway('AmountOverflow'),
  },
  {
    name: 'duplicate-accepted',
    category: 'state',
    description: 'The same transaction sent again is answered with its hash instead of TxDuplicate.',
    rule: 'The same transaction (same hash) again is -32009 TxDuplicate (profile: Transactions).',
    level: 'PROFILE',
    scope: 'node',
    bend: { node: admittedAnyway('TxDuplicate') },
  },
  {
    name: 'malformed-internal-error',
    category: 'state',
    description: 'Transaction bytes of the wrong length or an unknown version are answered with -32603 Internal error instead of TxMalformed.',
    rule: 'Hex of the wrong byte length or an unknown version byte is -32002 TxMalformed (profile: Transactions).',
    level: 'PROFILE',
    scope: 'node',
    bend: {
      // A failure instead of the refusal, so -32603.
      node: nodeHooks((hooks) => ({
        admitTransaction: async (hex) => {
          try {
            return await hooks.admitTransaction(hex);
          } catch (err) {
            if (isChainError(err) && err.name === 'TxMalformed') throw new Error(`fault malformed-internal-error: ${err.data.reason}`, { cause: err });
            throw err;
          }
        },
      })),
    },
  },
  {
    name: 'wrong-error-codes',
    category: 'state',
    description: 'Every profile node error (-32001..-32014) is answered with the generic -32000 (message and data.reason kept).',
    rule: 'Each condition has its own code, -32001..-32014 (profile: Errors; docs/error-codes.md).',
    level: 'PROFILE',
    scope: 'node',
    bend: { transport: eachError((e) => (typeof e.code === 'number' && e.code <= -32001 && e.code >= -32014 ? { ...e, code: -32000 } : e)) },
  },
  {
    name: 'faucet-no-limit',
    category: 'state',
    description: 'The faucet\'s per-address limit is not enforced: an address may claim again and again.',
    rule: 'Past the per-address limit a claim is -32011 FaucetLimit (profile: Faucet).',
    level: 'PROFILE',
    scope: 'node',
    bend: { settings: { faucetLimit: Number.MAX_SAFE_INTEGER } },
  },
  {
    name: 'faucet-no-credit',
    category: 'state',
    description: 'chain_faucetClaim answers with a transaction hash and the amount but sends nothing: no transaction, no credit.',
    rule: 'The claim is a real transfer from the faucet account, included in a block (profile: Faucet).',
    level: 'PROFILE',
    scope: 'node',
    bend: {
      // A hash and the amount, and no transfer at all.
      node: nodeHooks((_hooks, node) => {
        let claims = 0;
        return { claimFaucet: (address) => Promise.resolve({ transaction_hash: phantomClaimHash(address, ++claims), amount: (node.chain.faucetAmount ?? DEFAULT_FAUCET_AMOUNT).toString() }) };
      }),
    },
  },
  {
    name: 'admitted-tx-dropped',
    category: 'state',
    description: 'Every second client transaction that would be admitted (it decodes, its signature verifies, its nonce is the sender\'s next) is answered with its hash and never queued: it is never included, and the sender\'s later nonces meet a gap.',
    rule: 'A transaction the node answered with its hash takes effect: it is included in a block (what a transfer, and every check that waits for one, relies on).',
    level: 'SHOULD',
    scope: 'node',
    bend: {
      node: nodeHooks((hooks, node) => {
        let candidates = 0;
        return {
          admitTransaction: async (hex) => {
            let tx;
            try {
              tx = decodeTransaction(hex);
            } catch {
              return hooks.admitTransaction(hex);
            }
            const next = tx.nonce === node.chain.pendingNonce(tx.sender) && verifyTransaction(tx).ok;
            if (next && ++candidates % 2 === 0) return { hash: tx.hash, wire: null };
            return hooks.admitTransaction(hex);
          },
        };
      }),
    },
  },
  {
    name: 'wrong-chain-accepted',
    category: 'state',
    description: 'A transaction signed for another chain id is admitted (and included) instead of TxWrongChain.',
    rule: 'A transaction for another chain id is refused, -32003 TxWrongChain (sound: no cross-chain replay; code: profile).',
    level: 'SHOULD',
    scope: 'node',
    bend: { chain: chainRules({ acceptsChainId: () => true }) },
  },
] as const satisfies readonly Fault[];
