/**
 * Reads a capture (captureFormat.ts) and checks every line against schemas/load/capture.schema.json: the header
 * first, then exchanges, then at most the end line. A capture is readable up to its last whole line: a last line
 * cut short (a recording killed while it wrote) is set aside and said (`cutShort`), not an error. Anything else
 * that is not a capture is a CaptureError naming the line and the rule.
 */
import { readFileSync } from 'node:fs';
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
  /** The last line was cut short (not a whole JSON line) and was left out. */
  cutShort: boolean;
}

let compiled: Validators | undefined;

function captureValidators(): Validators {
  compiled ??= validatorsFor([parseJson(readFileSync(join(schemasDir, 'load', 'capture.schema.json'), 'utf8')) as SchemaDocument]);
  return compiled;
}

/** The capture at `path`; `where` names it in errors (default: the path). */
export function readCapture(path: string, where = path): Capture {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CaptureError(`cannot read the capture ${where}: ${(err as Error).message}`);
  }
  return parseCapture(text, where);
}

export function parseCapture(text: string, where: string): Capture {
  const lines = text.split('\n');
  // A file written whole ends with a newline: the text after the last one is a line cut short, or nothing.
  const tail = lines.pop() ?? '';
  const cutShort = tail.trim() !== '';
  const values: JsonValue[] = [];
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') throw new CaptureError(`${where}:${i + 1}: an empty line; a capture holds one JSON value per line`);
    try {
      values.push(parseJson(line));
    } catch (err) {
      if (i === 0) throw new CaptureError(`${where} is not a capture: its first line is not JSON (${(err as Error).message}); make one with \`chainrpc record\``);
      throw new CaptureError(`${where}:${i + 1}: not JSON (${(err as Error).message})`);
    }
  }
  const [first, ...rest] = values;
  if (first === undefined) throw new CaptureError(`${where} is not a capture: it is empty${cutShort ? ' but for a line cut short' : ''}; make one with \`chainrpc record\``);
  const format = typeof first === 'object' && first !== null && !Array.isArray(first) ? first.format : undefined;
  if (format !== CAPTURE_FORMAT) throw new CaptureError(`${where} is not a capture this chainrpc reads: its first line's format is ${JSON.stringify(format) ?? 'missing'}, not "${CAPTURE_FORMAT}"`);
  const validators = captureValidators();
  const check = (value: JsonValue, i: number, what: string): void => {
    const v = validators.validate(`${CAPTURE_SCHEMA_ID}#/definitions/${what}`, value);
    if (!v.ok) throw new CaptureError(`${where}:${i + 1}: not a valid ${what.toLowerCase()} line (schemas/load/capture.schema.json): ${formatProblems(v.problems.slice(0, 3))}`);
  };
  check(first, 0, 'Header');
  const capture: Capture = { header: first as unknown as CaptureHeader, exchanges: [], cutShort };
  rest.forEach((value, j) => {
    const i = j + 1;
    if (capture.end !== undefined) throw new CaptureError(`${where}:${i + 1}: a line after the end line`);
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && value.end === true) {
      check(value, i, 'End');
      capture.end = value as unknown as CaptureEnd;
      return;
    }
    check(value, i, 'Exchange');
    capture.exchanges.push(value as unknown as CaptureExchange);
  });
  return capture;
}
