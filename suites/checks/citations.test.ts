/**
 * Every citation a check makes leads somewhere the repository holds. A check's `spec` names the rule it
 * comes from; where that is a file of this repository, the file must exist: each `docs/<file>.md` with the
 * `#anchor` it names (a heading's anchor, as GitHub makes it, or an explicit `<a id>`), each `schemas/...json`
 * with the JSON pointer it names. A "spec:" citation (the interface) points into docs/interface.md. The
 * schema files (their descriptions and `x-spec`, printed into the OpenRPC document) are held to the same.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot, schemasDir } from '../../core/paths.js';
import { catalogue } from '../catalogue.js';

/** The anchors a markdown file offers: explicit `<a id>`/`<a name>`, and each heading's GitHub anchor. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const m of markdown.matchAll(/<a\s[^>]*?\b(?:id|name)="([^"]+)"/g)) anchors.add(m[1] ?? '');
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = (heading[1] ?? '')
      .replace(/<[^>]*>/g, '') // inline HTML, e.g. an <a id> on the heading line
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // a link keeps its text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** The value a JSON pointer (RFC 6901) names in a document, or undefined when it names nothing. */
function resolvePointer(doc: unknown, pointer: string): unknown {
  let at: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

const markdownAnchors = new Map<string, Set<string> | null>();
const jsonDocs = new Map<string, unknown>();

/** What is wrong with the repository citations in one text: an empty list when every one of them holds. */
function brokenCitations(text: string): string[] {
  const problems: string[] = [];
  for (const m of text.matchAll(/\b(docs\/[\w./-]*?\.md)(?:#([\w-]*))?/g)) {
    const [cited, file = '', anchor] = m;
    if (!markdownAnchors.has(file)) {
      const path = join(packageRoot, file);
      markdownAnchors.set(file, existsSync(path) ? anchorsOf(readFileSync(path, 'utf8')) : null);
    }
    const anchors = markdownAnchors.get(file);
    if (!anchors) problems.push(`${cited}: no such file`);
    else if (anchor !== undefined && !anchors.has(anchor)) problems.push(`${cited}: ${file} has no anchor #${anchor}`);
  }
  for (const m of text.matchAll(/\b(schemas\/[\w./-]*?\.json)(?:#(\/[\w/.~-]*))?/g)) {
    const [cited, file = '', pointer] = m;
    if (!jsonDocs.has(file)) {
      const path = join(packageRoot, file);
      jsonDocs.set(file, existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as unknown) : undefined);
    }
    const doc = jsonDocs.get(file);
    if (doc === undefined) problems.push(`${cited}: no such file`);
    else if (pointer !== undefined && resolvePointer(doc, pointer) === undefined) problems.push(`${cited}: ${file} has nothing at ${pointer}`);
  }
  // The interface is cited by anchor, never by its section names: every "spec: " continues with one.
  for (const m of text.matchAll(/\bspec: /g)) {
    const rest = text.slice((m.index ?? 0) + m[0].length);
    if (!rest.startsWith('docs/interface.md#')) problems.push(`"spec: ${rest.slice(0, 40)}...": a spec citation names no docs/interface.md#anchor`);
  }
  return problems;
}

/** Every file of a folder, recursively, whose name ends with the suffix. */
function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(suffix))
    .sort()
    .map((f) => join(dir, f));
}

describe('citations', () => {
  it('finds what is broken: a missing anchor, file or pointer, and a spec citation by section name', () => {
    expect(brokenCitations('spec: docs/interface.md#resource-account; profile: docs/reference-profile.md#results-the-spec-leaves-unshown')).toEqual([]);
    expect(brokenCitations('profile: schemas/defs.schema.json#/definitions/Block; docs/conformance-suite.md#must-and-should-never-depend-on-what-the-spec-leaves-open')).toEqual([]);
    expect(brokenCitations('spec: docs/interface.md#resource-acount')).toEqual(['docs/interface.md#resource-acount: docs/interface.md has no anchor #resource-acount']);
    expect(brokenCitations('profile: docs/reference-profil.md')).toEqual(['docs/reference-profil.md: no such file']);
    expect(brokenCitations('profile: schemas/defs.schema.json#/definitions/Blok')).toEqual(['schemas/defs.schema.json#/definitions/Blok: schemas/defs.schema.json has nothing at /definitions/Blok']);
    expect(brokenCitations('profile: schemas/nope.schema.json')).toEqual(['schemas/nope.schema.json: no such file']);
    expect(brokenCitations('spec: Resources > Account')).toHaveLength(1);
  });

  it('anchors are GitHub heading anchors (code and links reduced to their text, repeats numbered) or explicit ids', () => {
    const md = '# The `chain_getAccount` method\n## Byte layout (version 1)\n## Faucet\n## Faucet\n```\n# not a heading\n```\nx <a id="rule-1"></a>\n## See [Faucet](#faucet)\n';
    expect([...anchorsOf(md)].sort()).toEqual(['byte-layout-version-1', 'faucet', 'faucet-1', 'rule-1', 'see-faucet', 'the-chain_getaccount-method']);
  });

  it("every check's spec names only files and anchors the repository holds", () => {
    const checks = catalogue();
    expect(checks.length).toBeGreaterThan(50);
    const problems = checks.flatMap((c) => brokenCitations(c.spec).map((p) => `${c.id}: ${p}`));
    expect(problems).toEqual([]);
    // Most checks cite the interface; the rest cite JSON-RPC 2.0, an RFC or the profile.
    expect(checks.filter((c) => c.spec.includes('docs/interface.md#')).length).toBeGreaterThan(30);
  });

  it('every citation in the schema files (descriptions, x-spec, the OpenRPC document) names only what the repository holds', () => {
    const files = filesUnder(schemasDir, '.json');
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((path) => brokenCitations(readFileSync(path, 'utf8')).map((p) => `${path}: ${p}`))).toEqual([]);
  });
});
