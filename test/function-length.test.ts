/**
 * No function of the product is over 120 lines (ARCHITECTURE.md, "Tests, proofs and generated code"). The
 * allow-list below is empty: a new long function fails until it is split by what it does; one listed, with its
 * reason, only in review and only to leave again.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../core/paths.js';

const MAX_LINES = 120;
const PRODUCT = ['cli', 'core', 'profile', 'suites', 'load', 'fuzz', 'reports', 'reference-node'];

/** `file:name` of each long function still allowed, and why. */
const STILL_LONG: Record<string, string> = {};

function productFiles(dir: string): string[] {
  return readdirSync(join(packageRoot, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return productFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.includes('.generated.') ? [path] : [];
  });
}

/** Every function over MAX_LINES lines, as `file:name` (an unnamed one by its line) with its length; and how many functions were read. */
function longFunctions(): { long: Map<string, number>; scanned: number } {
  const long = new Map<string, number>();
  let scanned = 0;
  for (const file of PRODUCT.flatMap(productFiles)) {
    const source = ts.createSourceFile(file, readFileSync(join(packageRoot, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
        scanned++;
        const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
        if (lines > MAX_LINES) {
          const name = node.name?.getText(source) ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : `line ${first + 1}`);
          long.set(`${relative(packageRoot, join(packageRoot, file)).split('\\').join('/')}:${name}`, lines);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { long, scanned };
}

describe('function length', () => {
  it(`finds no product function over ${MAX_LINES} lines but the ones listed, and every listed one is still long`, () => {
    const { long, scanned } = longFunctions();
    // The scan reads the product's functions (thousands of them), not an empty folder.
    expect(scanned).toBeGreaterThan(1_000);
    expect([...long.keys()].filter((k) => STILL_LONG[k] === undefined), 'split these, or list them with a reason').toEqual([]);
    expect(Object.keys(STILL_LONG).filter((k) => !long.has(k)), 'no longer long: take them off the list').toEqual([]);
  });
});
