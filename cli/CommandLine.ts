/**
 * The one argument parser of every chainrpc command, on node:util's parseArgs. A command declares its
 * options once, as a table (what each takes, its default, its range); `parse` returns typed values or
 * throws a CliError (exit code 2) with one line that names the command and the option:
 *
 *   test: Unknown option '--bogus' (see chainrpc test --help)
 *   test: --url needs a value: --url <base-url>
 *   devnet: --mn must be an integer from 1 to 32; got "0"
 *
 * `-h` / `--help` never reach a command: the dispatcher prints the command's help first (wantsHelp).
 * Keep this file light: cli/chainrpc.ts imports it on the path of `chainrpc --help`.
 */
import { parseArgs } from 'node:util';
import { CliError } from './CliError.js';

/** A text value, checked by `check` where given (which returns what is wrong, said after the option's name). */
export interface TextOption {
  readonly kind: 'text';
  /** How the help names the value: `--url <base-url>`. */
  readonly value: string;
  readonly required?: boolean;
  readonly default?: string;
  readonly check?: (text: string) => string | undefined;
}

/** A text value that may be given several times; every value is kept, in order ([] when none). */
export interface ListOption {
  readonly kind: 'list';
  readonly value: string;
  readonly check?: (text: string) => string | undefined;
}

/** A switch: true when given. */
export interface FlagOption {
  readonly kind: 'flag';
}

/** A whole number in decimal digits, from `min` (to `max` where given). */
export interface IntegerOption {
  readonly kind: 'integer';
  readonly value: string;
  readonly min: number;
  readonly max?: number;
  readonly default?: number;
}

/** A non-negative integer of up to 20 digits (a u64: chain ids, nonces), as a bigint. */
export interface UintOption {
  readonly kind: 'uint';
  readonly value: string;
  readonly required?: boolean;
  readonly default?: bigint;
}

/** One of a few words, in any case; the value is the word as `choices` spells it. */
export interface ChoiceOption {
  readonly kind: 'choice';
  readonly value: string;
  readonly choices: readonly string[];
  readonly default?: string;
}

export type OptionSpec = TextOption | ListOption | FlagOption | IntegerOption | UintOption | ChoiceOption;
export type OptionTable = Readonly<Record<string, OptionSpec>>;

type Given<O, V> = O extends { required: true } | { default: unknown } ? V : V | undefined;
type ValueOf<O extends OptionSpec> = O extends FlagOption
  ? boolean
  : O extends ListOption
    ? string[]
    : O extends IntegerOption
      ? Given<O, number>
      : O extends UintOption
        ? Given<O, bigint>
        : O extends ChoiceOption
          ? Given<O, O['choices'][number]>
          : Given<O, string>;

/** The values of a table's options, typed by their kinds: absent ones are undefined unless required or defaulted. */
export type OptionValues<T extends OptionTable> = { -readonly [K in keyof T]: ValueOf<T[K]> };

export interface ParsedCommandLine<T extends OptionTable> {
  values: OptionValues<T>;
  positionals: string[];
}

const MAX_UINT_DIGITS = 20;

/** "a, b or c". */
const orList = (words: readonly string[]): string => (words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1] ?? ''}`);

/** How an integer option's range reads in a message. */
function integerRange(spec: IntegerOption): string {
  if (spec.max !== undefined) return `an integer from ${spec.min} to ${spec.max}`;
  if (spec.min === 1) return 'a positive integer';
  if (spec.min === 0) return 'a non-negative integer';
  return `an integer >= ${spec.min}`;
}

/** A command's options and how to read them: `new CommandLine('tx sign', {...}).parse(argv)`. */
export class CommandLine<const T extends OptionTable> {
  /**
   * @param name the command as the user types it after `chainrpc` ("test", "profile detect"): every message starts with it
   * @param options the table: option name (without --) -> what it takes
   * @param positionals whether words other than options are taken (call's method and params, replay's check id)
   */
  constructor(
    readonly name: string,
    readonly options: T,
    readonly positionals = false,
  ) {}

  private usage(message: string): CliError {
    return new CliError(`${this.name}: ${message}`);
  }

  /** Reads argv; throws a CliError (exit code 2) naming the option for anything it does not take. */
  parse(argv: readonly string[]): ParsedCommandLine<T> {
    const config = Object.fromEntries(Object.entries(this.options).map(([name, spec]) => [name, { type: spec.kind === 'flag' ? ('boolean' as const) : ('string' as const) }]));
    // Not strict: the tokens are judged here, so that every message names the command and reads as one line.
    const { tokens } = parseArgs({ args: [...argv], options: config, strict: false, allowPositionals: true, tokens: true });
    const given = new Map<string, string[]>();
    const positionals: string[] = [];
    const help = `see chainrpc ${this.name} --help`;
    for (const token of tokens) {
      if (token.kind === 'option-terminator') continue;
      if (token.kind === 'positional') {
        if (!this.positionals) throw this.usage(`unexpected argument "${token.value}": ${this.name} takes only options (${help})`);
        positionals.push(token.value);
        continue;
      }
      const spec = Object.hasOwn(this.options, token.name) ? this.options[token.name] : undefined;
      if (spec === undefined) throw this.usage(`Unknown option '${token.rawName}' (${help})`);
      if (spec.kind === 'flag') {
        if (token.value !== undefined) throw this.usage(`${token.rawName} takes no value; got ${token.rawName}=${token.value}`);
        given.set(token.name, ['']);
        continue;
      }
      // A separate word that looks like an option is one the user forgot to give a value before (parseArgs' strict rule).
      const looksLikeOption = token.inlineValue !== true && token.value !== undefined && token.value.length > 1 && token.value.startsWith('-');
      if (token.value === undefined || looksLikeOption) {
        const hint = looksLikeOption ? ` ("${token.value}" is taken for an option; write ${token.rawName}=${token.value} for a value that starts with -)` : '';
        throw this.usage(`${token.rawName} needs a value: ${token.rawName} ${spec.value}${hint}`);
      }
      // Of anything else given twice the last counts, but a command that reads one node given two would read the
      // last alone and say nothing of the other (profile detect did).
      const before = spec.kind === 'list' || token.name !== 'url' ? undefined : given.get(token.name)?.[0];
      if (before !== undefined && before !== token.value) throw this.usage(`${token.rawName} was given twice ("${before}" and "${token.value}"): ${this.name} reads one node; run it once per node`);
      given.set(token.name, [...(spec.kind === 'list' ? (given.get(token.name) ?? []) : []), token.value]);
    }
    const values: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(this.options)) values[name] = this.value(`--${name}`, spec, given.get(name));
    return { values: values as OptionValues<T>, positionals };
  }

  /** One option's value from the texts given for it (undefined: not given). */
  private value(flag: string, spec: OptionSpec, texts: string[] | undefined): unknown {
    if (spec.kind === 'flag') return texts !== undefined;
    if (spec.kind === 'list') {
      for (const text of texts ?? []) this.check(flag, text, spec.check);
      return texts ?? [];
    }
    const text = texts?.[texts.length - 1];
    if (text === undefined) {
      if ((spec.kind === 'text' || spec.kind === 'uint') && spec.required === true) throw this.usage(`${flag} is required: ${flag} ${spec.value} (see chainrpc ${this.name} --help)`);
      return spec.default;
    }
    switch (spec.kind) {
      case 'text':
        this.check(flag, text, spec.check);
        return text;
      case 'integer': {
        const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
        if (!Number.isSafeInteger(n) || n < spec.min || (spec.max !== undefined && n > spec.max)) throw this.usage(`${flag} must be ${integerRange(spec)}; got "${text}"`);
        return n;
      }
      case 'uint':
        if (!new RegExp(`^\\d{1,${MAX_UINT_DIGITS}}$`).test(text)) throw this.usage(`${flag} must be a non-negative integer (at most ${MAX_UINT_DIGITS} digits); got "${text}"`);
        return BigInt(text);
      case 'choice': {
        const choice = spec.choices.find((c) => c.toLowerCase() === text.toLowerCase());
        if (choice === undefined) throw this.usage(`${flag} must be ${orList(spec.choices)}; got "${text}"`);
        return choice;
      }
    }
  }

  private check(flag: string, text: string, check: ((text: string) => string | undefined) | undefined): void {
    const problem = check?.(text);
    if (problem !== undefined) throw this.usage(`${flag} ${problem}`);
  }
}

const HELP_OPTIONS: ReadonlySet<string> = new Set(['h', 'help']);

/** Whether the words after a command ask for its help: `-h` or `--help` among its options (not after `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  const { tokens } = parseArgs({ args: [...argv], strict: false, allowPositionals: true, tokens: true });
  return tokens.some((t) => t.kind === 'option' && HELP_OPTIONS.has(t.name));
}
