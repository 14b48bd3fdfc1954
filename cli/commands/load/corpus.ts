/**
 * `chainrpc load corpus`: pre-signed transfers for chain_sendRawTransaction, funded and written to a file
 * (load/corpus/makeCorpus.ts) that chainrpc load --corpus and k6 read.
 */
import { CliError } from '../../CliError.js';
import { CommandLine } from '../../CommandLine.js';
import { baseUrls } from '../../nodeUrls.js';
import { hexToFixedBytes } from '../../../core/codec/index.js';
import { CorpusError, FundingError } from '../../../load/corpus/CorpusError.js';
import { makeCorpus } from '../../../load/corpus/makeCorpus.js';
import { relativeOrAbsolute } from '../commandText.js';
import { interruptible } from './interrupt.js';
import { needUrls, PRIVATE_KEY, TARGET, targetFailure, targetOptions, targetProfile, URL_RULE } from './target.js';

export const CORPUS_HELP = `Usage: chainrpc load corpus --url <base-url> --out <file> [--senders <n>] [--per-sender <n>] [options]

Pre-signs transfers for --senders x --per-sender (one lane per sender, in nonce order), funded
through the faucet or from --private-key, into a file that chainrpc load --corpus and k6 read
(docs/load-transactions.md).

${URL_RULE}

Options:
${targetOptions('the node whose chain the transfers are signed for (one)')}
  --out <file>             where the corpus goes (JSON, written whole or not at all): a new file or
                           a corpus chainrpc wrote; any other file is refused (exit 2)
  --senders <n>            lanes, one per sender (default 32)
  --per-sender <n>         transactions each sender signs, in nonce order (default 64)
  --fund <how>             faucet (default), key (--private-key pays), or none (already funded)
  --private-key <hex>      the funded key for --fund key
  --seed <text>            derives the sender keys (default chainrpc-load)
  --threads <n>            signing threads (default: the machine's cores)
  -h, --help

Exit codes: 0 the corpus written; 1 the senders could not be funded; 2 usage error; 3 the node did
not answer; 4 internal error (a bug in chainrpc); 130 interrupted (Ctrl-C): nothing is written.`;

export const corpusLine = new CommandLine('load corpus', {
  ...TARGET,
  out: { kind: 'text', value: '<file>', required: true },
  senders: { kind: 'integer', value: '<n>', min: 1, max: 100_000, default: 32 },
  'per-sender': { kind: 'integer', value: '<n>', min: 1, max: 1_000_000, default: 64 },
  fund: { kind: 'choice', value: '<how>', choices: ['faucet', 'key', 'none'], default: 'faucet' },
  'private-key': PRIVATE_KEY,
  seed: { kind: 'text', value: '<text>', default: 'chainrpc-load' },
  threads: { kind: 'integer', value: '<n>', min: 1, max: 64 },
} as const);

/** Runs `chainrpc load corpus`; resolves to 0 when the corpus is written. */
export async function corpusCommand(argv: string[]): Promise<number> {
  const { values } = corpusLine.parse(argv);
  needUrls('load corpus', values.url);
  if (values.url.length > 1) throw new CliError('load corpus: give one --url (the corpus is signed for its chain)');
  if (values.fund === 'key' && values['private-key'] === undefined) throw new CliError('load corpus: --fund key needs --private-key <hex> (the key that pays)');
  const profile = await targetProfile('load corpus', values);
  const [url] = baseUrls('load corpus', values.url, profile.rpcPath) as [string];
  const stop = interruptible('load corpus: interrupted: stopping at the next step');
  try {
    const summary = await makeCorpus({
      signal: stop.signal,
      url,
      profile,
      out: values.out,
      senders: values.senders,
      perSender: values['per-sender'],
      seed: values.seed,
      funding: values.fund === 'key' ? { kind: 'key', privateKey: hexToFixedBytes(values['private-key'] ?? '', 32, '--private-key') } : { kind: values.fund === 'none' ? 'none' : 'faucet' },
      ...(values.threads === undefined ? {} : { threads: values.threads }),
      onProgress: (p) => {
        if (p.done === p.total || p.done % 100 === 0) process.stdout.write(`${p.phase}: ${p.done}/${p.total}\n`);
      },
    });
    process.stdout.write(`corpus: ${relativeOrAbsolute(values.out)}: ${summary.senders} senders x ${summary.perSender} transactions, chain ${summary.chainId}\n`);
    return 0;
  } catch (err) {
    if (stop.interrupted()) throw new CliError('load corpus: interrupted: no corpus was written', 'interrupted');
    const failure = targetFailure('load corpus', url, err);
    if (failure !== undefined) throw failure;
    if (err instanceof FundingError || err instanceof CorpusError) throw CliError.within('load corpus', err);
    throw err;
  } finally {
    stop.dispose();
  }
}
