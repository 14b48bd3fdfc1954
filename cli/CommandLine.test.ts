import { describe, expect, it } from 'vitest';
import { CliError, EXIT } from './CliError.js';
import { CommandLine, wantsHelp } from './CommandLine.js';

const line = new CommandLine('demo', {
  url: { kind: 'list', value: '<base-url>', check: (t) => (t.startsWith('http') ? undefined : `${t} is not a URL`) },
  name: { kind: 'text', value: '<name>', default: 'x' },
  key: { kind: 'text', value: '<hex>' },
  count: { kind: 'integer', value: '<n>', min: 1, max: 32, default: 3 },
  wait: { kind: 'integer', value: '<ms>', min: 1 },
  port: { kind: 'integer', value: '<n>', min: 0 },
  chain: { kind: 'uint', value: '<n>', default: 1n },
  level: { kind: 'choice', value: '<level>', choices: ['must', 'should', 'profile'] },
  quiet: { kind: 'flag' },
});
const withWords = new CommandLine('demo sub', { need: { kind: 'text', value: '<v>', required: true } }, true);

/** The CliError a parse throws (exit code 2), as its message. */
function refusal(parse: () => unknown): string {
  try {
    parse();
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.usage);
    expect((err as CliError).message).not.toContain('\n');
    return (err as CliError).message;
  }
  throw new Error('the parse did not refuse');
}

describe('CommandLine', () => {
  it('gives every option its default, or undefined, or [] for a list, when nothing is given', () => {
    expect(line.parse([])).toEqual({
      values: { url: [], name: 'x', key: undefined, count: 3, wait: undefined, port: undefined, chain: 1n, level: undefined, quiet: false },
      positionals: [],
    });
  });

  it('reads values in both spellings, keeps every value of a list in order and the last of anything else', () => {
    const { values } = line.parse(['--url', 'http://a', '--url=http://b', '--name', 'n1', '--name=n2', '--count', '32', '--chain', '18446744073709551615', '--level', 'SHOULD', '--quiet', '--port', '0']);
    expect(values).toMatchObject({ url: ['http://a', 'http://b'], name: 'n2', count: 32, chain: 18446744073709551615n, level: 'should', quiet: true, port: 0 });
  });

  it('refuses two --url where a command reads one node (it read the last alone, saying nothing of the first)', () => {
    const one = new CommandLine('profile detect', { url: { kind: 'text', value: '<base-url>' } });
    expect(refusal(() => one.parse(['--url', 'http://a', '--url', 'http://b']))).toBe('profile detect: --url was given twice ("http://a" and "http://b"): profile detect reads one node; run it once per node');
    expect(one.parse(['--url', 'http://a', '--url', 'http://a']).values.url).toBe('http://a');
  });

  it('refuses an unknown option, naming it and the help to read', () => {
    expect(refusal(() => line.parse(['--bogus']))).toBe("demo: Unknown option '--bogus' (see chainrpc demo --help)");
    expect(refusal(() => line.parse(['-x']))).toBe("demo: Unknown option '-x' (see chainrpc demo --help)");
    // A subcommand's refusal names the subcommand's own help.
    expect(refusal(() => withWords.parse(['--need', 'v', '--bogus=1']))).toBe("demo sub: Unknown option '--bogus' (see chainrpc demo sub --help)");
  });

  it('refuses an option without its value, also where the next word is an option', () => {
    expect(refusal(() => line.parse(['--name']))).toBe('demo: --name needs a value: --name <name>');
    expect(refusal(() => line.parse(['--name', '--quiet']))).toBe('demo: --name needs a value: --name <name> ("--quiet" is taken for an option; write --name=--quiet for a value that starts with -)');
    expect(line.parse(['--name=-dash']).values.name).toBe('-dash');
    expect(refusal(() => line.parse(['--quiet=yes']))).toBe('demo: --quiet takes no value; got --quiet=yes');
  });

  it('refuses a bad number, saying what it must be', () => {
    expect(refusal(() => line.parse(['--count', '0']))).toBe('demo: --count must be an integer from 1 to 32; got "0"');
    expect(refusal(() => line.parse(['--count', '33']))).toBe('demo: --count must be an integer from 1 to 32; got "33"');
    for (const bad of ['x', '1.5', '1e3', '0x10', ' 8', '', '99999999999999999999']) {
      expect(refusal(() => line.parse(['--wait', bad]))).toBe(`demo: --wait must be a positive integer; got "${bad}"`);
    }
    expect(refusal(() => line.parse(['--port', '-1']))).toMatch(/^demo: --port needs a value/);
    expect(refusal(() => line.parse(['--port=-1']))).toBe('demo: --port must be a non-negative integer; got "-1"');
    expect(refusal(() => line.parse(['--chain', '1'.repeat(21)]))).toBe(`demo: --chain must be a non-negative integer (at most 20 digits); got "${'1'.repeat(21)}"`);
    expect(refusal(() => line.parse(['--chain', '-0']))).toMatch(/^demo: --chain needs a value/);
  });

  it("refuses a word that is not one of an option's choices, and a value its check refuses", () => {
    expect(refusal(() => line.parse(['--level', 'maybe']))).toBe('demo: --level must be must, should or profile; got "maybe"');
    expect(refusal(() => line.parse(['--url', 'http://a', '--url', 'ftp']))).toBe('demo: --url ftp is not a URL');
  });

  it('takes words besides options only where the command does, and insists on required options', () => {
    expect(refusal(() => line.parse(['stray']))).toBe('demo: unexpected argument "stray": demo takes only options (see chainrpc demo --help)');
    expect(withWords.parse(['a', '--need', 'v', 'b', '--', '--c'])).toEqual({ values: { need: 'v' }, positionals: ['a', 'b', '--c'] });
    expect(refusal(() => withWords.parse(['a']))).toBe('demo sub: --need is required: --need <v> (see chainrpc demo sub --help)');
  });
});

describe('wantsHelp', () => {
  it('finds -h or --help among the options, wherever they stand, but not after --', () => {
    expect(wantsHelp(['--help'])).toBe(true);
    expect(wantsHelp(['--url', 'http://a', '-h'])).toBe(true);
    expect(wantsHelp(['--url', '--help'])).toBe(true);
    expect(wantsHelp(['--url', 'http://a'])).toBe(false);
    expect(wantsHelp(['chain_call', '--', '--help'])).toBe(false);
  });
});
