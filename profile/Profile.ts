import type { TxCodec } from './TxCodec.js';

/** How a node treats a param form that JSON-RPC 2.0 and the spec do not make it refuse. */
export type Leniency = 'refused' | 'accepted';

/** How hashes are written in results: no prefix (reference), a 0x before them, or either. */
export type HashPrefix = 'none' | '0x' | 'any';

export const HASH_PREFIXES: readonly HashPrefix[] = ['none', '0x', 'any'];

/** How integers are written in results: JSON numbers, or hex quantities ("0x1f", the Ethereum convention). */
export type IntegerEncoding = 'number' | 'hex';

/**
 * How the genesis block writes a hash or identifier no earlier block can give it (parent_hash,
 * proposer): 64 zeros (reference), any value of the field's type as in every other block, an empty
 * string, null, or no such key.
 */
export type GenesisHashForm = 'zeros' | 'any' | 'empty' | 'null' | 'absent';

/** How the genesis block writes its timestamp: 0, the epoch (reference), any timestamp, null, or no such key. */
export type GenesisTimeForm = 'zero' | 'any' | 'null' | 'absent';

/** The genesis block's own forms, by the spec's field names (docs/profiles.md, genesisBlock). */
export interface GenesisBlock {
  parent_hash: GenesisHashForm;
  proposer: GenesisHashForm;
  timestamp: GenesisTimeForm;
}

export const GENESIS_HASH_FORMS: readonly GenesisHashForm[] = ['zeros', 'any', 'empty', 'null', 'absent'];
export const GENESIS_TIME_FORMS: readonly GenesisTimeForm[] = ['zero', 'any', 'null', 'absent'];

/** What a profile file's `"genesisZeros": true` means (the reference): 64 zeros as parent_hash and proposer, timestamp 0. */
export const GENESIS_ZEROS: Readonly<GenesisBlock> = Object.freeze({ parent_hash: 'zeros', proposer: 'zeros', timestamp: 'zero' });

/** What `"genesisZeros": false` means: the genesis block's fields are written as any other block's, their values not compared. */
export const GENESIS_ANY: Readonly<GenesisBlock> = Object.freeze({ parent_hash: 'any', proposer: 'any', timestamp: 'any' });

/**
 * What a network chose where the spec is silent (docs/profiles.md lists every key with an example).
 * MUST and SHOULD checks never depend on it: they accept every legal choice, and use the profile only
 * to talk to the node (endpoint path, method names, field names, codec). PROFILE checks compare the
 * node's answers with its exact choices. The default is the reference profile.
 */
export interface Profile {
  name: string;
  /** Where it came from: "built-in" or the file path. */
  source: string;
  /** The JSON-RPC endpoint's path under the base URL: "/rpc" (the spec), "/", "/v1/jsonrpc", ... */
  rpcPath: string;
  /** Replaces the spec's neutral `chain_` prefix in method names (e.g. "acme_"). net_peerCount keeps its name. */
  methodPrefix: string;
  /** Explicit method renames, by the spec's name: { "chain_getAccount": "acme_account" }. Win over the prefix. */
  methodNames: Record<string, string>;
  /** How result keys are spelled on the wire when `fields` does not name them: as the spec writes them, or camelCase. */
  keyCase: 'snake_case' | 'camelCase';
  /** Result field names on the wire, by the spec's (snake_case) name; null: the node has no such field. */
  fields: Record<string, string | null>;
  /** The transaction codec (module path in a profile file; the reference codec by default). */
  codec: TxCodec;
  /** HTTP statuses the node uses. PROFILE checks compare; the legal set is wider. */
  http: {
    /** Status of a response that carries only notifications' nothing: 204 (reference) or 200. */
    notification: number;
    /** Status of a JSON-RPC answer that carries an error (200 in the reference profile). */
    error: number;
    /** Per error code (as a string, "-32700"), where it differs from `error`. */
    errorByCode: Record<string, number>;
    /** GET, PUT, DELETE on the endpoint. */
    wrongMethod: number;
    /** A call sent as text/plain (200: the node serves it). */
    wrongContentType: number;
    bodyTooLarge: number;
  };
  /**
   * Error codes by the profile's error names (schemas/errors.schema.json), or by name and condition
   * ("InvalidParams/tx-hex") where the node uses another code for one condition. null: the node has no
   * distinct code for it, so the code is not compared.
   */
  errorCodes: Record<string, number | null>;
  /** What error objects carry in `data`: an object with a `reason` sentence (reference), a string, or nothing. */
  errorData: 'object' | 'string' | 'absent' | 'any';
  /** Param forms the spec does not show, each refused (with InvalidParams, reference) or accepted. */
  params: {
    /** Params beyond a method's list ([1] for chain_blockNumber). */
    extra: Leniency;
    /** By-name (object) params ({"address": "…"}), which JSON-RPC 2.0 §4.2 allows a server to take. */
    byName: Leniency;
    /** A 0x before hex params (addresses, transactions). */
    hexPrefix: Leniency;
    /** Integers given as strings ("5", "0x5") for heights. */
    stringIntegers: Leniency;
  };
  /** The value sets of chain_health's status and mode. */
  health: { status: string[]; mode: string[] };
  /**
   * The height of the first block (0 in the reference profile), exactly: a u64 (spec), which a number
   * cannot hold above 2^53. Read this one.
   */
  genesisHeightExact: bigint;
  /**
   * The same height as a number, for code not yet moved to genesisHeightExact: exact up to 2^53, the
   * nearest double above it (1152921504606846983 reads as 1152921504606846976). Do not compare heights with it.
   */
  genesisHeight: number;
  /**
   * How the genesis block writes the fields no earlier block can fill (reference: 64 zeros as
   * parent_hash and proposer, timestamp 0). A profile file's `genesisZeros` (true or false) is read into it.
   */
  genesisBlock: GenesisBlock;
  /** Case of hex hashes and identifiers in results: lower (reference), upper, or either. */
  hexCase: 'lower' | 'upper' | 'any';
  /**
   * How hashes (a block's hash, parent_hash and transactions, a transaction's hash in chain_sendRawTransaction's
   * and chain_faucetClaim's results) are written in results: 64 hex with no prefix (reference), with a `0x`
   * before them (Ethereum's convention), or either. Addresses and identifiers are 64 hex by the spec and keep no
   * prefix. Params are another matter (params.hexPrefix).
   */
  hashPrefix: HashPrefix;
  /** Block timestamps: milliseconds since the epoch (reference), seconds, or ISO 8601 text. */
  timestamps: 'milliseconds' | 'seconds' | 'iso8601';
  /** Integers in results: JSON numbers (reference) or hex quantities ("0x1f", the Ethereum convention). */
  integers: IntegerEncoding;
  /**
   * net_peerCount's result: the count itself (reference), in the method's integers; the count as a decimal
   * string of a u64 ("2": "0" or no leading zeros; methodIntegers does not apply); or an object whose `count`
   * field (as `fields`/`keyCase` name it) holds the count, other members (a maximum) not compared.
   */
  peerCountResult: 'integer' | 'decimal' | 'object';
  /** Per method (by the spec's name), where it writes its integers otherwise than `integers` says: { "net_peerCount": "hex" }. */
  methodIntegers: Record<string, IntegerEncoding>;
  /**
   * PoU leader and peer identifiers: 64 hex (reference), any string of at least 16 characters, or any value
   * ('any': the spec does not show the leader's type; a node may write an object or a number).
   */
  identifiers: 'hex' | 'string' | 'any';
  /**
   * PoU scores: integers (reference), any number (spec: peers' scores are "an orderable number"), or any value
   * ('any': the spec does not show local_score's type; peers' scores stay the spec's numbers at its level).
   */
  scores: 'integer' | 'number' | 'any';
  /** A height with no block: an error with errorCodes.BlockNotFound (reference), or a null result. */
  unknownHeight: 'error' | 'null';
  /** An address the chain has never seen: an empty account (reference), or an error with errorCodes.AccountNotFound. */
  unknownAccount: 'empty' | 'error' | 'null';
  /** chain_sendRawTransaction's result: the hash itself (reference), or an object whose transaction_hash field holds it. */
  txResult: 'hash' | 'object';
  /** The network has a faucet (chain_faucetClaim funds fresh keys). */
  faucet: boolean;
  /** How the faucet credits: by a transaction included in a block (reference; the result names it), or directly. */
  faucetCredit: 'transaction' | 'direct';
  /**
   * chain_faucetClaim's result where the faucet credits by a transaction: an object whose transaction_hash field
   * (and amount) name it (reference), or the transaction's hash itself.
   */
  faucetResult: 'object' | 'hash';
  /**
   * What a block's transactions list holds: the transactions' hashes (reference), or an object for each
   * transaction (carrying its hash among its members; the spec shows no transactions list at all).
   */
  blockTransactions: 'hashes' | 'objects';
  /** Faucet claims one address may make (the faucet-limit check claims one more); undefined: unknown, the check skips. */
  faucetLimit?: number;
  /**
   * Invalid transactions the node admits and then never applies, by error name (the spec leaves the
   * node's reaction unshown): a node that checks balances only when it executes a block admits an
   * overspend. Empty in the reference profile: every invalid transaction is refused at once.
   */
  droppedLater: string[];
  /** A transaction whose nonce skips ahead: refused with errorCodes.NonceGap (reference), or held until the gap fills. */
  nonceGap: 'refused' | 'held';
  /** Transactions with consecutive nonces sent before a block are all accepted (reference) or only one at a time. */
  sequentialNonces: 'queued' | 'refused';
  /** The fee the suite's transfers carry, in base units (10^15, the spec's example, by default). */
  fee: bigint;
  /** A funded private key (hex) to use instead of the faucet; its owner pays the checks' fees. */
  privateKey?: string;
  /** Expected time between blocks, ms: how long checks wait for inclusion. */
  blockTimeMs: number;
  /** Chain id transactions are signed for; read from chain_health's chain_id when absent, else 1. */
  chainId?: bigint;
  /** The node's batch size limit; undefined: unknown, the batch-limit checks skip. */
  maxBatch?: number;
  /** The node's request body limit in bytes; undefined: unknown, the body-limit check skips. */
  maxBodyBytes?: number;
}

/** The invalid transactions a node may admit and never apply (Profile.droppedLater), by error name. */
export const DROPPABLE: readonly string[] = ['TxBadSignature', 'TxWrongChain', 'NonceTooLow', 'InsufficientBalance', 'AmountOverflow'];

/** The spec's neutral method prefix, which a profile's methodPrefix replaces. */
export const SPEC_PREFIX = 'chain_';

/** The node's name for one of the spec's methods (explicit renames first, then the prefix). */
export function wireMethod(profile: Pick<Profile, 'methodNames' | 'methodPrefix'>, name: string): string {
  const renamed = profile.methodNames[name];
  if (renamed !== undefined) return renamed;
  return name.startsWith(SPEC_PREFIX) ? profile.methodPrefix + name.slice(SPEC_PREFIX.length) : name;
}

/** How a method (by the spec's name) writes the integers of its result: its own override, else the profile's `integers`. */
export function integersOf(profile: Pick<Profile, 'integers' | 'methodIntegers'>, method: string): IntegerEncoding {
  return profile.methodIntegers[method] ?? profile.integers;
}

/** A hash as the profile writes it (hashPrefix): the 64 hex given, with a 0x before it where the profile says so. */
export function wireHash(profile: Pick<Profile, 'hashPrefix'>, hex: string): string {
  return profile.hashPrefix === '0x' ? `0x${hex}` : hex;
}

/** snake_case to camelCase: transaction_count -> transactionCount. */
export const camelCase = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The key a result field has on the wire (null: the profile says the node has none). */
export function wireField(profile: Pick<Profile, 'fields' | 'keyCase'>, name: string): string | null {
  const named = profile.fields[name];
  if (named !== undefined) return named;
  return profile.keyCase === 'camelCase' ? camelCase(name) : name;
}

/**
 * The code the profile gives an error, for the first of the conditions it names a code for
 * ("InvalidParams/tx-hex"), else for the error's name. Conditions go from the most specific: a 0x before
 * a transaction is ['hex-prefix', 'tx-hex']. undefined: the profile names none; null: not compared.
 */
export function errorCode(profile: Pick<Profile, 'errorCodes'>, name: string, conditions: string | readonly string[] = []): number | null | undefined {
  for (const condition of typeof conditions === 'string' ? [conditions] : conditions) {
    const specific = profile.errorCodes[`${name}/${condition}`];
    if (specific !== undefined) return specific;
  }
  return profile.errorCodes[name];
}

/** The HTTP status the profile gives a JSON-RPC answer carrying this error code. */
export function errorStatus(profile: Pick<Profile, 'http'>, code: number): number {
  return profile.http.errorByCode[String(code)] ?? profile.http.error;
}
