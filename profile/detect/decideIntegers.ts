import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import type { IntegerForm } from './integerOf.js';

/** One integer a detection read: the method (by the spec's name) whose result held it, what it was, and its form. */
export interface IntegerSample {
  readonly method: string;
  readonly where: string;
  readonly form: IntegerForm;
}

const FORM_TEXT: Readonly<Record<IntegerForm, string>> = { number: 'JSON numbers', hex: 'hex quantities' };

/**
 * integers and methodIntegers (docs/interface.md leaves the wire encoding of integers unshown): how
 * each method writes the integers of its result. The encoding most methods share is `integers` (on a
 * tie, chain_blockNumber's, else JSON numbers); a method whose integers are all written the other way
 * goes into methodIntegers (a node whose net_peerCount answers "0x3" while the rest are numbers). A
 * method that mixes both forms in one result can be said by neither key: it lowers the confidence.
 * `head` is the evidence of chain_blockNumber's read, when there was one.
 */
export function decideIntegers(samples: readonly IntegerSample[], head: string | undefined): [Finding, Finding] {
  const byMethod = new Map<string, IntegerSample[]>();
  for (const s of samples) byMethod.set(s.method, [...(byMethod.get(s.method) ?? []), s]);
  if (byMethod.size === 0) {
    const why = head === undefined ? 'chain_blockNumber not read, and no other integer seen' : `${head}: not an integer in either form, and no other integer seen`;
    return [fallback('integers', 'number', why), fallback('methodIntegers', {}, 'no integer seen')];
  }
  const forms = new Map<string, IntegerForm | 'mixed'>();
  for (const [method, list] of byMethod) {
    const first = list[0]?.form ?? 'number';
    forms.set(method, list.every((s) => s.form === first) ? first : 'mixed');
  }
  const count = (form: IntegerForm): number => [...forms.values()].filter((f) => f === form).length;
  const headForm = forms.get('chain_blockNumber');
  const tie: IntegerForm = headForm === 'hex' || headForm === 'number' ? headForm : 'number';
  const global: IntegerForm = count('hex') > count('number') ? 'hex' : count('number') > count('hex') ? 'number' : tie;
  const other: IntegerForm = global === 'hex' ? 'number' : 'hex';
  const overrides = [...forms].filter(([, f]) => f === other).map(([m]) => m);
  const mixed = [...forms].filter(([, f]) => f === 'mixed').map(([m]) => m);
  const mixedText = mixed.map((m) => `${m} mixes both (${(byMethod.get(m) ?? []).map((s) => `${s.where} ${s.form === 'hex' ? 'hex' : 'number'}`).join(', ')}): neither key can say it`).join('; ');

  const tally = `${forms.size} method(s) read: ${count('number')} write JSON numbers, ${count('hex')} hex quantities`;
  const integers = probed(
    'integers',
    global,
    headForm !== undefined && mixed.length === 0 ? 'high' : 'medium',
    [head, tally + (overrides.length > 0 ? ` (the others: ${overrides.join(', ')}, in methodIntegers)` : ''), mixedText].filter((t) => t !== undefined && t !== '').join('; '),
  );
  const value = Object.fromEntries(overrides.map((m) => [m, other]));
  const shown = overrides.map((m) => `${m} writes ${FORM_TEXT[other]} (${(byMethod.get(m) ?? []).map((s) => s.where).join(', ')})`);
  const methodIntegers = probed(
    'methodIntegers',
    value,
    mixed.length === 0 ? 'high' : 'medium',
    (overrides.length === 0 ? `every method read writes ${FORM_TEXT[global]}` : `${shown.join('; ')}, while the others write ${FORM_TEXT[global]}`) + (mixedText === '' ? '' : `; ${mixedText}`),
  );
  return [integers, methodIntegers];
}
