/**
 * `caseAt(seed, index, ctx)`: the fuzzer's one entry into case generation. It derives the case's own PRNG from
 * (seed, index), picks a family (valid 30%, invalid-params 35%, envelope 30%, http 5%, as `only` allows) and one
 * of its generators, and turns the draft into a FuzzCase: exact bytes, the same body as a value when the bytes
 * are exactly that value's JSON text, and `risky` for what could hurt the node. The same (seed, index, ctx) give
 * the same bytes. `CASE_RULES` lists every rule a case can carry.
 */
import type { JsonValue } from '../../core/json/index.js';
import { METHOD_NAMES, type MethodName } from '../../core/schema/types.generated.js';
import { CASE_FAMILIES, type CaseFamily, type FuzzCase } from '../model.js';
import { BATCH_GENERATORS } from './batches.js';
import { BODY_GENERATORS } from './bodies.js';
import { unknownOnly, type CaseContext } from './CaseContext.js';
import { ENVELOPE_MEMBER_GENERATORS } from './envelopes.js';
import { makeGen, type Draft, type Generator } from './generator.js';
import { HTTP_GENERATORS } from './httpVariations.js';
import { INVALID_PARAMS_RULES, invalidParams } from './invalidParams.js';
import { rememberWrittenJson } from '../oracles/readJsonBody.js';
import { Draw } from './random.js';
import { VALID_RULES, validCalls } from './validCalls.js';
import { utf8, writeWireChecked } from './wire.js';

/** How often each family is drawn when `only` names none or several. */
export const FAMILY_WEIGHTS: Readonly<Record<CaseFamily, number>> = { valid: 30, 'invalid-params': 35, envelope: 30, http: 5 };

const GENERATORS: Readonly<Record<CaseFamily, readonly Generator[]>> = {
  valid: [validCalls],
  'invalid-params': [invalidParams],
  envelope: [...ENVELOPE_MEMBER_GENERATORS, ...BATCH_GENERATORS, ...BODY_GENERATORS],
  http: HTTP_GENERATORS,
};

/** Every rule a case can carry, `<family>/<rule>`: a finding's signature is oracle + method + one of these. */
export const CASE_RULES: readonly string[] = [
  ...VALID_RULES,
  ...INVALID_PARAMS_RULES,
  ...GENERATORS.envelope.map((g) => g.rule),
  ...GENERATORS.http.map((g) => g.rule),
];

/** A body over this many bytes is risky whatever its rule. */
const RISKY_BYTES = 64 * 1024;
/** Drafts tried before caseAt gives up (a draft can fail to fit the cap, or call a method `only` leaves out). */
const ATTEMPTS = 64;

interface Plan {
  profile: CaseContext['profile'];
  only: CaseContext['only'];
  families: [CaseFamily, number][];
  generators: Record<CaseFamily, [Generator, number][]>;
  callable: readonly MethodName[];
  targets: readonly MethodName[];
  restricted: boolean;
  asked: ReadonlySet<string>;
}

const plans = new WeakMap<CaseContext, Plan>();

function planOf(ctx: CaseContext): Plan {
  const known = plans.get(ctx);
  if (known !== undefined && known.profile === ctx.profile && known.only === ctx.only) return known;
  const unknown = unknownOnly(ctx.only);
  if (unknown.length > 0) throw new Error(`fuzz: unknown name(s) in only: ${unknown.join(', ')} (families: ${CASE_FAMILIES.join(', ')}; methods: ${METHOD_NAMES.join(', ')})`);
  const families = CASE_FAMILIES.filter((f) => ctx.only.includes(f));
  const asked = new Set(METHOD_NAMES.filter((m) => ctx.only.includes(m)));
  const restricted = asked.size > 0;
  const usable = (g: Generator): boolean => !(restricted && g.methodless === true);
  const plan: Plan = {
    profile: ctx.profile,
    only: ctx.only,
    families: (families.length > 0 ? families : CASE_FAMILIES).map((f) => [f, FAMILY_WEIGHTS[f]]),
    generators: {
      valid: GENERATORS.valid.filter(usable).map((g) => [g, g.weight]),
      'invalid-params': GENERATORS['invalid-params'].filter(usable).map((g) => [g, g.weight]),
      envelope: GENERATORS.envelope.filter(usable).map((g) => [g, g.weight]),
      http: GENERATORS.http.filter(usable).map((g) => [g, g.weight]),
    },
    callable: restricted ? [...asked] : METHOD_NAMES.filter((m) => m !== 'chain_faucetClaim'),
    targets: restricted ? [...asked] : METHOD_NAMES,
    restricted,
    asked,
  };
  plans.set(ctx, plan);
  return plan;
}

/** The case at `index` of the run with `seed`: deterministic in (seed, index, ctx). */
export function caseAt(seed: number, index: number, ctx: CaseContext): FuzzCase {
  const plan = planOf(ctx);
  const draw = Draw.of(seed, index);
  const gen = makeGen(draw, ctx, seed, index, plan);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const family = draw.weighted(plan.families);
    const generator = draw.weighted(plan.generators[family]);
    const draft = generator.make(gen);
    if (draft === undefined) continue;
    if (plan.restricted && (draft.method === undefined || !plan.asked.has(draft.method))) continue;
    const made = finish(draft, family, seed, index);
    if (made.http.body.length < ctx.maxBodyBytes) return made;
  }
  throw new Error(`fuzz: no case fits at seed ${seed}, index ${index} (body cap ${ctx.maxBodyBytes} bytes, only ${ctx.only.join(',') || 'all'})`);
}

function finish(draft: Draft, family: CaseFamily, seed: number, index: number): FuzzCase {
  let body: Uint8Array;
  let json: JsonValue | undefined;
  if (draft.body.kind === 'json') {
    const value = draft.body.value;
    const { text, plain } = writeWireChecked(value);
    body = utf8(text);
    // plain: the walk found no RawJson or Members, so the Wire is a JsonValue and the text is stringifyJson's.
    json = plain ? (value as JsonValue) : undefined;
    // The judge reads these bytes as this value without parsing them again, where that is exact (readJsonBody.ts).
    if (json !== undefined) rememberWrittenJson(body, json);
  } else {
    body = draft.body.bytes;
    json = draft.body.json;
  }
  if (!draft.rule.startsWith(`${family}/`)) throw new Error(`fuzz: rule ${draft.rule} made in family ${family}`);
  return {
    rule: draft.rule,
    family,
    ...(draft.method === undefined ? {} : { method: draft.method }),
    seed,
    index,
    title: draft.title,
    http: { method: 'POST', contentType: 'application/json', ...draft.http, body },
    ...(json === undefined ? {} : { json }),
    risky: draft.risky === true || body.length > RISKY_BYTES,
  };
}
