import type { JsonValue } from '../../core/json/index.js';
import type { EncodedTransaction, Transfer, TxCodec } from '../TxCodec.js';
import { referenceProfile } from '../referenceProfile.js';
import { describeCall, describeOutcome } from './describe.js';
import type { MethodsDetected } from './detectMethods.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { fieldOf, findKeys, RESULT_FIELDS } from './findKeys.js';
import { amountOf } from './integerOf.js';
import { isObject } from './Prober.js';
import type { CallOutcome, Prober } from './Prober.js';
import type { Read } from './readResults.js';

const HEX64 = /^(0x)?[0-9a-fA-F]{64}$/;

export interface TransactionsInput {
  readonly codec: TxCodec;
  readonly chainId: bigint;
  /** Where the chain id came from, for evidence. */
  readonly chainIdSource: string;
  /** The fee of funded transfers (the profile's fee). */
  readonly fee: bigint;
  /** A key the faucet funded, for a node that refuses free transfers. */
  readonly funded: { readonly privateKey: Uint8Array; readonly address: string } | undefined;
  readonly blockTimeMs: number;
}

export interface TransactionsDetected {
  findings: Finding[];
  /** The accepted transfer's result when it is an object, with the key that holds the hash. */
  txObject: (Read & { readonly hashKey: string }) | undefined;
  /** Results seen (for the hex-case decision). */
  results: JsonValue[];
  /** Notes for the user (a transaction the node should have refused, another format). */
  warnings: string[];
}

interface Sent {
  readonly what: string;
  readonly outcome: CallOutcome;
  readonly text: string;
}

/** Which key of an object result holds the transaction hash: the codec's hash, else the transaction_hash field, else any 64-hex value. */
function hashKeyOf(result: { [key: string]: JsonValue }, hash: string | undefined): string | undefined {
  const text = (k: string): string | undefined => {
    const v = result[k];
    return typeof v === 'string' ? v : undefined;
  };
  const keys = Object.keys(result);
  const byValue = hash === undefined ? undefined : keys.find((k) => text(k)?.replace(/^0x/, '').toLowerCase() === hash.toLowerCase());
  if (byValue !== undefined) return byValue;
  const named = findKeys(result, RESULT_FIELDS.tx).transaction_hash?.key;
  if (named !== null && named !== undefined && HEX64.test(text(named) ?? '')) return named;
  return keys.find((k) => HEX64.test(text(k) ?? ''));
}

/** What the transaction probes share: where they send, and what the sends so far showed. */
interface TxRun {
  readonly prober: Prober;
  readonly codec: TxCodec;
  readonly chainId: bigint;
  /** chain_sendRawTransaction's wire name. */
  readonly method: string;
  /** Where the transfers send their value. */
  readonly recipient: string;
  readonly findings: Finding[];
  readonly warnings: string[];
  /** Invalid transactions the node admitted (the profile's droppedLater), with what showed it. */
  readonly dropped: { name: string; text: string }[];
  readonly results: JsonValue[];
  readonly sent: Sent[];
  /** Sends one transaction, reporting it as progress, and keeps what came back. */
  readonly send: (what: string, wire: string) => Promise<Sent>;
}

/** The transfer the sequence starts from: who signed it, at which nonce and fee, and how the node answered. */
interface FirstTransfer {
  readonly sender: { readonly privateKey: Uint8Array; readonly address: string };
  readonly fee: bigint;
  readonly nonce: bigint;
  readonly tx: Transfer;
  readonly first: EncodedTransaction;
  /** The transfer at the nonce after it, signed with it (sent right after it). */
  readonly second: EncodedTransaction;
  readonly accepted: Sent;
  readonly mode: 'free' | 'funded' | 'none';
}

/**
 * What the node does with transactions (docs/interface.md#errors: the node's own reaction to an
 * insufficient balance, an invalid signature or a wrong nonce is not shown), with the codec the suite
 * signs with. A free transfer (a fresh key sending 0 with fee 0 at nonce 0) shows txResult; when the node refuses it, a
 * key the faucet funded sends one with the profile's fee instead. From the accepted transfer: nonce 1
 * right after it (sequentialNonces), itself again (TxDuplicate), another transaction at its nonce
 * (NonceTooLow), one 5 nonces ahead (nonceGap / NonceGap). Then one deliberately bad transaction per
 * error (the codec's crafted variants): wrong length, another chain id, a bad signature, value + fee
 * beyond u128, and value 1 from an empty key. Every refusal's code is the profile's code for it.
 */
export async function detectTransactions(prober: Prober, methods: MethodsDetected, input: TransactionsInput): Promise<TransactionsDetected> {
  const run = startRun(prober, methods.wire('chain_sendRawTransaction'), input);

  // 1. An accepted transfer: free from a fresh key, else funded by the faucet.
  const first = await sendFirst(run, methods, input);

  // 2. The sequence, from the accepted transfer.
  if (first.mode !== 'none' && first.accepted.outcome.kind === 'result') {
    const { next, txObject } = await probeSequence(run, first, first.accepted.outcome.result, input.chainIdSource);
    await negatives(run, first, next);
    return finish(run, first, txObject);
  }

  // 3. No transfer accepted: the negative probes still show codes, unless every one is refused alike.
  const reference = referenceProfile();
  for (const key of ['txResult', 'sequentialNonces', 'nonceGap'] as const) run.findings.push(fallback(key, reference[key], `no transfer was accepted (${first.accepted.text})`));
  await negatives(run, first, first.nonce + 1n);
  return finish(run, first, undefined);
}

/** The shared state of one detection's transaction probes, nothing sent yet. */
function startRun(prober: Prober, method: string, input: TransactionsInput): TxRun {
  const results: JsonValue[] = [];
  const sent: Sent[] = [];
  const send = async (what: string, wire: string): Promise<Sent> => {
    const outcome = await prober.call(method, [wire]);
    const s = { what, outcome, text: `${what}: ${describeCall(method, [wire])} -> ${describeOutcome(outcome)}` };
    if (outcome.kind === 'result') results.push(outcome.result);
    prober.progress(`transactions: ${what} -> ${describeOutcome(outcome)}`);
    sent.push(s);
    return s;
  };
  const recipient = input.codec.newKey().address;
  return { prober, codec: input.codec, chainId: input.chainId, method, recipient, findings: [], warnings: [], dropped: [], results, sent, send };
}

/** A transfer the node accepts, if it can be had: free from a fresh key, else funded by the faucet (mode none: refused). */
async function sendFirst(run: TxRun, methods: MethodsDetected, input: TransactionsInput): Promise<FirstTransfer> {
  const { codec, chainId, recipient } = run;
  let sender = codec.newKey();
  let fee = 0n;
  let nonce = 0n;
  let tx: Transfer = { chainId, to: recipient, value: 0n, nonce, fee };
  // Nonce 1 is signed with nonce 0 and sent right after it: a block in between would make it the next
  // nonce anyway, and say nothing about queueing.
  let first = codec.sign(sender.privateKey, tx);
  let second = codec.sign(sender.privateKey, { ...tx, nonce: 1n });
  let accepted = await run.send('a free transfer (fresh key, value 0, fee 0, nonce 0)', first.wire);
  let mode: FirstTransfer['mode'] = accepted.outcome.kind === 'result' ? 'free' : 'none';
  if (mode === 'none' && input.funded !== undefined) {
    const balance = await waitForFunds(run.prober, methods, input.funded.address, 3n * input.fee, input.blockTimeMs);
    if (balance.ok) {
      sender = { privateKey: input.funded.privateKey, address: input.funded.address };
      fee = input.fee;
      nonce = balance.nonce;
      tx = { chainId, to: recipient, value: 0n, nonce, fee };
      first = codec.sign(sender.privateKey, tx);
      second = codec.sign(sender.privateKey, { ...tx, nonce: nonce + 1n });
      accepted = await run.send(`a funded transfer (faucet key, value 0, fee ${fee}, nonce ${nonce})`, first.wire);
      if (accepted.outcome.kind === 'result') mode = 'funded';
    } else {
      run.warnings.push(`the faucet-funded key had no funds in time (${balance.text}); the transaction sequence was not probed`);
    }
  }
  return { sender, fee, nonce, tx, first, second, accepted, mode };
}

/**
 * From the accepted transfer (its `result`): txResult, then nonce 1 right after it, itself again, another
 * transfer at its nonce and one 5 nonces ahead. The next nonce of the sender after them, and the transfer's
 * result when it is an object.
 */
async function probeSequence(run: TxRun, a: FirstTransfer, result: JsonValue, chainIdSource: string): Promise<{ next: bigint; txObject: TransactionsDetected['txObject'] }> {
  const reference = referenceProfile();
  const { codec, chainId, findings, warnings } = run;
  const { accepted, first, nonce, sender, tx } = a;
  let next = nonce + 1n;
  const chainNote = `chain id ${chainId} (${chainIdSource})`;
  let txObject: TransactionsDetected['txObject'];
  if (typeof result === 'string') {
    const same = first.hash !== undefined && result.replace(/^0x/, '').toLowerCase() === first.hash.toLowerCase();
    findings.push(probed('txResult', 'hash', HEX64.test(result) ? 'high' : 'medium', `${accepted.text} (a bare string${same ? ', the codec\'s hash' : ''}; ${chainNote})`));
  } else if (isObject(result)) {
    const key = hashKeyOf(result, first.hash);
    findings.push(key === undefined ? fallback('txResult', 'object', `${accepted.text}: an object with no 64-hex value`) : probed('txResult', 'object', 'high', `${accepted.text}: an object whose "${key}" holds the hash`));
    if (key !== undefined) txObject = { call: describeCall(run.method, ['<accepted transfer>']), outcome: accepted.outcome, hashKey: key };
  } else {
    findings.push(fallback('txResult', reference.txResult, `${accepted.text}: neither a string nor an object`));
  }
  const sequential = await run.send(`nonce ${nonce + 1n} right after nonce ${nonce}`, a.second.wire);
  if (sequential.outcome.kind === 'result') {
    findings.push(probed('sequentialNonces', 'queued', 'high', sequential.text));
    next = nonce + 2n;
  } else if (sequential.outcome.kind === 'error') findings.push(probed('sequentialNonces', 'refused', 'high', sequential.text));
  else findings.push(fallback('sequentialNonces', reference.sequentialNonces, sequential.text));

  const duplicate = await run.send('the accepted transfer again', first.wire);
  code(findings, warnings, 'TxDuplicate', duplicate, 'answered with a result: the node has no duplicate error');
  const low = await run.send(`another transfer at the used nonce ${nonce}`, codec.sign(sender.privateKey, { ...tx, to: codec.newKey().address }).wire);
  code(findings, warnings, 'NonceTooLow', low, 'accepted: the node replaces or keeps a second transaction at a used nonce');
  const gapNonce = next + 5n;
  const gap = await run.send(`nonce ${gapNonce} (5 ahead of the next nonce ${next})`, codec.sign(sender.privateKey, { ...tx, nonce: gapNonce }).wire);
  if (gap.outcome.kind === 'result') {
    findings.push(probed('nonceGap', 'held', 'high', gap.text));
    findings.push(probed('errorCodes.NonceGap', null, 'medium', `${gap.text}: held, so no NonceGap error`));
  } else if (gap.outcome.kind === 'error') {
    findings.push(probed('nonceGap', 'refused', 'high', gap.text));
    code(findings, warnings, 'NonceGap', gap, '');
  } else findings.push(fallback('nonceGap', reference.nonceGap, gap.text));
  return { next, txObject };
}

/** One deliberately bad transaction per error, each with a single defect. */
async function negatives(run: TxRun, a: FirstTransfer, next: bigint): Promise<void> {
  const reference = referenceProfile();
  const { codec, chainId, recipient, findings, warnings, dropped, send } = run;
  const { mode, sender, tx, fee } = a;
  // In funded mode the funded key signs (at its next nonce), so a balance check cannot be what refuses them.
  const bad = (): { privateKey: Uint8Array; tx: Transfer } => (mode === 'funded' ? { privateKey: sender.privateKey, tx: { ...tx, nonce: next } } : { privateKey: codec.newKey().privateKey, tx: { chainId, to: recipient, value: 0n, nonce: 0n, fee } });
  const empty = codec.newKey();
  dropOrCode(findings, dropped, 'InsufficientBalance', await send(`value 1${fee > 0n ? ` + fee ${fee}` : ''} from an empty key`, codec.sign(empty.privateKey, { chainId, to: recipient, value: 1n, nonce: 0n, fee }).wire));
  const w = bad();
  dropOrCode(findings, dropped, 'TxWrongChain', await send(`signed for chain id ${chainId + 1n}`, codec.sign(w.privateKey, { ...w.tx, chainId: chainId + 1n }).wire));
  const crafted = codec.crafted;
  if (crafted === undefined) {
    for (const name of ['TxMalformed', 'TxBadSignature', 'AmountOverflow'] as const) findings.push(fallback(`errorCodes.${name}`, reference.errorCodes[name] ?? null, `the codec ${codec.name} has no crafted variants`));
    return;
  }
  const m = bad();
  code(findings, warnings, 'TxMalformed', await send('one byte short', crafted.wrongLength(m.privateKey, m.tx)), 'accepted');
  const s = bad();
  dropOrCode(findings, dropped, 'TxBadSignature', await send('one signature byte changed', crafted.badSignature(s.privateKey, s.tx)));
  const o = bad();
  dropOrCode(findings, dropped, 'AmountOverflow', await send('value 2^128-1 and fee 1', crafted.overflow(o.privateKey, o.tx)));
}

/** The findings over every transaction sent: droppedLater, the codes' confidence, and whether the codec fits at all. */
function finish(run: TxRun, a: FirstTransfer, txObject: TransactionsDetected['txObject']): TransactionsDetected {
  const { codec, findings, warnings, dropped, results, sent } = run;
  const { mode, accepted } = a;
  if (mode !== 'none') {
    findings.push(
      dropped.length === 0
        ? probed('droppedLater', [], 'high', 'every invalid transaction sent was refused at once')
        : probed('droppedLater', dropped.map((d) => d.name), 'medium', `admitted, not refused: ${dropped.map((d) => `${d.name} (${d.text})`).join('; ')}; the SHOULD checks judge that they never take effect`),
    );
  }
  const errors = sent.filter((s) => s.outcome.kind === 'error');
  const codes = new Set(errors.map((s) => (s.outcome.kind === 'error' ? s.outcome.code : 0)));
  if (mode === 'none' && errors.length === sent.length && codes.size === 1) {
    // Every transaction refused alike: the node most likely cannot read this codec's transactions at all.
    const [only] = codes;
    const note = `every transaction (${sent.length}) was refused with ${only}: the node may use another transaction format; give a codec module (--codec <module>, profile/TxCodec.ts)`;
    warnings.push(note);
    const kept = findings.filter((f) => !f.key.startsWith('errorCodes.'));
    kept.push(fallback('codec', codec.name, note, false));
    return { findings: kept, txObject, results, warnings };
  }
  // A code two conditions share cannot tell them apart: medium.
  const byCode = new Map<JsonValue, number>();
  for (const f of findings) if (f.key.startsWith('errorCodes.') && f.value !== null) byCode.set(f.value, (byCode.get(f.value) ?? 0) + 1);
  const out = findings.map((f) => (f.key.startsWith('errorCodes.') && f.confidence === 'high' && (byCode.get(f.value) ?? 0) > 1 ? { ...f, confidence: 'medium' as const, evidence: `${f.evidence} (the same code as another transaction error)` } : f));
  if (mode === 'none') warnings.push(`no transfer was accepted: ${accepted.text}`);
  return { findings: out, txObject, results, warnings };
}

/**
 * A refusal of an invalid transaction the spec lets a node admit and drop later (Profile.droppedLater):
 * its code as errorCodes.<name>; a result puts the name in droppedLater (the reference default code stays).
 */
function dropOrCode(findings: Finding[], dropped: { name: string; text: string }[], name: string, s: Sent): void {
  if (s.outcome.kind === 'result') {
    dropped.push({ name, text: s.text });
    findings.push(fallback(`errorCodes.${name}`, referenceProfile().errorCodes[name] ?? null, `${s.text}: admitted (droppedLater), so no code was seen`));
    return;
  }
  code(findings, [], name, s, '');
}

/** A refusal's code as errorCodes.<name>; a result is `acceptedNote` (TxDuplicate and NonceTooLow: null, the node has none). */
function code(findings: Finding[], warnings: string[], name: string, s: Sent, acceptedNote: string): void {
  const reference = referenceProfile().errorCodes[name] ?? null;
  if (s.outcome.kind === 'error') findings.push(probed(`errorCodes.${name}`, s.outcome.code, 'high', s.text));
  else if (s.outcome.kind === 'result' && (name === 'TxDuplicate' || name === 'NonceTooLow')) findings.push(probed(`errorCodes.${name}`, null, 'medium', `${s.text}: ${acceptedNote}`));
  else if (s.outcome.kind === 'result') {
    findings.push(fallback(`errorCodes.${name}`, reference, `${s.text}: ${acceptedNote} (a node should refuse it)`));
    warnings.push(`${s.what}: accepted; a sound node refuses it (the SHOULD checks will say so)`);
  }
  else findings.push(fallback(`errorCodes.${name}`, reference, s.text));
}

/** Waits (bounded) until an account holds `min`; its nonce for the next transfer. */
async function waitForFunds(prober: Prober, methods: MethodsDetected, address: string, min: bigint, blockTimeMs: number): Promise<{ ok: true; nonce: bigint } | { ok: false; text: string }> {
  const method = methods.wire('chain_getAccount');
  const until = Date.now() + Math.min(30_000, Math.max(5_000, 20 * blockTimeMs), Math.max(0, prober.remainingMs() - 1_000));
  let last = '';
  while (Date.now() < until) {
    const outcome = await prober.call(method, [address]);
    last = `${describeCall(method, [address])} -> ${describeOutcome(outcome)}`;
    if (outcome.kind === 'result') {
      const balance = amountOf(fieldOf(outcome.result, RESULT_FIELDS.account, 'balance'));
      const nonce = amountOf(fieldOf(outcome.result, RESULT_FIELDS.account, 'nonce'));
      if (balance !== undefined && nonce !== undefined && balance >= min) return { ok: true, nonce };
    }
    await prober.sleep(Math.max(100, Math.min(1_000, Math.floor(blockTimeMs / 2))));
  }
  return { ok: false, text: `${last}; wanted a balance of at least ${min}` };
}
