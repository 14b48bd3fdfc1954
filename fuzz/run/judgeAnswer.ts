/**
 * The oracles as the runner applies them: an answer cut at the fuzzer's cap (MAX_ANSWER_BYTES) is judged only
 * by what a part can show (a leak, the time it took); its shape is not the node's fault to be read half. A call
 * answered -32601 (the node does not serve the method) is not judged on its params or result: a method missing
 * is the conformance suite's finding (its method checks), not one fuzz finding per case.
 */
import type { Profile } from '../../profile/Profile.js';
import type { FuzzAnswer, FuzzHttp, OracleName, Violation } from '../model.js';
import { judge } from '../oracles/judge.js';

const ON_A_PART: ReadonlySet<OracleName> = new Set(['leak', 'slow']);
const OF_THE_METHOD: ReadonlySet<OracleName> = new Set(['error-code', 'result-schema', 'error-expected']);
/** A single answer whose error code is -32601. */
const METHOD_NOT_FOUND = /^\s*\{[\s\S]*"error"\s*:\s*\{[\s\S]*"code"\s*:\s*-32601\b/;

export function judgeAnswer(http: FuzzHttp, answer: FuzzAnswer, ctx: { profile: Profile; slowBoundMs: number }): Violation[] {
  const violations = judge({ http }, answer, ctx);
  if (answer.truncated === true) return violations.filter((v) => ON_A_PART.has(v.oracle));
  if (answer.text !== undefined && METHOD_NOT_FOUND.test(answer.text)) return violations.filter((v) => !OF_THE_METHOD.has(v.oracle));
  return violations;
}
