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
import { COMMANDS } from './commandList.js';
import { packageRoot } from '../core/paths.js';

describe('cli/commandList', () => {
  it.each(COMMANDS.map((entry) => [entry.name, entry] as const))('%s: the module it loads has the same name and summary', async (_name, entry) => {
    const command = await entry.load();
    expect({ name: command.name, summary: command.summary }).toEqual({ name: entry.name, summary: entry.summary });
  });

  it.each(COMMANDS.map((entry) => [entry.name, entry] as const))('%s: its help lists exactly the options it parses', async (_name, entry) => {
    const command = await entry.load();
    // Option lines of the help: "  --url <base-url>   what it is", "  -h, --help".
    const documented = [...command.help.matchAll(/^ +(?:-h, )?--([a-z][a-z0-9-]*)/gm)].map((m) => m[1]);
    const parsed = command.commandLines.flatMap((line) => Object.keys(line.options));
    expect(new Set(documented)).toEqual(new Set([...parsed, 'help']));
  });

  it('names each command once', () => {
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('chainrpc --help lists every command with its summary, in registry order', async () => {
    // From the sources through tsx, so the test needs no build and sees this checkout's registry.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(packageRoot, 'cli', 'chainrpc.ts'), '--help'], { cwd: packageRoot });
    const width = Math.max(...COMMANDS.map((c) => c.name.length));
    const [, commands = '', exits = ''] = stdout.split(/^Commands:$|^Exit codes:/m);
    const listed = commands.split('\n').filter((line) => /^ {2}\S/.test(line));
    expect(listed).toEqual(COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`));
    // And each command's exit codes, from the registry.
    expect(exits.split('\n').filter((line) => /^ {2}\S/.test(line))).toEqual(COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.exits.join(' ')}`));
  });

  it.each(COMMANDS.map((entry) => [entry.name, entry] as const))('%s: its help explains every exit code it can end with, and no other', async (_name, entry) => {
    const command = await entry.load();
    const text = command.help.slice(command.help.lastIndexOf('Exit codes:'));
    expect(text.startsWith('Exit codes:'), `${entry.name} --help has no "Exit codes:" paragraph`).toBe(true);
    // "0 a result; 1 the node answered ...": each code is a number at the start of the paragraph or after "; ".
    const explained = [...text.matchAll(/(?:^Exit codes:|;)\s+(\d+) /g)].map((m) => Number(m[1])).sort((a, b) => a - b);
    expect(explained).toEqual([...entry.exits]);
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
