/**
 * The oracles as the runner applies them: an answer cut at the fuzzer's cap (MAX_ANSWER_BYTES) is judged only
 * by what a part can show (a leak, the time it took); its shape is not the node's fault to be read half.
 */
import type { Profile } from '../../profile/Profile.js';
import type { FuzzAnswer, FuzzHttp, OracleName, Violation } from '../model.js';
import { judge } from '../oracles/judge.js';

const ON_A_PART: ReadonlySet<OracleName> = new Set(['leak', 'slow']);

export function judgeAnswer(http: FuzzHttp, answer: FuzzAnswer, ctx: { profile: Profile; slowBoundMs: number }): Violation[] {
  const violations = judge({ http }, answer, ctx);
  return answer.truncated === true ? violations.filter((v) => ON_A_PART.has(v.oracle)) : violations;
}
