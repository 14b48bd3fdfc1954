import type { JsonValue } from '../../core/json/index.js';
import { jsonInteger, stringifyJson } from '../../core/json/index.js';
import { referenceProfile } from '../referenceProfile.js';
import { ERROR_CONDITIONS } from '../errorConditions.js';
import { describeCall, describeOutcome } from './describe.js';
import type { MethodsDetected } from './detectMethods.js';
import type { SpecMethod } from './matchMethodNames.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import type { CallOutcome, Prober } from './Prober.js';

interface Probe {
  readonly method: SpecMethod;
  readonly params: JsonValue;
}

interface Ran {
  readonly outcome: CallOutcome;
  readonly text: string;
}

/** Two answers alike: both results, or both errors with one code (the node treated the two forms the same). */
const alike = (a: CallOutcome, b: CallOutcome): boolean => (a.kind === 'result' && b.kind === 'result') || (a.kind === 'error' && b.kind === 'error' && a.code === b.code);

/**
 * Param forms the spec does not show (it shows positional arrays of plain values): each accepted or
 * refused. JSON-RPC 2.0 §4.2 lets a server take by-name params; the rest are conventions of other
 * nodes (Ethereum's 0x and string quantities). A form is accepted when the node answers it as it
 * answers the plain form (a node whose unknown accounts are errors answers both with that error), and
 * refused when it answers with another error. Also the InvalidParams code, from a param of the wrong
 * JSON type, and each condition's code where it differs from that one
 * (errorCodes["InvalidParams/<condition>"], profile/errorConditions.ts).
 */
/** JSON-RPC 2.0's codes that mean something else than invalid params (§5.1). */
const RESERVED_MEANINGS: Readonly<Record<number, string>> = { [-32700]: 'Parse error', [-32600]: 'Invalid Request', [-32601]: 'Method not found', [-32603]: 'Internal error' };

export async function detectParams(prober: Prober, methods: MethodsDetected, address: string, genesisHeight: bigint): Promise<Finding[]> {
  const reference = referenceProfile();
  const findings: Finding[] = [];
  const run = async (p: Probe): Promise<Ran | undefined> => {
    if (!methods.served(p.method)) return undefined;
    const method = methods.wire(p.method);
    const outcome = await prober.call(method, p.params);
    return { outcome, text: `${describeCall(method, p.params)} -> ${describeOutcome(outcome)}` };
  };

  // The InvalidParams code: a number where the address goes (condition "type").
  let base = await run({ method: 'chain_getAccount', params: [12345] });
  if (base?.outcome.kind !== 'error') base = (await run({ method: 'chain_getBlockByHeight', params: ['word'] })) ?? base;
  const baseCode = base?.outcome.kind === 'error' ? base.outcome.code : undefined;
  if (base === undefined || baseCode === undefined) findings.push(fallback('errorCodes.InvalidParams', reference.errorCodes.InvalidParams ?? -32602, base === undefined ? 'chain_getAccount and chain_getBlockByHeight not served' : `${base.text}: no error`));
  else findings.push(probed('errorCodes.InvalidParams', baseCode, baseCode === -32602 ? 'high' : 'medium', `${base.text} (a param of the wrong JSON type)${baseCode === -32602 ? '' : ' (JSON-RPC 2.0 §5.1 says -32602)'}`));

  /**
   * A condition's code: written only where it differs from the base code, and is no code JSON-RPC 2.0 gives another
   * meaning (§5.1: parse error, invalid request, method not found, internal error). A node answering a missing param
   * with -32603 has a bug to report, not a choice to take: an outside tester's node did, and its draft then failed its
   * right -32602 answers to a param too many (the same condition).
   */
  const condition = (name: string, r: Ran | undefined): void => {
    const key = `InvalidParams/${name}`;
    if (ERROR_CONDITIONS[key] === undefined || r === undefined || r.outcome.kind !== 'error' || baseCode === undefined) return;
    const code = r.outcome.code;
    const meaning = RESERVED_MEANINGS[code];
    if (meaning !== undefined && code !== baseCode) {
      findings.push(probed(`errorCodes.${key}`, code, 'low', `${r.text} (${code} is JSON-RPC's ${meaning}, not a code for params: not written, so the checks judge it against the InvalidParams code ${baseCode})`, false));
      return;
    }
    const differs = code !== baseCode;
    findings.push(probed(`errorCodes.${key}`, code, 'high', `${r.text}${differs ? ` (not the InvalidParams code ${baseCode})` : ' (the InvalidParams code)'}`, differs));
  };

  const leniency: Array<{ key: keyof typeof reference.params; condition: string; plain: Probe; variant: Probe; what: string }> = [
    { key: 'extra', condition: 'count', plain: { method: 'chain_blockNumber', params: [] }, variant: { method: 'chain_blockNumber', params: [1] }, what: 'a param beyond the method\'s list' },
    { key: 'byName', condition: 'by-name', plain: { method: 'chain_getAccount', params: [address] }, variant: { method: 'chain_getAccount', params: { address } }, what: 'by-name params (JSON-RPC 2.0 §4.2)' },
    { key: 'hexPrefix', condition: 'hex-prefix', plain: { method: 'chain_getAccount', params: [address] }, variant: { method: 'chain_getAccount', params: [`0x${address}`] }, what: 'a 0x before the address' },
    {
      key: 'stringIntegers',
      condition: 'string-integer',
      plain: { method: 'chain_getBlockByHeight', params: [jsonInteger(genesisHeight)] },
      variant: { method: 'chain_getBlockByHeight', params: [String(genesisHeight)] },
      what: 'the height as a string',
    },
  ];
  const plainAnswers = new Map<string, Ran | undefined>();
  const counted: Ran[] = [];
  for (const l of leniency) {
    const plainKey = stringifyJson(l.plain);
    if (!plainAnswers.has(plainKey)) plainAnswers.set(plainKey, await run(l.plain));
    const plain = plainAnswers.get(plainKey);
    const r = await run(l.variant);
    if (r === undefined || plain === undefined) {
      findings.push(fallback(`params.${l.key}`, reference.params[l.key], `${l.variant.method} not served`));
      continue;
    }
    const evidence = `${l.what}: ${r.text}; plain: ${plain.text.replace(/^.* -> /, '')}`;
    // An unknown account answered with the InvalidParams code itself (AccountNotFound may be -32602): a form
    // refused as invalid params and a form taken and not found are then one answer, which decides nothing.
    if (alike(r.outcome, plain.outcome) && plain.outcome.kind === 'error' && plain.outcome.code === baseCode) {
      findings.push(fallback(`params.${l.key}`, reference.params[l.key], `${evidence}: the plain form's error is the InvalidParams code itself, so answered alike may still be refused; set it by hand`));
    } else if (alike(r.outcome, plain.outcome)) findings.push(probed(`params.${l.key}`, 'accepted', plain.outcome.kind === 'result' ? 'high' : 'medium', `${evidence} (answered alike)`));
    else if (r.outcome.kind === 'error') {
      findings.push(probed(`params.${l.key}`, 'refused', 'high', evidence));
      if (l.condition === 'count') counted.push(r);
      else condition(l.condition, r);
    } else findings.push(fallback(`params.${l.key}`, reference.params[l.key], `${evidence}: answered neither alike nor with an error`));
  }
  // "count": a required param missing decides; one too many (above) only when nothing else answers.
  const missing = await run({ method: 'chain_getAccount', params: [] });
  condition('count', missing?.outcome.kind === 'error' ? missing : counted[0]);
  condition('address', await run({ method: 'chain_getAccount', params: [address.slice(1)] }));
  condition('height', await run({ method: 'chain_getBlockByHeight', params: [-1] }));
  condition('tx-hex', await run({ method: 'chain_sendRawTransaction', params: ['xyz'] }));
  return findings;
}
