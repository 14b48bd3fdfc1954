/**
 * Robustness faults: the proof of the fuzzer (`chainrpc fuzz`), as the other categories are the proof of
 * the conformance suite. Each is a bug as a node team would ship it: one specific input, which the
 * conformance catalogue is not built to look for, sets it off, and everything else is answered honestly. The
 * fault matrix leaves them out (CONFORMANCE_FAULTS in faultCatalogue.ts); each names the fuzz oracle
 * that should catch it. TEST-ONLY: each fault makes a reference node deliberately wrong (docs/faults.md).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { RPC_ERROR } from '../rpc/errorResponse.js';
import { RpcMethodError } from '../rpc/RpcMethodError.js';
import { eachResponse, isObject, lenientParams, rules, text, wrapMethod } from './bends.js';
import type { Fault } from './bends.js';
import {
  flooredHeight,
  fractionalHeight,
  hasDuplicateIds,
  hasUpperCaseHex,
  heightPanic,
  hugeHeight,
  isOddHexCall,
  nodeDies,
  objectAddress,
  objectAddressLeak,
  SLOW_PATH_MS,
} from './deviations.js';

/**
 * The fuzz oracle that should catch a robustness fault: `liveness` (the node stops answering anything),
 * `leak` (an answer shows internals: a stack trace, file paths), `error-expected` (a result where the
 * input calls for an error), `slow` (a correct answer, far too late), `no-answer` (a request left without
 * any answer), `envelope` (a JSON-RPC response object that breaks the envelope: its id, jsonrpc, result or error).
 */
export type FuzzOracle = 'liveness' | 'leak' | 'error-expected' | 'slow' | 'no-answer' | 'envelope';

/** A robustness fault: a catalogue entry, the input that sets it off, and the fuzz oracle that should catch it. */
export interface RobustnessFault extends Fault {
  readonly category: 'robustness';
  /** The one input that sets the fault off, in words. */
  readonly trigger: string;
  readonly oracle: FuzzOracle;
}

export const ROBUSTNESS_FAULTS = [
  {
    name: 'dies-on-huge-height',
    category: 'robustness',
    description: 'chain_getBlockByHeight with a height above 2^53 (2^53 + 1 to 2^64 - 1, which the params check lets through) kills the node, as the assertion of a node that indexes blocks by a double would: that request gets no answer (its connection is dropped), every open connection is cut and every later one refused, for good; a node process (chainrpc node) exits with code 1 after a panic line on stderr. Heights up to 2^53 are answered as usual.',
    rule: 'A node survives any request; a valid height without a block is -32001 BlockNotFound (JSON-RPC 2.0 §5; profile: Unknown heights and accounts).',
    level: 'MUST',
    scope: 'node',
    trigger: 'chain_getBlockByHeight [h] with 2^53 < h <= 2^64 - 1 (9007199254740993 and up), alone or in a batch',
    oracle: 'liveness',
    bend: {
      ofProcess: ({ crash }) => ({
        transport: rules((r) => ({
          takeOver: (body, exchange) => {
            const height = hugeHeight(body, (method, params) => r.checkParams(method, params));
            if (height === undefined) return r.takeOver?.(body, exchange) ?? false;
            nodeDies(exchange, heightPanic(height), crash);
            return true;
          },
        })),
      }),
    },
  },
  {
    name: 'leaks-stack-on-object-address',
    category: 'robustness',
    description: 'chain_getAccount whose address is a JSON object ({"a":1}) answers -32603 with the exception passed on whole: message "TypeError: address.toLowerCase is not a function" and data.stack a JavaScript stack trace with the server\'s file paths; every other malformed address (a number, an array, null, 63 characters) is refused with -32602 as usual.',
    rule: 'A param of the wrong type is -32602 Invalid params (JSON-RPC 2.0 §5.1); stack traces, file paths and exception text are internal details that help attackers (sound; CWE-209).',
    level: 'SHOULD',
    scope: 'node',
    trigger: 'chain_getAccount [address] with address a JSON object ({"a":1}, {})',
    oracle: 'leak',
    bend: {
      // An object reaches the handler, which calls toLowerCase on it; the exception goes to the client whole.
      transport: lenientParams(objectAddress),
      methods: wrapMethod('chain_getAccount', (next) => (params, call) => {
        if (!isObject(params[0])) return next(params, call);
        const { message, data } = objectAddressLeak();
        throw new RpcMethodError(RPC_ERROR.internalError.code, message, data);
      }),
    },
  },
  {
    name: 'result-for-fractional-height',
    category: 'robustness',
    description: 'chain_getBlockByHeight with a fractional height (a number above 0 with a fraction part: 1.5, 2.25, 0.5) answers the block at its floor (1.5: the block at 1; above the tip, BlockNotFound) instead of refusing it with -32602; integer, negative and string heights are handled as usual.',
    rule: 'The height is an unsigned integer; a fractional one is refused with -32602 Invalid params (spec: Methods table, chain_getBlockByHeight "height: integer"; JSON-RPC 2.0 §5.1).',
    level: 'SHOULD',
    scope: 'node',
    trigger: 'chain_getBlockByHeight [h] with h a JSON number above 0 that has a fraction part (1.5, 2.25)',
    oracle: 'error-expected',
    bend: {
      transport: lenientParams(fractionalHeight),
      methods: wrapMethod('chain_getBlockByHeight', (next) => (params, call) => (typeof params[0] === 'number' && !Number.isInteger(params[0]) ? next([flooredHeight(params[0])], call) : next(params, call))),
    },
  },
  {
    name: 'slow-on-upper-case-address',
    category: 'robustness',
    description: 'chain_getAccount with a (valid) address that has upper-case hex letters answers correctly, but only after 2,000 ms, as a node whose index is keyed by the lower-case address and that falls back to a linear scan would; all-lower-case addresses are answered at once, and other requests are served meanwhile.',
    rule: 'An address is 64 hexadecimal characters in either case, read at the same cost; a read is answered promptly (spec: Methods table, chain_getAccount; sound).',
    level: 'SHOULD',
    scope: 'node',
    trigger: 'chain_getAccount [address] with a valid address that has an upper-case letter A-F',
    oracle: 'slow',
    bend: {
      methods: wrapMethod('chain_getAccount', (next) => (params, call) => (hasUpperCaseHex(text(params[0])) ? delay(SLOW_PATH_MS).then(() => next(params, call)) : next(params, call))),
    },
  },
  {
    name: 'hangs-on-duplicate-batch-ids',
    category: 'robustness',
    description: 'A batch in which two calls share an id (the same string or number; null ids aside) is never answered: the node keeps the connection open and writes nothing until the client gives up; batches whose ids are unique are answered as usual.',
    rule: 'Every call gets its response: a batch is answered with an array of them, whatever its ids (JSON-RPC 2.0 §5, §6; ids need not be unique).',
    level: 'MUST',
    scope: 'node',
    trigger: 'a batch in which two request objects carry the same id ([{..."id":1...},{..."id":1...}])',
    oracle: 'no-answer',
    bend: { transport: rules((r) => ({ takeOver: (body, exchange) => hasDuplicateIds(body) || (r.takeOver?.(body, exchange) ?? false) })) },
  },
  {
    name: 'loses-id-on-odd-hex',
    category: 'robustness',
    description: 'chain_sendRawTransaction whose param is a string of odd length is refused with the right -32602 Invalid params error, but the response carries "id": null instead of the request\'s id; every other error, that of an even-length string that is not hex included, echoes the id.',
    rule: 'The response id is the request\'s id whenever it could be read (JSON-RPC 2.0 §5).',
    level: 'MUST',
    scope: 'node',
    trigger: 'chain_sendRawTransaction [hex] with hex a string of odd length ("abc", a transaction with its last character dropped)',
    oracle: 'envelope',
    bend: {
      transport: eachResponse((res, requests) => (isObject(res.error) && res.error.code === RPC_ERROR.invalidParams.code && isOddHexCall(requests, res.id) ? { ...res, id: null } : res)),
    },
  },
] as const satisfies readonly RobustnessFault[];
