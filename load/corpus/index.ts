// Public API of pre-signed transaction corpora (docs/load-transactions.md).
export { CORPUS_FORMAT } from './Corpus.js';
export type { Corpus, CorpusLane, CorpusTx } from './Corpus.js';
export { CorpusError, FundingError } from './CorpusError.js';
export { CORPUS_DEFAULTS, DEFAULT_CORPUS_SEED, makeCorpus } from './makeCorpus.js';
export type { CorpusProgress, CorpusSummary, MakeCorpusOptions } from './makeCorpus.js';
export type { Funding } from './fundSenders.js';
export { checkCorpus, CORPUS_SCHEMA_ID, readCorpus } from './readCorpus.js';
export { deriveKey, KEY_DERIVATION } from './deriveKey.js';
// The engine loads the source by module path (SourceSpec); CORPUS_SOURCE_MODULE is that path, in dist/ or in the sources.
export { CORPUS_SOURCE_MODULE, CorpusSource, corpusSourceOptions, createSource } from './corpusSource.js';
export type { CorpusSourceOptions, TxTag } from './corpusSource.js';
export { SigningPool } from './SigningPool.js';
export { writeCorpus } from './writeCorpus.js';
export type { WriteCorpusOptions, WrittenCorpus } from './writeCorpus.js';
