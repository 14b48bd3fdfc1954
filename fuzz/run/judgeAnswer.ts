/**
 * The oracles as the runner applies them: an answer cut at the fuzzer's cap (MAX_ANSWER_BYTES) is judged only
 * by what a part can show (a leak, the time it took); its shape is not the node's fault to be read half. A call
 * answered -32601 (the node does not serve the method) is not judged on its params or result: a method missing
 * is the conformance suite's finding (its method checks), not one fuzz finding per case.
 */
import { parseJson } from '../../core/json/index.js';
import type { Profile } from '../../profile/Profile.js';
import { isObject } from '../../profile/readWire.js';
import type { FuzzAnswer, FuzzHttp, OracleName, Violation } from '../model.js';
import { judge } from '../oracles/judge.js';

const ON_A_PART: ReadonlySet<OracleName> = new Set(['leak', 'slow']);
const OF_THE_METHOD: ReadonlySet<OracleName> = new Set(['error-code', 'result-schema', 'error-expected']);
/** A single answer whose error code is -32601 (parsed only when the text holds the code at all). */
function methodNotFound(text: string): boolean {
  if (!text.includes('-32601')) return false;
  try {
    const v = parseJson(text);
    return isObject(v) && isObject(v.error) && v.error.code === -32601;
  } catch {
    return false;
  }
}

export function judgeAnswer(http: FuzzHttp, answer: FuzzAnswer, ctx: { profile: Profile; slowBoundMs: number }): Violation[] {
  const violations = judge({ http }, answer, ctx);
  if (answer.truncated === true) return violations.filter((v) => ON_A_PART.has(v.oracle));
  if (answer.text !== undefined && methodNotFound(answer.text)) return violations.filter((v) => !OF_THE_METHOD.has(v.oracle));
  return violations;
}
