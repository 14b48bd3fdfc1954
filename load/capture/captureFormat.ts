/**
 * The capture format (`chainrpc-capture/1`, docs/replay.md, schemas/load/capture.schema.json): what `chainrpc
 * record` writes, NDJSON, streamable and readable up to its last whole line. The first line is the header, then
 * one line per exchange in the order the requests arrived, then, when the recording ended cleanly, the end line.
 * Bodies are kept exactly: as text when they are valid UTF-8, else in base64. Each exchange is indexed for the
 * replay by what JSON-RPC 2.0 makes of its body: the methods called (with counts), the batch size, the ids.
 */
import { parseJson, type JsonValue } from '../../core/json/index.js';
import { isObject } from '../../profile/readWire.js';

export const CAPTURE_FORMAT = 'chainrpc-capture/1';

export interface CaptureHeader {
  format: typeof CAPTURE_FORMAT;
  /** When the recording began (the exchanges' `t` counts from here). */
  startedAt: string;
  /** The node the traffic went to. */
  upstream: string;
  /** Whether the answers are kept (`--no-answers`: not). */
  answers: boolean;
  tool: { name: 'chainrpc'; version: string };
}

/** A body, exactly: text when it is valid UTF-8, else base64. */
export type CapturedBody = { text: string } | { base64: string };

/** What JSON-RPC 2.0 makes of a request body: the calls' methods (with counts), the batch size (null: not a batch), the ids. */
export interface RpcIndex {
  methods: Record<string, number>;
  batch: number | null;
  ids: JsonValue[];
  /** Request objects without an id. */
  notifications: number;
}

export interface CaptureExchange {
  /** ms from the start of the recording to the request's arrival. */
  t: number;
  method: string;
  /** The request target as the client sent it (path and query). */
  path: string;
  contentType: string | null;
  request: CapturedBody;
  /** null: no JSON value, or not a JSON-RPC request at all. */
  rpc: RpcIndex | null;
  /** The upstream's status; null when it gave no answer (see `failure`). */
  status: number | null;
  /** ms from the request's arrival to the end of the upstream's answer (or its failure). */
  ms: number;
  /** The answer's body, unless the recording keeps no answers. */
  answer?: CapturedBody;
  /** Why the upstream gave no answer (the client got a 502 from chainrpc). */
  failure?: string;
}

export interface CaptureEnd {
  end: true;
  exchanges: number;
  /** Why the recording ended: its duration, Ctrl-C, or its size bound (the proxy went on passing traffic); or an import's end. */
  reason: 'duration' | 'interrupted' | 'max-size' | 'imported';
  endedAt: string;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function captureBody(bytes: Uint8Array): CapturedBody {
  try {
    return { text: STRICT_UTF8.decode(bytes) };
  } catch {
    return { base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64') };
  }
}

/** The bytes of a captured body. */
export function bodyBytes(body: CapturedBody): Buffer {
  return 'text' in body ? Buffer.from(body.text, 'utf8') : Buffer.from(body.base64, 'base64');
}

/** The JSON-RPC index of a request body; null when it is no JSON, or holds no request object. */
export function rpcIndex(body: CapturedBody): RpcIndex | null {
  if (!('text' in body)) return null;
  let value: JsonValue;
  try {
    value = parseJson(body.text);
  } catch {
    return null;
  }
  const elements = Array.isArray(value) ? value : [value];
  // No prototype: a method named "__proto__" is a key like any other.
  const index: RpcIndex = { methods: Object.create(null) as Record<string, number>, batch: Array.isArray(value) ? value.length : null, ids: [], notifications: 0 };
  let requests = 0;
  for (const e of elements) {
    if (!isObject(e) || typeof e.method !== 'string') continue;
    requests++;
    index.methods[e.method] = (index.methods[e.method] ?? 0) + 1;
    if (Object.hasOwn(e, 'id')) index.ids.push(e.id ?? null);
    else index.notifications++;
  }
  return requests === 0 && index.batch === null ? null : index;
}
