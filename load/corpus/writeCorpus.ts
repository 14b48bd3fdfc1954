import { resolve } from 'node:path';
import type { TxCodec } from '../../profile/TxCodec.js';
import { AtomicFile } from '../../core/files/AtomicFile.js';
import { claimFile, fileHead } from '../../core/files/ownedFolder.js';
import { CORPUS_FORMAT } from './Corpus.js';
import type { Corpus } from './Corpus.js';
import { laneSigner, signLane } from './signLanes.js';
import type { SignedLane, SignJob } from './signLanes.js';
import { SigningPool } from './SigningPool.js';

export interface WriteCorpusOptions {
  /** The file to write (atomically: a reader sees the old file or the whole new one). */
  out: string;
  /** Everything but the lanes. */
  header: Omit<Corpus, 'senders'>;
  job: SignJob;
  /** Signing threads, or a codec object that only this thread can use (it signs here). */
  signer: SigningPool | TxCodec;
  /** Lanes written so far, of all. */
  onLane?: (done: number, total: number) => void;
}

export interface WrittenCorpus {
  path: string;
  /** Signing threads used (1 for a codec object). */
  threads: number;
  /** From the first byte written to the file in place (signing threads already started). */
  ms: number;
  bytes: number;
}

/** Whether the file at `path` is a corpus chainrpc wrote: its first member is `"format": "chainrpc-corpus/1"`. */
export const isCorpusFile = (path: string): boolean => new RegExp(`^\\{\\s*"format":\\s*"${CORPUS_FORMAT}"`).test(fileHead(path, 256));

/**
 * Takes `out` for a corpus before anything is signed or funded: a new file, or a corpus chainrpc wrote (it is
 * replaced whole); any other file, a folder or a link is refused with a NotOursError naming it.
 */
export function claimCorpusFile(out: string): void {
  claimFile(out, 'a corpus', isCorpusFile, 'give --out a new file, or a corpus chainrpc load corpus wrote');
}

/**
 * Signs the job's lanes and writes the corpus file: the header, then each lane as it is signed, in index
 * order (lanes come back from the threads in any order), one transaction a line.
 */
export async function writeCorpus(options: WriteCorpusOptions): Promise<WrittenCorpus> {
  const { job } = options;
  const total = job.lanes.length;
  const file = new AtomicFile(resolve(options.out));
  const started = performance.now();
  let bytes = 0;
  const signer = options.signer;
  const threads = signer instanceof SigningPool ? signer.size : 1;
  try {
    const write = (text: string): void => {
      file.write(text);
      bytes += Buffer.byteLength(text);
    };
    write(`${JSON.stringify(options.header, null, 2).slice(0, -2)},\n  "senders": [\n`);
    const waiting = new Map<number, SignedLane>();
    let next = 0;
    const onLane = (lane: SignedLane): void => {
      waiting.set(lane.index, lane);
      for (let l = waiting.get(job.lanes[next]?.index ?? -1); l !== undefined; l = waiting.get(job.lanes[next]?.index ?? -1)) {
        waiting.delete(l.index);
        write(`${next === 0 ? '' : ',\n'}${l.text}`);
        next++;
        options.onLane?.(next, total);
      }
    };
    if (signer instanceof SigningPool) {
      await signer.sign(job, onLane);
    } else {
      const sign = await laneSigner(signer);
      for (const lane of job.lanes) onLane(signLane(sign, job, lane));
    }
    if (next !== total) throw new Error(`corpus signing ended with ${next} of ${total} lanes written`);
    write('\n  ]\n}\n');
    file.commit();
  } catch (err) {
    file.abort();
    throw err;
  }
  return { path: file.path, threads, ms: performance.now() - started, bytes };
}
