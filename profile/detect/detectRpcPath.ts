import { stringifyJson } from '../../core/json/index.js';
import { describeAnswer, describeOutcome } from './describe.js';
import { given, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { NoRpcEndpointError } from './NoRpcEndpointError.js';
import { DeadlineReached, isObject, readResponse } from './Prober.js';
import type { Prober } from './Prober.js';

/**
 * Where JSON-RPC endpoints usually live, in the order tried: the spec's `{base_url}/rpc` first
 * (docs/interface.md#transport-path), then the root and the paths other nodes commonly use.
 */
export const RPC_PATH_CANDIDATES: readonly string[] = ['/rpc', '/', '/v1/jsonrpc', '/jsonrpc', '/api', '/json-rpc', '/rpc/v1'];

/** A method no node serves: JSON-RPC 2.0 §5.1 makes the answer -32601, which proves a JSON-RPC endpoint. */
export const UNKNOWN_METHOD = 'chainrpc_detect_no_such_method';

/**
 * Finds the endpoint: the given path, or the first candidate that answers a POSTed call of an unknown
 * method with a JSON-RPC response object carrying the call's id (JSON-RPC 2.0 §5). Sets prober.rpcPath. Throws
 * NoRpcEndpointError, listing what each path answered, when none does.
 */
export async function detectRpcPath(prober: Prober, givenPath: string | undefined): Promise<{ finding: Finding; unknownMethod: ReturnType<typeof readResponse> | undefined }> {
  const paths = givenPath === undefined ? RPC_PATH_CANDIDATES : [givenPath];
  const answers: Array<{ path: string; answer: string }> = [];
  // Whether anything answered at all, HTTP or not (a TLS or protocol error is an answer of sorts).
  let answered = false;
  for (const path of paths) {
    const id = prober.id();
    const body = stringifyJson({ jsonrpc: '2.0', method: UNKNOWN_METHOD, params: [], id });
    let answer;
    try {
      answer = await prober.post(body, { path, maxResponseBytes: 64 * 1024 });
    } catch (error) {
      if (error instanceof DeadlineReached) throw new NoRpcEndpointError(prober.url, answers, `${error.message} before a path answered`);
      throw error;
    }
    if (answer.kind === 'failed') {
      answers.push({ path, answer: describeAnswer(answer) });
      if (!/^(REFUSED|TIMEOUT)\b/.test(answer.reason)) answered = true;
      // Nothing listens at all: other paths of the same server will not answer either. Nor, most likely, will they
      // where two paths in a row got no answer in time and nothing answered before (a server that accepts
      // connections and never answers): not another 10 s a path (--rpc-path tries one path alone).
      const timedOut = /^TIMEOUT\b/.test(answer.reason);
      if (/^REFUSED/.test(answer.reason) || (timedOut && !answered && answers.length >= 2 && answers.every((a) => /^no answer \(TIMEOUT\b/.test(a.answer)))) break;
      // A path that kept the user waiting is said as it happens.
      const next = paths[paths.indexOf(path) + 1];
      if (timedOut && next !== undefined) prober.progress(`rpcPath: POST ${path}: ${describeAnswer(answer)}; trying ${next}`);
      continue;
    }
    answered = true;
    const outcome = readResponse(answer.json, answer.status, answer.text);
    // JSON-RPC 2.0 §5: the answer to a call carries its id. A server that answers every path with one
    // id-null refusal (the reference node's 404 for other paths) is not serving calls there.
    const answersCall = outcome.kind !== 'other' && isObject(answer.json) && answer.json.id === id;
    if (!answersCall) {
      answers.push({ path, answer: `${describeAnswer(answer)}${outcome.kind === 'other' ? '' : ', not an answer to the call (its id is not the request\'s)'}` });
      continue;
    }
    prober.rpcPath = path;
    prober.note(outcome);
    const evidence = `POST ${path} ${UNKNOWN_METHOD} -> ${describeOutcome(outcome)}`;
    const tried = answers.length === 0 ? '' : `; before it: ${answers.map((a) => `${a.path} ${a.answer}`).join(', ')}`;
    if (givenPath !== undefined) return { finding: given('rpcPath', path, `--rpc-path; ${evidence}`), unknownMethod: outcome };
    // -32601 for an unknown method is exactly what JSON-RPC 2.0 §5.1 prescribes; any other JSON-RPC answer is a weaker sign.
    const confidence = outcome.kind === 'error' && outcome.code === -32601 ? 'high' : 'medium';
    return { finding: probed('rpcPath', path, confidence, `${evidence}${tried}`), unknownMethod: outcome };
  }
  // Nothing answered at all: no word about paths (the CLI asks whether the node runs there).
  throw new NoRpcEndpointError(prober.url, answers, answered && givenPath === undefined ? `none of ${paths.length} usual paths answered JSON-RPC` : '', !answered);
}
