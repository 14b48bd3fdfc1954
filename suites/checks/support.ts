import type { CheckContext } from '../CheckContext.js';
import type { JsonValue } from '../../core/json/index.js';
import { stringifyJson } from '../../core/json/index.js';

/** A JSON value as a short string for evidence. */
export const show = (v: JsonValue | undefined): string => {
  if (v === undefined) return '(absent)';
  const text = stringifyJson(v);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/** Fails with the problems when a result breaks the method's schema at the level. */
export function expectSchema(ctx: CheckContext, method: string, result: JsonValue, level: 'spec' | 'profile'): void {
  const problems = ctx.problems(method, result, level);
  if (problems.length > 0) {
    ctx.fail(
      `${method} result breaks the ${level === 'spec' ? "spec's" : "profile's"} schema: ${problems.map((p) => `${p.pointer || '(result)'} ${p.message}`).join('; ')}`,
      `a result matching schemas/methods/${method}.schema.json (${level === 'spec' ? 'specResult' : 'result'})`,
      show(result),
    );
  }
}

/** An address nobody has used: 64 hex characters from fresh randomness. */
export function unusedAddress(ctx: CheckContext): string {
  return ctx.profile.codec.newKey().address;
}

/** The call must be refused with some JSON-RPC error (any code); returns the error. */
export async function expectRefused(ctx: CheckContext, method: string, params: JsonValue[], what: string): Promise<{ code: number; message: string; data?: JsonValue }> {
  const r = await ctx.call(method, params);
  if (r.ok) ctx.fail(`${method} accepted ${what}`, 'a JSON-RPC error', show(r.result));
  return r.error;
}

/** The call must be refused with the profile's code for `errorName`. */
export async function expectProfileError(ctx: CheckContext, method: string, params: JsonValue[], errorName: string, what: string): Promise<{ code: number; message: string; data?: JsonValue }> {
  const error = await expectRefused(ctx, method, params, what);
  const code = ctx.profile.errorCodes[errorName];
  ctx.expect(error.code === code, `${method} refused ${what} with code ${error.code}, not the profile's ${errorName}`, `${code} (${errorName})`, error);
  return error;
}
