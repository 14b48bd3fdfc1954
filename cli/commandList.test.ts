/**
 * The command registry against the command modules: `chainrpc --help` prints the registry's copies
 * of each name and summary (so it need not load the modules), and these tests keep the copies true.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { Command } from './Command.js';
import { COMMANDS } from './commandList.js';
import { packageRoot } from '../core/paths.js';

/** Option names a help page documents: its option lines ("  --url <base-url>   what it is", "  -h, --help"). */
const documentedOptions = (help: string): string[] => [...help.matchAll(/^ +(?:-h, )?--([a-z][a-z0-9-]*)/gm)].map((m) => m[1] ?? '');

/** The exit codes a help page explains: "0 a result; 1 the node answered ...", each a number at the start of its "Exit codes:" paragraph or after "; ". */
function explainedExits(help: string): number[] | undefined {
  const at = help.lastIndexOf('Exit codes:');
  if (at === -1) return undefined;
  return [...help.slice(at).matchAll(/(?:^Exit codes:|;)\s+(\d+) /g)].map((m) => Number(m[1])).sort((a, b) => a - b);
}

/** Every help page of a command: its own ("load") and each subcommand's ("load k6"). */
const pages = (command: Command): { name: string; help: string; options: string[] }[] => [
  { name: command.name, help: command.help, options: command.commandLines.flatMap((line) => Object.keys(line.options)) },
  ...(command.subcommands ?? []).map((s) => ({ name: `${command.name} ${s.name}`, help: s.help, options: Object.keys(s.commandLine.options) })),
];

/** chainrpc from the sources through tsx, so a test needs no build and sees this checkout. */
const chainrpcFromSource = (...args: string[]): Promise<{ stdout: string }> => promisify(execFile)(process.execPath, ['--import', 'tsx', join(packageRoot, 'cli', 'chainrpc.ts'), ...args], { cwd: packageRoot });

describe('cli/commandList', () => {
  it.each(COMMANDS.map((entry) => [entry.name, entry] as const))('%s: the module it loads has the same name and summary', async (_name, entry) => {
    const command = await entry.load();
    expect({ name: command.name, summary: command.summary }).toEqual({ name: entry.name, summary: entry.summary });
  });

  it.each(COMMANDS.map((entry) => [entry.name, entry] as const))('%s: each help page (its own, each subcommand\'s) lists exactly the options that page parses', async (_name, entry) => {
    for (const page of pages(await entry.load())) expect(new Set(documentedOptions(page.help)), `chainrpc ${page.name} --help`).toEqual(new Set([...page.options, 'help']));
  });

  it.each(COMMANDS.map((entry) => [entry.name, entry] as const))('%s: each subcommand has a help of its own (its usage, options and exit codes), named on the command\'s page', async (_name, entry) => {
    const command = await entry.load();
    for (const line of command.commandLines) expect(line.name).toBe(command.name);
    for (const sub of command.subcommands ?? []) {
      const name = `${command.name} ${sub.name}`;
      expect(sub.commandLine.name, 'the subcommand parses under its own name').toBe(name);
      expect(sub.help.startsWith(`Usage: chainrpc ${name}`), `chainrpc ${name} --help starts with its usage`).toBe(true);
      expect(sub.help).not.toBe(command.help);
      // Its own usage only: no other subcommand's.
      for (const other of (command.subcommands ?? []).filter((o) => o !== sub)) expect(sub.help, `chainrpc ${name} --help`).not.toContain(`Usage: chainrpc ${command.name} ${other.name}`);
      expect(command.help, `chainrpc ${command.name} --help names ${sub.name}`).toMatch(new RegExp(`^ +${sub.name}\\b`, 'm'));
    }
  });

  it.each(COMMANDS.map((entry) => [entry.name, entry] as const))('%s: every option naming a node (<base-url>, <url>) is checked as an http(s) URL when parsed', async (_name, entry) => {
    const command = await entry.load();
    const lines = [...command.commandLines, ...(command.subcommands ?? []).map((s) => s.commandLine)];
    for (const line of lines) {
      for (const [name, option] of Object.entries(line.options) as [string, { value?: string; check?: unknown }][]) {
        // record import's --node is a label written into the capture, never called; node's --p2p-url is announced, never called by it.
        if (!['<base-url>', '<url>'].includes(option.value ?? '') || (line.name === 'record import' && name === 'node') || (line.name === 'node' && name === 'p2p-url')) continue;
        expect(typeof option.check, `${line.name} --${name}`).toBe('function');
      }
    }
  });

  it('names each command once', () => {
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('chainrpc --help lists every command with its summary, in registry order', async () => {
    const { stdout } = await chainrpcFromSource('--help');
    const width = Math.max(...COMMANDS.map((c) => c.name.length));
    const [, commands = '', exits = ''] = stdout.split(/^Commands:$|^Exit codes:/m);
    const listed = commands.split('\n').filter((line) => /^ {2}\S/.test(line));
    expect(listed).toEqual(COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`));
    // And each command's exit codes, from the registry.
    expect(exits.split('\n').filter((line) => /^ {2}\S/.test(line))).toEqual(COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.exits.join(' ')}`));
  });

  it.each(COMMANDS.map((entry) => [entry.name, entry] as const))('%s: its help explains every exit code it can end with (the registry\'s), and no other; each subcommand\'s help those it can end with, all of them the command\'s', async (_name, entry) => {
    const command = await entry.load();
    expect(explainedExits(command.help), `${entry.name} --help has no "Exit codes:" paragraph`).toEqual([...entry.exits]);
    for (const sub of command.subcommands ?? []) {
      const exits = explainedExits(sub.help);
      expect(exits, `chainrpc ${entry.name} ${sub.name} --help has no "Exit codes:" paragraph`).toBeDefined();
      expect(exits, `chainrpc ${entry.name} ${sub.name} --help`).toContain(0);
      expect(exits?.filter((code) => !(entry.exits as readonly number[]).includes(code)), `chainrpc ${entry.name} ${sub.name} --help explains codes the registry does not list for ${entry.name}`).toEqual([]);
    }
  });

  it('the --help path imports no package: the commands and their dependencies load only when used', () => {
    // Start-up time is measured by `npm run bench:cli`, not here (shared machines are too noisy for
    // timed tests); what decides it is whether chainrpc.ts statically reaches undici, ajv, noble or
    // classic-level, and that does not depend on the machine.
    const packages = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const specifier of staticImports(file)) {
        if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
        else if (!specifier.startsWith('node:')) packages.add(`${specifier} (from ${file.slice(packageRoot.length + 1)})`);
      }
    };
    visit(join(packageRoot, 'cli', 'chainrpc.ts'));
    expect([...packages]).toEqual([]);
    expect(seen.size).toBeGreaterThan(1); // the walk did follow chainrpc.ts's imports
  });
});

/**
 * The modules a file loads when it is imported: its import and re-export declarations, less the
 * type-only ones (erased under verbatimModuleSyntax). Dynamic import() calls are left out on
 * purpose: they run only when the code calling them does.
 */
function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly !== true && ts.isStringLiteral(statement.moduleSpecifier)) {
      specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers;
}
