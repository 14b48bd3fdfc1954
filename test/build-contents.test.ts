// The build ships the product and nothing else: test helpers live under test/ (or end in .test.ts), one
// glob keeps them out of tsconfig.build.json, and every file the build compiles is used by the program
// (reachable from the chainrpc entry point by its imports) or is a folder's public index.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = resolve(ROOT, 'cli/chainrpc.ts');

/** The files `tsc -p tsconfig.build.json` compiles (what --listFilesOnly lists, without node_modules). */
function buildFiles(): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(resolve(ROOT, 'tsconfig.build.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error('tsconfig.build.json could not be read');
  return parsed.fileNames.map((f) => resolve(f));
}

/** Relative static and dynamic imports of a file, resolved to .ts paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => resolve(dirname(file), m[1] ?? '').replace(/\.js$/, '.ts'));
}

describe('the build (tsconfig.build.json)', () => {
  const files = buildFiles();
  const rel = (f: string): string => relative(ROOT, f).split('\\').join('/');

  it('compiles the product folders and nothing from test/, bench/ or scripts/, and no *.test.ts', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain(ENTRY);
    const strays = files.map(rel).filter((f) => /^(test|bench|scripts)\//.test(f) || f.endsWith('.test.ts'));
    expect(strays).toEqual([]);
  });

  it('holds no file the program does not use: each is reachable from cli/chainrpc.ts or is a folder index', () => {
    const inBuild = new Set(files);
    const seen = new Set<string>();
    const todo = [ENTRY];
    for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
      if (seen.has(file)) continue;
      seen.add(file);
      for (const target of importsOf(file)) if (inBuild.has(target)) todo.push(target);
    }
    // A helper only tests import (a fixture builder, a test server) is unreachable here: it belongs in test/support/.
    // A declaration file (.d.ts: the types of a library that ships none) compiles to nothing.
    const unused = files.filter((f) => !seen.has(f) && !f.endsWith('/index.ts') && !f.endsWith('.d.ts')).map(rel);
    expect(unused).toEqual([]);
  });

  it('imports nothing from test/: a product file that did would pull a test helper into the build', () => {
    const wrong = files.flatMap((f) => importsOf(f).filter((t) => rel(t).startsWith('test/')).map((t) => `${rel(f)} -> ${rel(t)}`));
    expect(wrong).toEqual([]);
  });
});
