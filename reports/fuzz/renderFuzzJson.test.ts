/**
 * report.json of a fuzz run against fuzz-report.schema.json (ajv in strict mode with ajv-formats, as the
 * conformance and load reports' tests do): every fixture validates, the run comes back exactly after its
 * format, broken reports are refused, and the schema's field lists are pinned to fuzz/model.ts's types.
 */
import { readFileSync } from 'node:fs';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { Finding, FoundCase, FuzzAnswer, FuzzRun, TargetSummary, ToolError } from '../../fuzz/model.js';
import { FUZZ_FIXTURE_KINDS, fuzzRunFixture } from '../../test/support/fuzzRunFixture.js';
import { FUZZ_REPORT_FORMAT, renderFuzzJson } from './renderFuzzJson.js';
import type { FuzzReport } from './renderFuzzJson.js';

// Both ship CommonJS with `exports.default`; under NodeNext the default import is the module object.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  definitions?: Record<string, SchemaNode>;
  items?: SchemaNode;
}
const schema = JSON.parse(readFileSync(new URL('./fuzz-report.schema.json', import.meta.url), 'utf8')) as SchemaNode & { $schema: string };
const ajv = new Ajv({ strict: true, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(schema);

const problems = (value: unknown): string[] => (validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? e.keyword}`));
const parsed = (run: FuzzRun): FuzzReport => JSON.parse(renderFuzzJson(run)) as FuzzReport;
const first = <T>(items: readonly T[] | undefined): T => {
  const item = items?.[0];
  if (item === undefined) throw new Error('the fixture has none');
  return item;
};

describe('renderFuzzJson and fuzz-report.schema.json', () => {
  it('is a draft-07 schema, like the other reports\', whose format const is the one the renderer writes', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.properties?.format).toMatchObject({ const: FUZZ_REPORT_FORMAT });
    expect(FUZZ_REPORT_FORMAT).toBe('chainrpc-fuzz/1');
  });

  it.each(FUZZ_FIXTURE_KINDS)('renders the %s run as JSON that the schema accepts', (kind) => {
    expect(problems(parsed(fuzzRunFixture(kind)))).toEqual([]);
  });

  it('writes the format first, then the run exactly, indented like JSON.stringify(report, null, 2)', () => {
    const run = fuzzRunFixture('findings');
    const text = renderFuzzJson(run);
    expect(text.split('\n')[1]).toBe('  "format": "chainrpc-fuzz/1",');
    expect(JSON.parse(text)).toEqual({ format: 'chainrpc-fuzz/1', ...run });
    expect(text).toBe(`${JSON.stringify({ format: 'chainrpc-fuzz/1', ...run }, null, 2)}\n`);
  });

  it('keeps a body that is not UTF-8 byte for byte (base64), for --replay', () => {
    const f4 = parsed(fuzzRunFixture('findings')).findings.find((f) => f.id === 'F4');
    expect(f4?.minimal.http.bodyText).toBeUndefined();
    expect([...Buffer.from(f4?.minimal.http.bodyBase64 ?? '', 'base64')]).toEqual([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0xff, 0xfe, 0x00, 0x01, 0x7d]);
  });

  it.each<[string, (r: FuzzReport & Record<string, unknown>) => void]>([
    ['a wrong format', (r) => ((r as { format: string }).format = 'chainrpc-load/2')],
    ['no findings list', (r) => delete (r as Partial<FuzzRun>).findings],
    ['an unknown top-level field', (r) => (r.extra = 1)],
    ['an unknown oracle', (r) => ((first(r.findings) as { oracle: string }).oracle = 'vibes')],
    ['a finding id that is not F<n>', (r) => (first(r.findings).id = 'finding-1')],
    ['a rule without its family', (r) => (first(r.findings).rule = 'maximum')],
    ['a minimal case without its bytes', (r) => delete (first(r.findings).minimal.http as Partial<FoundCase['http']>).bodyBase64],
    ['a body that is not base64', (r) => (first(r.findings).minimal.http.bodyBase64 = 'not base64!')],
    ['an unknown recheck', (r) => ((first(r.findings) as { recheck: string }).recheck = 'maybe')],
    ['a count of 0', (r) => (first(r.findings).count = 0)],
    ['an unknown target state', (r) => ((first(r.targets) as { state: string }).state = 'asleep')],
    ['a family missing', (r) => delete (r.byFamily as Partial<FuzzRun['byFamily']>).http],
    ['an unknown stop', (r) => ((r as { stop: string }).stop = 'bored')],
    ['a start time that is not a date-time', (r) => (r.startedAt = 'yesterday')],
    ['a tool error without a message', (r) => delete (first(r.toolErrors) as Partial<ToolError>).message],
  ])('refuses a report with %s', (_what, breakIt) => {
    const report = parsed(fuzzRunFixture('findings')) as FuzzReport & Record<string, unknown>;
    breakIt(report);
    expect(problems(report)).not.toEqual([]);
  });

  // Objects with every field of the model's types, optional ones included: when fuzz/model.ts gains or loses a
  // field, `satisfies Required<...>` stops compiling until this test (and then the schema) follow.
  it('lists exactly the fields of the model types', () => {
    const answer = { status: 200, headers: {}, text: '', truncated: true, failure: { code: '', message: '' }, ms: 0 } satisfies Required<FuzzAnswer>;
    const http = { method: 'POST', contentType: '', bodyBase64: '', bodyText: '', omitContentLength: true } satisfies Required<FoundCase['http']>;
    const found = { seed: 0, index: 0, rule: '', title: '', http, answer, curl: '' } satisfies Required<FoundCase>;
    const finding = {
      id: '', signature: '', oracle: 'envelope', url: '', method: '', rule: '', message: '', source: '', kind: 'id', original: found, minimal: found, count: 1, recheck: 'flaky', atMs: 0,
      others: [{ url: '', answer }], alsoAs: [{ id: 'F2', method: '', rule: '', count: 1 }], candidates: [found],
    } satisfies Required<Finding>;
    const target = { url: '', cases: 0, findings: 0, state: 'answering', medianMs: 0, slowBoundMs: 0, livenessChecks: 0 } satisfies Required<TargetSummary>;
    const toolError = { url: '', message: '', atMs: 0 } satisfies Required<ToolError>;
    const options = { cases: null, durationMs: null, only: [], maxRate: 0, maxBodyBytes: 0, seek: 'none', profile: '', profileFile: '', rpcPath: '', methodPrefix: '', maxFindings: 1, unobserved: ['errorCodes.NonceGap'] } satisfies Required<FuzzRun['options']>;
    const report = {
      format: FUZZ_REPORT_FORMAT, tool: { name: 'chainrpc', version: '' }, startedAt: '', durationMs: 0, seed: 0, options, targets: [], cases: 0,
      byFamily: { valid: 0, 'invalid-params': 0, envelope: 0, http: 0 }, findings: [], toolErrors: [], timeline: [{ atMs: 0, cases: 0, findings: 0 }], costly: [{ case: found, costRatio: 0 }], stop: 'cases',
    } satisfies Required<FuzzReport>;

    const defs = schema.definitions ?? {};
    const keysOf = (node: SchemaNode | undefined): string[] => Object.keys(node?.properties ?? {}).sort();
    const sorted = (o: object): string[] => Object.keys(o).sort();
    expect(keysOf(schema)).toEqual(sorted(report));
    expect(keysOf(schema.properties?.tool)).toEqual(sorted(report.tool));
    expect(keysOf(schema.properties?.options)).toEqual(sorted(options));
    expect(keysOf(schema.properties?.byFamily)).toEqual(sorted(report.byFamily));
    expect(keysOf(schema.properties?.timeline?.items)).toEqual(sorted(first(report.timeline)));
    expect(keysOf(schema.properties?.costly?.items)).toEqual(sorted(first(report.costly)));
    expect(keysOf(defs.FuzzAnswer)).toEqual(sorted(answer));
    expect(keysOf(defs.FuzzAnswer?.properties?.failure)).toEqual(sorted(answer.failure));
    expect(keysOf(defs.FoundCase)).toEqual(sorted(found));
    expect(keysOf(defs.FoundCase?.properties?.http)).toEqual(sorted(http));
    expect(keysOf(defs.Finding)).toEqual(sorted(finding));
    expect(keysOf(defs.Finding?.properties?.others?.items)).toEqual(sorted(first(finding.others)));
    expect(keysOf(defs.TargetSummary)).toEqual(sorted(target));
    expect(keysOf(defs.ToolError)).toEqual(sorted(toolError));
  });
});
