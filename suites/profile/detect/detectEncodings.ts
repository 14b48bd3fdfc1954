import type { JsonValue } from '../../../core/json/index.js';
import { referenceProfile } from '../referenceProfile.js';
import { classifyTimestamp } from './classifyTimestamp.js';
import { showJson } from './describe.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { fieldOf, RESULT_FIELDS } from './findKeys.js';
import { integerOf } from './integerOf.js';
import type { IntegerForm } from './integerOf.js';
import { isObject } from './Prober.js';
import { readText, resultOf } from './readResults.js';
import type { Observed } from './readResults.js';

const ZEROS_64 = /^(0x)?0{64}$/;
const HEX_64 = /^(0x)?[0-9a-fA-F]{64}$/;

const blockField = (block: JsonValue | undefined, name: string): JsonValue | undefined => fieldOf(block, RESULT_FIELDS.block, name);

/** integers: chain_blockNumber's result decides; the other integers seen confirm or weaken it. */
function integers(o: Observed): Finding {
  const others: Array<{ where: string; form: IntegerForm }> = [];
  const note = (where: string, v: JsonValue | undefined): void => {
    const i = integerOf(v);
    if (i !== undefined) others.push({ where, form: i.form });
  };
  const tip = resultOf(o.tip);
  note('block height', blockField(tip, 'height'));
  note('transaction_count', blockField(tip, 'transaction_count'));
  note('block timestamp', blockField(tip, 'timestamp'));
  note('account nonce', fieldOf(resultOf(o.account), RESULT_FIELDS.account, 'nonce'));
  note('local_score', fieldOf(resultOf(o.pouLocal), RESULT_FIELDS.pouLocal, 'local_score'));
  note('net_peerCount', resultOf(o.peerCount));
  const head = o.blockNumber?.outcome.kind === 'result' ? integerOf(o.blockNumber.outcome.result) : undefined;
  const form = head?.form ?? (others.length > 0 ? (others.filter((x) => x.form === 'hex').length * 2 > others.length ? 'hex' : 'number') : undefined);
  if (form === undefined) return fallback('integers', referenceProfile().integers, o.blockNumber ? `${readText(o.blockNumber)}: not an integer in either form` : 'chain_blockNumber not read');
  const disagree = others.filter((x) => x.form !== form).map((x) => x.where);
  const agree = others.length - disagree.length;
  const headText = o.blockNumber && head ? `${readText(o.blockNumber)} (${form === 'hex' ? 'a hex quantity' : 'a JSON number'})` : 'chain_blockNumber gave no integer';
  const tail = disagree.length > 0 ? `; but written otherwise: ${disagree.join(', ')}` : others.length > 0 ? `; ${agree} other integer(s) agree` : '';
  return probed('integers', form, head !== undefined && disagree.length === 0 ? 'high' : 'medium', headText + tail);
}

/** identifiers: the leader and the peers' keys are 64 hex (the profile's hex) or any other string. */
function identifiers(o: Observed): Finding {
  const seen: string[] = [];
  const leader = fieldOf(resultOf(o.pouLocal), RESULT_FIELDS.pouLocal, 'leader');
  if (typeof leader === 'string') seen.push(leader);
  const peers = fieldOf(resultOf(o.pouPeers), RESULT_FIELDS.pouPeers, 'peers');
  if (isObject(peers)) seen.push(...Object.keys(peers).slice(0, 50));
  if (seen.length === 0) return fallback('identifiers', referenceProfile().identifiers, `no identifier seen (leader ${showJson(leader)}, ${isObject(peers) ? 'no peers' : 'no peers map'})`);
  const other = seen.filter((s) => !HEX_64.test(s));
  const what = `leader ${typeof leader === 'string' ? showJson(leader, 20) : showJson(leader)}, ${isObject(peers) ? Object.keys(peers).length : 0} peer identifier(s)`;
  if (other.length > 0) return probed('identifiers', 'string', 'high', `${what}: ${showJson(other[0], 30)} is not 64 hex`);
  return probed('identifiers', 'hex', seen.length > 1 ? 'high' : 'medium', `${what}: all 64 hex${seen.length > 1 ? '' : ' (one sample)'}`);
}

/** scores: integers (the reference) or any number (docs/interface.md#resource-pou-peers: a number that can be ordered). */
function scores(o: Observed): Finding {
  const seen: JsonValue[] = [];
  const local = fieldOf(resultOf(o.pouLocal), RESULT_FIELDS.pouLocal, 'local_score');
  if (local !== undefined && local !== null) seen.push(local);
  const peers = fieldOf(resultOf(o.pouPeers), RESULT_FIELDS.pouPeers, 'peers');
  if (isObject(peers)) seen.push(...Object.values(peers).slice(0, 50));
  if (seen.length === 0) return fallback('scores', referenceProfile().scores, 'no score seen (chain_pouLocal and chain_pouPeers gave none)');
  const fractional = seen.find((s) => typeof s === 'number' && !Number.isInteger(s));
  if (fractional !== undefined) return probed('scores', 'number', 'high', `score ${showJson(fractional)} is not an integer`);
  const integral = seen.filter((s) => integerOf(s) !== undefined);
  if (integral.length < seen.length) return fallback('scores', referenceProfile().scores, `scores ${showJson(seen, 60)} are not numbers`);
  // A score that is integral now may still be fractional later: one sample is a hint, several are evidence.
  return probed('scores', 'integer', seen.length > 1 ? 'high' : 'medium', `${seen.length} score(s) seen, all integers: ${showJson(seen, 50)}`);
}

/** timestamps: from a block after the genesis (whose timestamp may be 0). */
function timestamps(o: Observed, nowMs: number): Finding {
  const tip = resultOf(o.tip);
  const after = o.tip !== undefined && o.genesisHeight !== undefined && o.tipHeight !== undefined && o.tipHeight > BigInt(o.genesisHeight);
  if (!after || !isObject(tip)) return fallback('timestamps', referenceProfile().timestamps, 'no block after the genesis block was read');
  const value = blockField(tip, 'timestamp');
  const reading = classifyTimestamp(value, nowMs);
  if (reading === undefined) return fallback('timestamps', referenceProfile().timestamps, `block ${o.tipHeight} timestamp ${showJson(value)}: not milliseconds, seconds or ISO 8601`);
  const when = new Date(reading.ms).toISOString();
  return probed('timestamps', reading.unit, reading.plausible ? 'high' : 'medium', `block ${o.tipHeight} timestamp ${showJson(value)} = ${when} as ${reading.unit}${reading.plausible ? '' : ', far from this machine\'s clock'}`);
}

/** genesisHeight: a block at 0, else at 1. */
function genesisHeight(o: Observed): Finding {
  if (o.genesisHeight === undefined) return fallback('genesisHeight', referenceProfile().genesisHeight, o.genesisEvidence === '' ? 'chain_getBlockByHeight not served' : `no block at 0 or 1: ${o.genesisEvidence}`);
  return probed('genesisHeight', o.genesisHeight, 'high', o.genesisEvidence);
}

/** genesisZeros: the first block names 64 zeros as parent_hash and proposer, and has timestamp 0. */
function genesisZeros(o: Observed): Finding {
  const block = resultOf(o.genesis);
  if (!isObject(block)) return fallback('genesisZeros', referenceProfile().genesisZeros, 'no genesis block was read');
  const parent = blockField(block, 'parent_hash');
  const proposer = blockField(block, 'proposer');
  const time = blockField(block, 'timestamp');
  const checks: Array<{ what: string; ok: boolean }> = [];
  if (parent !== undefined) checks.push({ what: `parent_hash ${showJson(parent, 24)}`, ok: typeof parent === 'string' && ZEROS_64.test(parent) });
  if (proposer !== undefined) checks.push({ what: `proposer ${showJson(proposer, 24)}`, ok: typeof proposer === 'string' && ZEROS_64.test(proposer) });
  if (time !== undefined) checks.push({ what: `timestamp ${showJson(time, 30)}`, ok: integerOf(time)?.value === 0n || (typeof time === 'string' && Date.parse(time) === 0) });
  if (checks.length === 0) return fallback('genesisZeros', referenceProfile().genesisZeros, 'the genesis block has none of parent_hash, proposer and timestamp');
  const ok = checks.every((c) => c.ok);
  return probed('genesisZeros', ok, checks.length === 3 ? 'high' : 'medium', `genesis block ${o.genesisHeight}: ${checks.map((c) => c.what).join(', ')}`);
}

/**
 * The encodings the spec leaves open, decided from the plain reads alone (no request of its own):
 * integers, identifiers, scores, timestamps, genesisHeight and genesisZeros.
 */
export function detectEncodings(observed: Observed, nowMs = Date.now()): Finding[] {
  return [integers(observed), identifiers(observed), scores(observed), timestamps(observed, nowMs), genesisHeight(observed), genesisZeros(observed)];
}
