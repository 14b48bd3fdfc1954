/**
 * The docs hold to the code where a test can say so (in the spirit of docs/faults.md's test): every
 * top-level folder and every docs page is named in README.md, every kind of report in reports/README.md,
 * README.md's exit-code table is the command registry's (cli/commandList.ts; each command's help explains
 * the same codes: cli/commandList.test.ts), and a figure a help text quotes is measured again here.
 * Counts no test holds stay out of prose (ARCHITECTURE.md, "Tests, proofs and generated code").
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../cli/commandList.js';
import { DETECT_REQUESTS, profile } from '../cli/commands/profile.js';
import { packageRoot } from '../core/paths.js';
import { detectProfile } from '../profile/detect/detectProfile.js';
import { MAX_REQUESTS } from '../profile/detect/Prober.js';
import { startTestNode } from './support/suites.js';

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

describe('figures quoted in help texts', () => {
  const detectHelp = profile.subcommands?.find((s) => s.name === 'detect')?.help ?? '';

  it('profile detect: the requests it says it sends against a reference node besides the height reads are what it sends (within 15%)', async () => {
    expect(detectHelp).toContain(`Against the reference node it sends about ${DETECT_REQUESTS} requests, plus the reads of the height`);
    expect(detectHelp).toContain(`Never more than ${MAX_REQUESTS} requests`);
    const node = await startTestNode();
    try {
      // Every probe on, as the help's figure is for the command's defaults.
      const r = await detectProfile({ url: node.url });
      const besidesHeight = r.requests - r.heightReads;
      expect(Math.abs(besidesHeight - DETECT_REQUESTS), `measured ${besidesHeight} requests besides ${r.heightReads} height reads; the help says about ${DETECT_REQUESTS}`).toBeLessThanOrEqual(DETECT_REQUESTS * 0.15);
      expect(r.requests).toBeLessThanOrEqual(MAX_REQUESTS);
    } finally {
      await node.stop();
    }
  }, 60_000);

  it('docs/profile-detect.md quotes the same figures as the help', () => {
    const page = read('docs/profile-detect.md');
    expect(page).toContain(`about ${DETECT_REQUESTS} requests`);
    expect(page).toContain(`At most ${MAX_REQUESTS} requests`);
    expect(page).not.toMatch(/about 110 against/);
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

describe('what chainrpc writes (README.md, "What chainrpc writes, and what it will not touch")', () => {
  /** Every string held by a command object (its help, and the helps of its subcommands), newlines folded. */
  const helpOf = async (name: string): Promise<string> => {
    const entry = COMMANDS.find((c) => c.name === name);
    if (entry === undefined) throw new Error(`no command ${name}`);
    const texts: string[] = [];
    const seen = new Set<unknown>();
    const walk = (value: unknown): void => {
      if (typeof value === 'string') texts.push(value);
      else if (typeof value === 'object' && value !== null && !seen.has(value)) {
        seen.add(value);
        for (const v of Object.values(value)) walk(v);
      }
    };
    walk(await entry.load());
    return texts.join('\n').replace(/\s+/g, ' ');
  };

  it('names the default folders, the latest links and the marker exactly as the code has them, in the docs and in each command\'s help', async () => {
    const [{ OWNED_MARKER }, { DEFAULT_REPORT_DIR, LATEST_LINK, latestLinkOf }, { CONFORMANCE_REPORT_KIND }, { LOAD_REPORT_KIND }, { DEFAULT_DEVNET_DIR }, { NODE_DEFAULTS }, { DEFAULT_K6_DIR }] = await Promise.all([
      import('../core/files/ownedFolder.js'),
      import('../reports/shared/reportFolder.js'),
      import('../reports/conformance/writeReports.js'),
      import('../reports/load/writeLoadReports.js'),
      import('../reference-node/devnet/devnetDataDir.js'),
      import('../reference-node/node/nodeDefaults.js'),
      import('../cli/commands/load/k6.js'),
    ]);
    const conformance = latestLinkOf(CONFORMANCE_REPORT_KIND);
    const load = latestLinkOf(LOAD_REPORT_KIND);
    expect([conformance, load]).toEqual(['latest-conformance', 'latest-load']);
    const writes = section('The command line');
    for (const name of [DEFAULT_REPORT_DIR, DEFAULT_DEVNET_DIR, NODE_DEFAULTS.dataDir, `${DEFAULT_K6_DIR}/<scenario>`, OWNED_MARKER, LATEST_LINK, conformance, load]) {
      expect(writes, `README.md names \`${name}\``).toContain(`\`${name}\``);
    }
    const docs = (page: string): string => read(`docs/${page}`);
    for (const [page, names] of [
      ['reports.md', [DEFAULT_REPORT_DIR, `<report-dir>/${LATEST_LINK}`, conformance, load]],
      ['reference-node.md', [DEFAULT_DEVNET_DIR, NODE_DEFAULTS.dataDir, OWNED_MARKER]],
      ['load.md', [DEFAULT_REPORT_DIR, `${DEFAULT_K6_DIR}/<scenario>`, load, OWNED_MARKER]],
    ] as const) {
      for (const name of names) expect(docs(page), `docs/${page} names ${name}`).toContain(name);
    }
    const helps: [string, string[]][] = [
      ['test', [`default dir ${DEFAULT_REPORT_DIR}`, `<dir>/${conformance}`]],
      ['load', [`default dir ${DEFAULT_REPORT_DIR}`, `<dir>/${load}`, `default ${DEFAULT_K6_DIR}/<scenario>`]],
      ['replay', [`${DEFAULT_REPORT_DIR}/${conformance}/report.json`]],
      ['node', [`default ${NODE_DEFAULTS.dataDir}`, OWNED_MARKER]],
      ['devnet', [`default ${DEFAULT_DEVNET_DIR}`, OWNED_MARKER]],
    ];
    for (const [command, names] of helps) {
      const help = await helpOf(command);
      for (const name of names) expect(help, `chainrpc ${command} --help names ${name}`).toContain(name);
    }
  });

  it('names no folder under .chainrpc/ that is not a default of the code, except one given on the line it is named on', async () => {
    const [{ DEFAULT_REPORT_DIR }, { DEFAULT_DEVNET_DIR }, { NODE_DEFAULTS }, { DEFAULT_K6_DIR }] = await Promise.all([
      import('../reports/shared/reportFolder.js'),
      import('../reference-node/devnet/devnetDataDir.js'),
      import('../reference-node/node/nodeDefaults.js'),
      import('../cli/commands/load/k6.js'),
    ]);
    const defaults = new Set([DEFAULT_REPORT_DIR, DEFAULT_DEVNET_DIR, NODE_DEFAULTS.dataDir, DEFAULT_K6_DIR]);
    const pages = ['README.md', 'ARCHITECTURE.md', 'reports/README.md', 'load/README.md', ...readdirSync(join(packageRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const strays: string[] = [];
    for (const page of pages) {
      for (const line of read(page).split('\n')) {
        for (const [folder] of line.matchAll(/\.chainrpc\/[\w-]+/g)) {
          // A folder given on its own line (--data-dir .chainrpc/ln1, writeReports(..., '.chainrpc/my-run')) is the user's choice, not a default.
          const given = line.includes(`--data-dir ${folder}`) || line.includes(`'${folder}'`);
          if (!defaults.has(folder) && !given) strays.push(`${page}: ${folder}`);
        }
      }
    }
    expect(strays).toEqual([]);
  });
});
