import { stringifyJson } from '../../core/json/index.js';
import { referenceProfile } from '../referenceProfile.js';
import { describeAnswer, describeOutcome } from './describe.js';
import type { MethodsDetected } from './detectMethods.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import type { CallOutcome, Prober } from './Prober.js';

/** A request that draws one of JSON-RPC 2.0's own errors, and its answer. */
export interface StandardErrorAnswer {
  /** The profile's name of the error (schemas/errors.schema.json). */
  readonly name: 'ParseError' | 'InvalidRequest' | 'MethodNotFound';
  readonly what: string;
  readonly outcome: CallOutcome;
}

/** The codes JSON-RPC 2.0 §5.1 fixes. */
const STANDARD_CODES: Readonly<Record<StandardErrorAnswer['name'], number>> = { ParseError: -32700, InvalidRequest: -32600, MethodNotFound: -32601 };

/**
 * The node's HTTP status policy where the spec shows only POST and the content type: the status of a
 * notification (JSON-RPC 2.0 §4.1 gives it no response), of a GET, and of a call sent as text/plain.
 * Also the codes of a parse error and an invalid request (and of the unknown method the endpoint
 * search sent), which JSON-RPC 2.0 §5.1 fixes but a node may still get wrong. The statuses of error
 * answers are decided at the end, from every error seen (decideErrorStatuses).
 */
export async function detectHttp(prober: Prober, methods: MethodsDetected, unknownMethod: StandardErrorAnswer | undefined): Promise<Finding[]> {
  const reference = referenceProfile();
  const findings: Finding[] = [];
  const blockNumber = methods.wire('chain_blockNumber');
  const path = prober.rpcPath;

  // A notification: no id (JSON-RPC 2.0 §4.1).
  const note = await prober.post(stringifyJson({ jsonrpc: '2.0', method: blockNumber, params: [] }));
  findings.push(
    note.kind === 'http'
      ? probed('http.notification', note.status, 'high', `POST ${path} notification ${blockNumber} (no id) -> ${describeAnswer(note)}`)
      : fallback('http.notification', reference.http.notification, `notification -> ${describeAnswer(note)}`),
  );

  const answers: StandardErrorAnswer[] = [
    { name: 'ParseError', what: 'a body that is not JSON', outcome: await prober.send(`{"jsonrpc":"2.0","method":"${blockNumber}","params":[`) },
    { name: 'InvalidRequest', what: 'a request object without method', outcome: await prober.send(stringifyJson({ jsonrpc: '2.0', id: prober.id() })) },
    ...(unknownMethod === undefined ? [] : [unknownMethod]),
  ];
  for (const a of answers) {
    const code = STANDARD_CODES[a.name];
    const evidence = `${a.what} -> ${describeOutcome(a.outcome)}`;
    if (a.outcome.kind === 'error') findings.push(probed(`errorCodes.${a.name}`, a.outcome.code, a.outcome.code === code ? 'high' : 'medium', `${evidence}${a.outcome.code === code ? '' : ` (JSON-RPC 2.0 §5.1 says ${code})`}`));
    else findings.push(fallback(`errorCodes.${a.name}`, code, `${evidence}: no error object`));
  }

  const get = await prober.post(undefined, { method: 'GET', headers: {} });
  findings.push(
    get.kind === 'http'
      ? probed('http.wrongMethod', get.status, 'high', `GET ${path} -> ${describeAnswer(get)}`)
      : fallback('http.wrongMethod', reference.http.wrongMethod, `GET ${path} -> ${describeAnswer(get)}`),
  );
  const plain = await prober.post(stringifyJson({ jsonrpc: '2.0', method: blockNumber, params: [], id: prober.id() }), { headers: { 'content-type': 'text/plain' } });
  findings.push(
    plain.kind === 'http'
      ? probed('http.wrongContentType', plain.status, 'high', `POST ${path} ${blockNumber} as text/plain -> ${describeAnswer(plain)}`)
      : fallback('http.wrongContentType', reference.http.wrongContentType, `text/plain -> ${describeAnswer(plain)}`),
  );
  return findings;
}
