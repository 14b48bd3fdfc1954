/**
 * The answer to a valid call, judged by the method's schema under the profile (profile/profileSchemas.ts,
 * the single source of every shape): a result must validate against `definitions/result` at the profile's
 * level (with the profile's own forms: a null result for a height with no block where unknownHeight is
 * 'null', for an account the chain never saw where unknownAccount is 'null', the genesis block's forms at the genesis height); an error must be one of the method's errors
 * (`definitions/error`, by the profile's codes: errorCodes, with AccountNotFound where unknownAccount is
 * 'error'), its data left alone (optional in JSON-RPC 2.0 §5.1; its shape is the profile's errorData, which the suite
 * checks);
 * -32603 is the node's own word for a bug ('internal-error', JSON-RPC 2.0 §5.1); and a refusal of valid
 * params with the InvalidParams code is a result-schema finding (the params validate against the method's own
 * schema). rpc.discover is optional (docs/reference-profile.md; the suite never requires it), and so is
 * chain_faucetClaim on a network without a faucet: -32601 is a right answer to them.
 */
import type { JsonValue } from '../../core/json/index.js';
import { short } from '../../core/client/validateResponse.js';
import { schemaCatalog } from '../../core/schema/schemaCatalog.js';
import { formatProblems } from '../../core/schema/validators.js';
import type { Profile } from '../../profile/Profile.js';
import { GENESIS_SCHEMA_REF, profileValidators } from '../../profile/profileSchemas.js';
import { asU64, isObject, readField } from '../../profile/readWire.js';
import type { JsonObject } from '../../profile/readWire.js';
import type { Violation } from '../model.js';

const INTERNAL_ERROR = -32603;
const METHOD_NOT_FOUND = -32601;

/** What is wrong with a valid call's result, if anything. `call.what` (the call in words) is read only for a violation. */
export function resultViolations(spec: string, result: JsonValue, profile: Profile, call: { readonly what: string }): Violation[] {
  if (spec === 'chain_getBlockByHeight' && result === null && profile.unknownHeight === 'null') return [];
  if (spec === 'chain_getAccount' && result === null && profile.unknownAccount === 'null') return [];
  const v = profileValidators(profile);
  let checked = v.result(spec, result, 'profile');
  if (checked.ok) return [];
  // The genesis block is judged by the profile's genesis forms (genesisBlock), and so are its problems said.
  if (spec === 'chain_getBlockByHeight' && isGenesis(result, profile)) {
    checked = v.validate(GENESIS_SCHEMA_REF, result);
    if (checked.ok) return [];
  }
  return [{
    oracle: 'result-schema',
    message: `answered ${call.what} with a result that breaks the method's result schema under profile ${profile.name}: ${formatProblems(checked.problems)}`,
    source: `schema: methods/${spec}.schema.json#/definitions/result`,
    excerpt: short(result),
    kind: 'result-schema result',
  }];
}

function isGenesis(result: JsonValue, profile: Profile): boolean {
  return asU64(readField(profile, result, 'height')) === BigInt(profile.genesisHeight);
}

/** What is wrong with an error answer to a valid call, if anything. `call.what` (the call in words) is read only for a violation. */
export function errorViolations(spec: string, error: JsonObject, profile: Profile, call: { readonly what: string }): Violation[] {
  const code = error.code;
  if (code === INTERNAL_ERROR) {
    return [{ oracle: 'internal-error', message: `answered ${call.what}, a valid call, with -32603 Internal error: the node's own word for a failure of its own`, source: 'JSON-RPC 2.0 §5.1 (-32603)', excerpt: short(error), kind: 'internal-error' }];
  }
  const source = `schema: methods/${spec}.schema.json#/definitions/error`;
  const wrong = (message: string, kind: string): Violation[] => [{ oracle: 'result-schema', message, source, excerpt: short(error), kind }];
  const names = methodErrors(spec, profile);
  // A name whose code the profile does not compare (null): any code may be it.
  if (names.some((n) => codesOf(profile, n).includes(null))) return [];
  // A code that is no number at all ("-32040"): its type is what is wrong, whichever error it meant.
  if (typeof code !== 'number' && typeof code !== 'bigint') return wrong(`answered ${call.what}, a valid call, with an error whose code is ${short(code)}, a ${code === null ? 'null' : Array.isArray(code) ? 'array' : typeof code}, not an integer (JSON-RPC 2.0 §5.1)`, 'result-schema error code not an integer');
  const named = names.filter((n) => typeof code === 'number' && codesOf(profile, n).includes(code));
  if (named.length === 0) {
    if (code === METHOD_NOT_FOUND && optionalMethod(spec, profile)) return [];
    const known = names.map((n) => `${n} ${codesOf(profile, n).join('/')}`).join(', ');
    return wrong(`answered ${call.what}, a valid call, with error code ${short(code)}, none of ${spec}'s errors under profile ${profile.name} (${known})`, `result-schema error code ${short(code)}`);
  }
  if (named.every((n) => n === 'InvalidParams')) {
    return wrong(`refused ${call.what} with ${short(code)} (InvalidParams), though its params validate against ${spec}'s params schema`, 'result-schema valid params refused');
  }
  // Its data is left alone: JSON-RPC 2.0 §5.1 makes it optional and of any shape, and the shape a node gives it is
  // the profile's errorData, a PROFILE matter the suite checks (a node's choice, not a robustness finding).
  return [];
}

/** Whether a node may lack the method (answer -32601) under the profile. */
export function optionalMethod(spec: string, profile: Profile): boolean {
  return spec === 'rpc.discover' || (spec === 'chain_faucetClaim' && !profile.faucet);
}

const CODES = new WeakMap<Profile, Map<string, (number | null)[]>>();

/** The codes the profile gives an error name, for any condition (null: not compared); read once per profile and name. */
function codesOf(profile: Profile, name: string): (number | null)[] {
  const byName = CODES.get(profile) ?? CODES.set(profile, new Map()).get(profile)!;
  let codes = byName.get(name);
  if (codes === undefined) {
    codes = Object.entries(profile.errorCodes).filter(([key]) => key === name || key.startsWith(`${name}/`)).map(([, code]) => code);
    byName.set(name, codes);
  }
  return codes;
}

let errorsByMethod: Map<string, string[]> | undefined;

/** The error names a method's schema lists (definitions/error: a oneOf of errors.schema.json definitions), with the profile's additions. */
function methodErrors(spec: string, profile: Profile): string[] {
  errorsByMethod ??= new Map(schemaCatalog().methods.map((m) => [m.title, refsOf(m.definitions.error.oneOf)]));
  const names = errorsByMethod.get(spec) ?? [];
  return spec === 'chain_getAccount' && profile.unknownAccount === 'error' ? [...names, 'AccountNotFound'] : names;
}

function refsOf(oneOf: JsonValue | undefined): string[] {
  if (!Array.isArray(oneOf)) return [];
  return oneOf.flatMap((alt) => (isObject(alt) && typeof alt.$ref === 'string' ? [alt.$ref.slice(alt.$ref.lastIndexOf('/') + 1)] : []));
}

