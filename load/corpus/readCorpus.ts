import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJson } from '../../core/json/index.js';
import { schemasDir } from '../../core/paths.js';
import { validatorsFor } from '../../core/schema/validators.js';
import type { SchemaDocument, Validators } from '../../core/schema/validators.js';
import { CORPUS_FORMAT } from './Corpus.js';
import type { Corpus } from './Corpus.js';
import { CorpusError } from './CorpusError.js';

export const CORPUS_SCHEMA_ID = 'https://chainrpc.dev/schemas/load/corpus.schema.json';

/** Problems shown in an error: the first few are enough to fix a file, a corrupted one could have 100,000. */
const SHOWN_PROBLEMS = 5;

let compiled: Validators | undefined;

function corpusValidators(): Validators {
  if (compiled === undefined) {
    const doc = parseJson(readFileSync(join(schemasDir, 'load', 'corpus.schema.json'), 'utf8')) as SchemaDocument;
    compiled = validatorsFor([doc]);
  }
  return compiled;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks a parsed corpus against schemas/load/corpus.schema.json and the rules a schema cannot say (each
 * lane's nonces consecutive and ascending, each sender once). Throws CorpusError naming the JSON pointer
 * and the rule; `where` names the file in messages.
 */
export function checkCorpus(value: unknown, where: string): Corpus {
  if (!isRecord(value)) throw new CorpusError(`${where}: a corpus is a JSON object (format "${CORPUS_FORMAT}"); got ${Array.isArray(value) ? 'an array' : typeof value}`);
  if (value.format !== CORPUS_FORMAT) {
    throw new CorpusError(
      `${where} is not a corpus this chainrpc reads: its /format is ${JSON.stringify(value.format) ?? 'missing'}, not "${CORPUS_FORMAT}" (make one with \`chainrpc load corpus\`)`,
    );
  }
  const checked = corpusValidators().validate(CORPUS_SCHEMA_ID, value);
  if (!checked.ok) {
    const shown = checked.problems.slice(0, SHOWN_PROBLEMS).map((p) => `${p.pointer === '' ? '(root)' : p.pointer}: ${p.message} (rule: ${p.rule})`);
    const more = checked.problems.length > SHOWN_PROBLEMS ? `; and ${checked.problems.length - SHOWN_PROBLEMS} more` : '';
    throw new CorpusError(`${where} is not a valid corpus (schemas/load/corpus.schema.json): ${shown.join('; ')}${more}`);
  }
  const corpus = value as unknown as Corpus;
  const addresses = new Set<string>();
  const indexes = new Set<number>();
  for (const [i, lane] of corpus.senders.entries()) {
    if (addresses.has(lane.address)) throw new CorpusError(`${where}: /senders/${i}/address: sender ${lane.address} has a second lane; each sender has exactly one (rule: one lane per sender)`);
    if (indexes.has(lane.index)) throw new CorpusError(`${where}: /senders/${i}/index: index ${lane.index} is used twice (rule: one lane per sender)`);
    addresses.add(lane.address);
    indexes.add(lane.index);
    const first = lane.txs[0]?.nonce ?? 0;
    for (const [j, tx] of lane.txs.entries()) {
      if (tx.nonce !== first + j) {
        throw new CorpusError(`${where}: /senders/${i}/txs/${j}/nonce is ${tx.nonce}, expected ${first + j} (rule: a lane's nonces are consecutive and ascending, so they arrive in order)`);
      }
    }
  }
  return corpus;
}

/** Reads and checks a corpus file (see checkCorpus). Throws CorpusError for a missing, unreadable or invalid file. */
export function readCorpus(path: string): Corpus {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CorpusError(code === 'ENOENT' ? `corpus file ${path} does not exist; make one with \`chainrpc load corpus --out ${path}\`` : `cannot read corpus file ${path}: ${(err as Error).message}`);
  }
  let value: unknown;
  try {
    // JSON.parse, not the lossless parser: a corpus's integers are nonces and indexes (the schema keeps them
    // below 2^53), its big numbers are decimal strings, and the file may hold 100,000 transactions.
    value = JSON.parse(text);
  } catch (err) {
    throw new CorpusError(`corpus file ${path} is not JSON (${(err as Error).message}); was it cut short? Make it again with \`chainrpc load corpus\``);
  }
  return checkCorpus(value, path);
}
