/**
 * The response side of the varying node's later variations, after rewriteAnswers.ts: results changed
 * for the spec method each answers (found by id in renameMethods.ts's CallBook), keys already in the
 * client's spelling. genesis-parent-empty: the genesis block's parent_hash is "" instead of 64 zeros;
 * hex-peer-count: net_peerCount is a hex quantity while every other integer stays a JSON number;
 * faucet-renamed: rpc.discover lists the faucet under <prefix>faucet.
 */
import { parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import type { CallBook } from './callBook.js';
import { METHOD } from './interfaceMethods.js';
import { integerOf, isObject } from './jsonShapes.js';
import type { JsonObject } from './jsonShapes.js';
import { FAUCET_RENAMED } from './renameMethods.js';
import type { VariationName } from './variations.js';

type Modes = ReadonlySet<VariationName>;

const ZEROS_64 = '0'.repeat(64);
const FAUCET_CLAIM = /faucetClaim$/;
/** parent_hash in any spelling the key modes make (parent_hash, parentHash). */
const isParentKey = (key: string): boolean => key.toLowerCase().replace(/[^a-z]/g, '') === 'parenthash';

/** The body with each result rewritten for its method; the same text back when nothing changed. */
export function rewriteResults(body: string | null, book: CallBook, modes: Modes): string | null {
  if (body === null || body === '') return body;
  let parsed: JsonValue;
  try {
    parsed = parseJson(body);
  } catch {
    return body;
  }
  const one = (answer: JsonValue): JsonValue => (isObject(answer) ? rewriteResult(answer, book.take(answer.id)?.method, modes) : answer);
  const out = Array.isArray(parsed) ? parsed.map(one) : one(parsed);
  const changed = Array.isArray(parsed) && Array.isArray(out) ? out.some((a, i) => a !== parsed[i]) : out !== parsed;
  return changed ? stringifyJson(out) : body;
}

function rewriteResult(answer: JsonObject, method: string | undefined, modes: Modes): JsonObject {
  if (method === undefined || !Object.hasOwn(answer, 'result')) return answer;
  const result = answer.result ?? null;
  if (modes.has('genesis-parent-empty') && method === METHOD.getBlockByHeight && isObject(result)) {
    // The genesis block is the one block whose parent is 64 zeros upstream.
    const key = Object.keys(result).find((k) => isParentKey(k) && result[k] === ZEROS_64);
    if (key !== undefined) return { ...answer, result: { ...result, [key]: '' } };
  }
  if (modes.has('hex-peer-count') && method === METHOD.peerCount) {
    const n = integerOf(result);
    if (n !== undefined && n >= 0n) return { ...answer, result: `0x${n.toString(16)}` };
  }
  if (modes.has('faucet-renamed') && method === METHOD.discover && isObject(result) && Array.isArray(result.methods)) {
    const methods = result.methods.map((m) => (isObject(m) && typeof m.name === 'string' && FAUCET_CLAIM.test(m.name) ? { ...m, name: m.name.replace(FAUCET_CLAIM, FAUCET_RENAMED) } : m));
    return { ...answer, result: { ...result, methods } };
  }
  return answer;
}
