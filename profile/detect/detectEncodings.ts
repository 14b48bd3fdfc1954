import type { JsonValue } from '../../core/json/index.js';
import { referenceProfile } from '../referenceProfile.js';
import { classifyTimestamp } from './classifyTimestamp.js';
import { showJson } from './describe.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { fieldOf, RESULT_FIELDS } from './findKeys.js';
import { decideGenesisBlock } from './decideGenesisBlock.js';
import { decideIntegers } from './decideIntegers.js';
import type { IntegerSample } from './decideIntegers.js';
import { integerOf } from './integerOf.js';
import { isObject } from './Prober.js';
import { readText, resultOf } from './readResults.js';
import type { Observed, Read } from './readResults.js';

const HEX_64 = /^(0x)?[0-9a-fA-F]{64}$/;

const blockField = (block: JsonValue | undefined, name: string): JsonValue | undefined => fieldOf(block, RESULT_FIELDS.block, name);

/**
 * integers and methodIntegers: every integer the plain reads showed, by the method that wrote it
 * (decideIntegers: the encoding most methods share, and the methods that write the other one); with `funded`,
 * the account the faucet funded (read after the plain reads, probeSends.ts) as well: a node that answers a fresh
 * address with an error or null shows an account's integers only there.
 */
export function detectIntegers(o: Observed, funded?: Read): Finding[] {
  const samples: IntegerSample[] = [];
  const note = (method: string, where: string, v: JsonValue | undefined): void => {
    const i = integerOf(v);
    if (i !== undefined) samples.push({ method, where, form: i.form });
  };
  note('chain_blockNumber', 'the height', o.blockNumber?.outcome.kind === 'result' ? o.blockNumber.outcome.result : undefined);
  const tip = resultOf(o.tip);
  note('chain_getBlockByHeight', 'block height', blockField(tip, 'height'));
  note('chain_getBlockByHeight', 'transaction_count', blockField(tip, 'transaction_count'));
  note('chain_getBlockByHeight', 'block timestamp', blockField(tip, 'timestamp'));
  note('chain_getAccount', 'account nonce', fieldOf(resultOf(o.account), RESULT_FIELDS.account, 'nonce'));
  note('chain_getAccount', 'the funded account\'s nonce', fieldOf(resultOf(funded), RESULT_FIELDS.account, 'nonce'));
  note('chain_health', 'chain_id', fieldOf(resultOf(o.health), RESULT_FIELDS.health, 'chain_id'));
  note('chain_pouLocal', 'local_score', fieldOf(resultOf(o.pouLocal), RESULT_FIELDS.pouLocal, 'local_score'));
  const peers = fieldOf(resultOf(o.pouPeers), RESULT_FIELDS.pouPeers, 'peers');
  if (isObject(peers)) for (const score of Object.values(peers).slice(0, 5)) note('chain_pouPeers', 'a peer score', score);
  const peerCount = resultOf(o.peerCount);
  note('net_peerCount', 'the peer count', isObject(peerCount) ? fieldOf(peerCount, RESULT_FIELDS.peerCount, 'count') : peerCount);
  const head = o.blockNumber === undefined ? undefined : `${readText(o.blockNumber)}${samples[0]?.method === 'chain_blockNumber' ? ` (${samples[0].form === 'hex' ? 'a hex quantity' : 'a JSON number'})` : ''}`;
  return decideIntegers(samples, head);
}

/** identifiers: the leader and the peers' keys are 64 hex (the profile's hex) or any other string. */
function identifiers(o: Observed): Finding {
  const seen: string[] = [];
  const leader = fieldOf(resultOf(o.pouLocal), RESULT_FIELDS.pouLocal, 'leader');
  // The leader's type is not shown: an object or a number is no identifier the profile can state but 'any'.
  if (leader !== undefined && leader !== null && typeof leader !== 'string') return probed('identifiers', 'any', 'high', `leader ${showJson(leader, 40)} is not a string`);
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
  // local_score's type is not shown: a string or an object is a score only 'any' states.
  const other = seen.find((s) => typeof s !== 'number' && typeof s !== 'bigint' && integerOf(s) === undefined);
  if (other !== undefined) return probed('scores', 'any', 'high', `score ${showJson(other, 40)} is not a number`);
  if (integral.length < seen.length) return fallback('scores', referenceProfile().scores, `scores ${showJson(seen, 60)} are not numbers`);
  // A score that is integral now may still be fractional later: one sample is a hint, several are evidence.
  return probed('scores', 'integer', seen.length > 1 ? 'high' : 'medium', `${seen.length} score(s) seen, all integers: ${showJson(seen, 50)}`);
}

/** timestamps: from a block after the genesis (whose timestamp may be 0). */
function timestamps(o: Observed, nowMs: number): Finding {
  const tip = resultOf(o.tip);
  const after = o.tip !== undefined && o.genesisHeight !== undefined && o.tipHeight !== undefined && o.tipHeight > o.genesisHeight;
  if (!after || !isObject(tip)) return fallback('timestamps', referenceProfile().timestamps, 'no block after the genesis block was read');
  const value = blockField(tip, 'timestamp');
  const reading = classifyTimestamp(value, nowMs);
  if (reading === undefined) return fallback('timestamps', referenceProfile().timestamps, `block ${o.tipHeight} timestamp ${showJson(value)}: not milliseconds, seconds or ISO 8601`);
  const when = new Date(reading.ms).toISOString();
  return probed('timestamps', reading.unit, reading.plausible ? 'high' : 'medium', `block ${o.tipHeight} timestamp ${showJson(value)} = ${when} as ${reading.unit}${reading.plausible ? '' : ', far from this machine\'s clock'}`);
}

/**
 * genesisHeight: a block at 0, else at 1 (high confidence); else the lowest height with a block (medium: a node
 * that prunes old blocks shows its pruning point the same way).
 */
function genesisHeight(o: Observed): Finding {
  if (o.genesisHeight === undefined) return fallback('genesisHeight', referenceProfile().genesisHeight, o.genesisEvidence === '' ? 'chain_getBlockByHeight not served' : `no block found at 0, at 1 or below the tip: ${o.genesisEvidence}`);
  // A bigint, written exactly: a JSON number up to 2^53, a decimal string above (buildProfileJson).
  return probed('genesisHeight', o.genesisHeight, o.genesisHeight <= 1n ? 'high' : 'medium', o.genesisEvidence);
}

/** A count written as a decimal string: digits only (a hex quantity is an integer, read by integerOf). */
const DECIMAL = /^[0-9]+$/;

/**
 * peerCountResult: net_peerCount's result (docs/interface.md#net_peercount: not shown) is the count itself (an
 * integer, or a decimal string), or an object with a member that holds it (found as `fields.count` is: its name,
 * another spelling, a synonym).
 */
function peerCountResult(o: Observed): Finding {
  const reference = referenceProfile().peerCountResult;
  if (o.peerCount === undefined) return fallback('peerCountResult', reference, 'net_peerCount not served');
  const result = resultOf(o.peerCount);
  if (result === undefined) return fallback('peerCountResult', reference, `${readText(o.peerCount)}: no result`);
  if (integerOf(result) !== undefined) return probed('peerCountResult', 'integer', 'high', `${readText(o.peerCount)}: the count itself`);
  if (typeof result === 'string' && DECIMAL.test(result)) return probed('peerCountResult', 'decimal', 'high', `${readText(o.peerCount)}: the count as a decimal string`);
  const count = isObject(result) ? fieldOf(result, RESULT_FIELDS.peerCount, 'count') : undefined;
  if (count !== undefined && integerOf(count) !== undefined) return probed('peerCountResult', 'object', 'high', `${readText(o.peerCount)}: an object whose count member holds the count`);
  return fallback('peerCountResult', reference, `${readText(o.peerCount)}: neither an integer, a decimal string nor an object with a count`);
}

/**
 * The encodings the spec leaves open, decided from the plain reads alone (no request of its own):
 * integers and methodIntegers, identifiers, scores, timestamps, genesisHeight and genesisBlock.
 */
export function detectEncodings(observed: Observed, nowMs = Date.now()): Finding[] {
  const genesis = decideGenesisBlock(resultOf(observed.genesis), `genesis block ${observed.genesisHeight ?? '?'}`);
  return [...detectIntegers(observed), peerCountResult(observed), identifiers(observed), scores(observed), timestamps(observed, nowMs), genesisHeight(observed), genesis];
}
