/**
 * Reads a capture (captureFormat.ts) and checks every line against schemas/load/capture.schema.json: the header
 * first, then exchanges (in any order: they come back in the order the requests arrived, by `t`), then at most
 * the end line. A capture is readable up to its last whole line: a last line
 * cut short (a recording killed while it wrote) is set aside and said (`cutShort`), not an error. Anything else
 * that is not a capture is a CaptureError naming the line and the rule.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
import { parseJson, type JsonValue } from '../../core/json/index.js';
import { schemasDir } from '../../core/paths.js';
import { validatorsFor, formatProblems, type SchemaDocument, type Validators } from '../../core/schema/validators.js';
import { CAPTURE_FORMAT, type CaptureEnd, type CaptureExchange, type CaptureHeader } from './captureFormat.js';

export const CAPTURE_SCHEMA_ID = 'https://chainrpc.dev/schemas/load/capture.schema.json';

/** A file that is not a capture this chainrpc reads (exit 2 where a command reads it). */
export class CaptureError extends ChainrpcError {
  readonly kind = 'usage';
}

export interface Capture {
  header: CaptureHeader;
  exchanges: CaptureExchange[];
  /** Absent: the recording did not end cleanly (killed), or is still being written. */
  end?: CaptureEnd;
  /** The last line, an exchange's, was cut short (not a whole JSON line) and was left out: an exchange lost. */
  cutShort: boolean;
}

let compiled: Validators | undefined;

function captureValidators(): Validators {
  compiled ??= validatorsFor([parseJson(readFileSync(join(schemasDir, 'load', 'capture.schema.json'), 'utf8')) as SchemaDocument]);
  return compiled;
}

/** Bytes read at a time: the capture is read line by line, never as one string (V8 caps a string near 512 MiB). */
const CHUNK_BYTES = 1024 * 1024;

/** The capture at `path`, read line by line; `where` names it in errors (default: the path). */
export function readCapture(path: string, where = path): Capture {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new CaptureError(`cannot read the capture ${where}: ${(err as Error).message}`);
  }
  const reader = new CaptureReader(where);
  try {
    const chunk = Buffer.alloc(CHUNK_BYTES);
    let pending: Buffer[] = [];
    for (;;) {
      const n = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (n === 0) break;
      let from = 0;
      for (let nl = chunk.indexOf(0x0a, 0); nl !== -1 && nl < n; nl = chunk.indexOf(0x0a, from)) {
        pending.push(chunk.subarray(from, nl));
        reader.line(Buffer.concat(pending).toString('utf8'));
        pending = [];
        from = nl + 1;
      }
      // The rest of the chunk begins a line the next read ends: kept as a copy, the chunk is read into again.
      if (from < n) pending.push(Buffer.from(chunk.subarray(from, n)));
    }
    return reader.end(Buffer.concat(pending).toString('utf8'));
  } catch (err) {
    if (err instanceof CaptureError) throw err;
    throw new CaptureError(`cannot read the capture ${where}: ${(err as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

/** A capture held as text (an import's output, a test's). */
export function parseCapture(text: string, where: string): Capture {
  const lines = text.split('\n');
  // A file written whole ends with a newline: the text after the last one is a line cut short, or nothing.
  const tail = lines.pop() ?? '';
  const reader = new CaptureReader(where);
  for (const line of lines) reader.line(line);
  return reader.end(tail);
}

/** A capture taken in line by line: each line is checked as it comes (the header first, then exchanges, then at most the end line). */
class CaptureReader {
  readonly #where: string;
  #index = 0;
  #capture: Capture | undefined;

  constructor(where: string) {
    this.#where = where;
  }

  line(line: string): void {
    const where = this.#where;
    const i = this.#index++;
    if (line.trim() === '') throw new CaptureError(`${where}:${i + 1}: an empty line; a capture holds one JSON value per line`);
    let value: JsonValue;
    try {
      value = parseJson(line);
    } catch (err) {
      if (i === 0) throw new CaptureError(`${where} is not a capture: its first line is not JSON (${(err as Error).message}); make one with \`chainrpc record\``);
      throw new CaptureError(`${where}:${i + 1}: not JSON (${(err as Error).message})`);
    }
    const capture = this.#capture;
    if (capture === undefined) {
      const format = typeof value === 'object' && value !== null && !Array.isArray(value) ? value.format : undefined;
      if (format !== CAPTURE_FORMAT) throw new CaptureError(`${where} is not a capture this chainrpc reads: its first line's format is ${JSON.stringify(format) ?? 'missing'}, not "${CAPTURE_FORMAT}"`);
      this.#check(value, i, 'Header');
      this.#capture = { header: value as unknown as CaptureHeader, exchanges: [], cutShort: false };
      return;
    }
    if (capture.end !== undefined) throw new CaptureError(`${where}:${i + 1}: a line after the end line`);
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && value.end === true) {
      this.#check(value, i, 'End');
      capture.end = value as unknown as CaptureEnd;
      return;
    }
    this.#check(value, i, 'Exchange');
    capture.exchanges.push(value as unknown as CaptureExchange);
  }

  /** The capture, once the text after the last newline (a line cut short, or nothing) is known. */
  end(tail: string): Capture {
    const cut = tail.trim() !== '';
    if (this.#capture === undefined) throw new CaptureError(`${this.#where} is not a capture: it is empty${cut ? ' but for a line cut short' : ''}; make one with \`chainrpc record\``);
    // The end line cut short (CaptureWriter writes its `end` key first) lost no exchange: the capture has no end.
    const cutShort = cut && !/^\s*\{\s*"end"\s*:/.test(tail);
    // The end line counts the exchange lines written before it: a capture with lines lost or removed since (or
    // added) would replay as whole (an outside tester's capture of 66 exchanges, 37 lines deleted, replayed as 29 of 29).
    const end = this.#capture.end;
    const held = this.#capture.exchanges.length;
    if (end !== undefined && end.exchanges !== held) {
      throw new CaptureError(
        `${this.#where}: its end line counts ${end.exchanges} exchange${end.exchanges === 1 ? '' : 's'}, and it holds ${held}: lines were ${held < end.exchanges ? 'lost or removed' : 'added'} after the recording (to replay a part on purpose, remove the end line too)`,
      );
    }
    // Lines are written as exchanges end (a slow answer after faster ones that came after it): the capture is
    // read in the order the requests arrived, by `t` (a stable sort keeps the written order of equal times).
    const exchanges = this.#capture.exchanges;
    for (let i = 1; i < exchanges.length; i++) {
      if ((exchanges[i]?.t ?? 0) < (exchanges[i - 1]?.t ?? 0)) {
        exchanges.sort((a, b) => a.t - b.t);
        break;
      }
    }
    return { ...this.#capture, cutShort };
  }

  #check(value: JsonValue, i: number, what: string): void {
    const v = captureValidators().validate(`${CAPTURE_SCHEMA_ID}#/definitions/${what}`, value);
    if (!v.ok) throw new CaptureError(`${this.#where}:${i + 1}: not a valid ${what.toLowerCase()} line (schemas/load/capture.schema.json): ${formatProblems(v.problems.slice(0, 3))}`);
  }
}
