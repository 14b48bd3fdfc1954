/**
 * The docs hold to the code where a test can say so (in the spirit of docs/faults.md's test): every
 * top-level folder and every docs page is named in README.md, every kind of report in reports/README.md, and
 * README.md's exit-code table is the command registry's (cli/commandList.ts). Counts no test holds stay out
 * of prose (ARCHITECTURE.md, "Tests, proofs and generated code").
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../cli/commandList.js';
import { packageRoot } from '../core/paths.js';

const read = (file: string): string => readFileSync(join(packageRoot, file), 'utf8');
const readme = read('README.md');

/** The folders git tracks at the top of the repository (hidden ones aside). */
function trackedTopFolders(): string[] {
  const files = execFileSync('git', ['ls-files'], { cwd: packageRoot, encoding: 'utf8' }).split('\n');
  return [...new Set(files.filter((f) => f.includes('/') && !f.startsWith('.')).map((f) => f.slice(0, f.indexOf('/'))))].sort();
}

/** The README's section under `## <title>`, to the next `## `. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, `README.md has a "## ${title}" section`).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

describe('README.md', () => {
  it('names every top-level folder in its layout', () => {
    const layout = section('Layout');
    const folders = trackedTopFolders();
    expect(folders).toContain('docs');
    expect(folders.filter((f) => !new RegExp(`^${f}/`, 'm').test(layout))).toEqual([]);
  });

  it('links every page of docs/, and no page that is not there', () => {
    const pages = readdirSync(join(packageRoot, 'docs')).filter((f) => f.endsWith('.md'));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.filter((p) => !readme.includes(`](docs/${p})`))).toEqual([]);
    const linked = [...readme.matchAll(/\]\(docs\/([^)#]+)/g)].map((m) => m[1] as string);
    expect(linked.filter((p) => !pages.includes(p))).toEqual([]);
  });

  it('names every npm script of the Development table that a developer runs: test:*, bench:*, gen*', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const development = section('Development');
    const wanted = scripts.filter((s) => /^(test|bench|gen|demo|typecheck|lint)(:|$)/.test(s));
    expect(wanted).toContain('test:unit');
    expect(wanted.filter((s) => !development.includes(`npm run ${s}\``) && !(s === 'test' && development.includes('`npm test`')))).toEqual([]);
  });

  it("has one exit-code table with a row per command, its codes the registry's", () => {
    const rows = new Map(
      [...readme.matchAll(/^\| `([a-z]+)` \| (.+) \|$/gm)]
        .filter((m) => COMMANDS.some((c) => c.name === m[1]))
        .map((m) => [m[1] as string, [...(m[2] as string).matchAll(/(?:^|· )(\d+) /g)].map((n) => Number(n[1]))] as const),
    );
    expect([...rows.keys()]).toEqual(COMMANDS.map((c) => c.name));
    for (const c of COMMANDS) expect(rows.get(c.name), `README.md's exit codes of ${c.name}`).toEqual([...c.exits]);
  });
});

describe('reports/README.md', () => {
  it('names every kind of report (each folder of reports/) and its files', () => {
    const text = read('reports/README.md');
    const kinds = readdirSync(join(packageRoot, 'reports')).filter((f) => statSync(join(packageRoot, 'reports', f)).isDirectory());
    expect(kinds).toEqual(expect.arrayContaining(['conformance', 'load', 'shared']));
    expect(kinds.filter((k) => !text.includes(`\`${k}/`))).toEqual([]);
    // Every renderer's file (tests aside) appears by name.
    for (const kind of kinds) {
      const files = readdirSync(join(packageRoot, 'reports', kind)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'index.ts');
      expect(files.filter((f) => !text.includes(f)), `reports/${kind}/ files missing from reports/README.md`).toEqual([]);
    }
  });
});
