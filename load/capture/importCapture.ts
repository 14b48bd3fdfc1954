/**
 * Captures from what users already have (docs/replay.md, "Imports"): a file of request bodies, one per line (what
 * request generators and access logs give: no timing, no answers), and the transcript `chainrpc test` writes
 * (transcript.ndjson: each exchange's request and answer, when it started). What cannot be taken exactly is left
 * out and counted, with why: a transcript keeps at most 4 KiB of a body, so an exchange cut there is not one to send
 * again (the request) or to compare with (the answer).
 */
import { parseJson, type JsonValue } from '../../core/json/index.js';
import { isObject } from '../../profile/readWire.js';
import { captureBody, CAPTURE_FORMAT, rpcIndex, type CaptureExchange, type CaptureHeader } from './captureFormat.js';
import { CaptureError } from './readCapture.js';

export type ImportFrom = 'bodies' | 'transcript';

export interface Imported {
  header: CaptureHeader;
  exchanges: CaptureExchange[];
  /** Lines left out, by why. */
  skipped: Record<string, number>;
  /** The nodes a transcript's exchanges went to (with `node`, only that one's are taken). */
  nodes: string[];
}

/** What the file is: a transcript when its first line is an exchange of one (a request and when it started), else bodies. */
export function detectImport(text: string): ImportFrom {
  const first = text.split('\n').find((l) => l.trim() !== '');
  if (first === undefined) return 'bodies';
  try {
    const v = parseJson(first);
    return isObject(v) && isObject(v.request) && typeof v.startedAt === 'string' ? 'transcript' : 'bodies';
  } catch {
    return 'bodies';
  }
}

/** The format of a chainrpc capture (this version or another) whose first line, its header, is `line`; else undefined. */
function captureFormatOf(line: string): string | undefined {
  try {
    const v = parseJson(line);
    return isObject(v) && typeof v.format === 'string' && v.format.startsWith('chainrpc-capture/') ? v.format : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A capture of `text` read as `from`; `file` names it in the header and in errors; `node` picks one node of a
 * transcript. The header's `startedAt` is when the recording began, the moment every `t` counts from: a
 * transcript's first exchange's start; for bodies, which have no times, when they were imported.
 */
export function importCapture(text: string, from: ImportFrom, options: { file: string; version: string; node?: string }): Imported {
  // A chainrpc capture is no file of bodies nor a transcript: it needs no import (whatever --from says).
  const firstLine = text.split('\n').find((l) => l.trim() !== '');
  const format = firstLine === undefined ? undefined : captureFormatOf(firstLine);
  if (format !== undefined) throw new CaptureError(`${options.file} is already a capture (${format}): replay it directly (chainrpc load replay ${options.file}); chainrpc record import takes request bodies or a chainrpc test transcript`);
  const headerAt = (startedAt: string): CaptureHeader => ({ format: CAPTURE_FORMAT, startedAt, upstream: `${options.file} (imported: ${from === 'bodies' ? 'request bodies, no timing, no answers' : 'a chainrpc test transcript'})`, answers: from === 'transcript', tool: { name: 'chainrpc', version: options.version } });
  const skipped: Record<string, number> = {};
  const skip = (why: string): void => void (skipped[why] = (skipped[why] ?? 0) + 1);
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (from === 'bodies') {
    // One body per line, exactly as written (the line, without its line break); sent at once (t 0): replay them at a --rate.
    const exchanges = lines.map((line): CaptureExchange => {
      const request = captureBody(Buffer.from(line.replace(/\r$/, ''), 'utf8'));
      return { t: 0, method: 'POST', path: '/', contentType: 'application/json', request, rpc: rpcIndex(request), status: null, ms: 0 };
    });
    if (exchanges.length === 0) throw new CaptureError(`${options.file} holds no request body: give one per line`);
    return { header: headerAt(new Date().toISOString()), exchanges, skipped, nodes: [] };
  }
  const entries = lines.map((line, i) => {
    try {
      const v = parseJson(line);
      if (!isObject(v) || !isObject(v.request) || typeof v.startedAt !== 'string') throw new Error('not an exchange of a transcript (request, startedAt)');
      return v;
    } catch (err) {
      throw new CaptureError(`${options.file}:${i + 1}: ${(err as Error).message}; a chainrpc test transcript (transcript.ndjson) has one exchange per line`);
    }
  });
  const nodes = [...new Set(entries.map((e) => (typeof e.node === 'string' ? e.node : '')))].filter((n) => n !== '');
  if (options.node === undefined && nodes.length > 1) throw new CaptureError(`${options.file} holds exchanges with ${nodes.length} nodes (${nodes.join(', ')}): a capture is one node's traffic; give --node <url>, one of them`);
  if (options.node !== undefined && !nodes.includes(options.node)) throw new CaptureError(`${options.file} holds no exchange with ${options.node}; its nodes: ${nodes.join(', ') || 'none'}`);
  const taken = entries.filter((e) => options.node === undefined || e.node === options.node);
  const startedAt = (e: { [k: string]: JsonValue }): number => (typeof e.startedAt === 'string' ? Date.parse(e.startedAt) : Number.NaN);
  const origin = Math.min(...taken.map(startedAt).filter((t) => !Number.isNaN(t)));
  const exchanges: CaptureExchange[] = [];
  for (const e of taken) {
    const request = e.request as { [k: string]: JsonValue };
    if (request.truncated === true) {
      skip('the request was longer than the 4 KiB a transcript keeps');
      continue;
    }
    if (request.bodyless === true) {
      skip('a request sent with no body at all (no Content-Length): not one a capture replays');
      continue;
    }
    let path: string;
    try {
      if (typeof request.url !== 'string') throw new Error('no URL');
      const url = new URL(request.url);
      path = `${url.pathname}${url.search}`;
    } catch {
      skip('a request without a URL');
      continue;
    }
    const headers = isObject(request.headers) ? request.headers : {};
    const body = captureBody(Buffer.from(typeof request.body === 'string' ? request.body : '', 'utf8'));
    const response = isObject(e.response) ? e.response : undefined;
    const at = startedAt(e);
    const exchange: CaptureExchange = {
      t: Number.isNaN(at) || !Number.isFinite(origin) ? 0 : at - origin,
      method: typeof request.method === 'string' ? request.method : 'POST',
      path,
      contentType: typeof headers['content-type'] === 'string' ? headers['content-type'] : null,
      request: body,
      rpc: rpcIndex(body),
      status: typeof response?.status === 'number' ? response.status : null,
      ms: typeof e.ms === 'number' && e.ms >= 0 ? e.ms : 0,
    };
    if (response !== undefined && response.truncated !== true && typeof response.body === 'string') exchange.answer = { text: response.body };
    else if (response !== undefined) skip('answers longer than the 4 KiB a transcript keeps (the exchange kept, without its answer)');
    if (response === undefined) exchange.failure = typeof e.failure === 'string' ? e.failure : 'no answer';
    exchanges.push(exchange);
  }
  exchanges.sort((a, b) => a.t - b.t);
  if (exchanges.length === 0) throw new CaptureError(`${options.file}: no exchange could be taken (${Object.entries(skipped).map(([why, n]) => `${n}: ${why}`).join('; ') || 'none in it'})`);
  // Every t counts from the first exchange's start: the recording began then.
  return { header: headerAt(new Date(Number.isFinite(origin) ? origin : Date.now()).toISOString()), exchanges, skipped, nodes };
}
