import { readFileSync } from 'node:fs';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { BaselineMark, CheckResult, Evidence, Exchange, RunResult, RunSummary } from '../../suites/model.js';
import { U128_MAX, U64_MAX, fixtureRun } from '../../test/support/fixtureRun.js';
import { renderJson } from './renderJson.js';

// Both ship CommonJS with `exports.default`; under NodeNext the default import is the module object.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  definitions?: Record<string, SchemaNode>;
}
const schema = JSON.parse(readFileSync(new URL('./report.schema.json', import.meta.url), 'utf8')) as SchemaNode & { $schema: string };
const ajv = new Ajv({ strict: true, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(schema);

const problems = (value: unknown): string[] =>
  validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? e.keyword}`);

describe('renderJson and report.schema.json', () => {
  it('is a draft-07 schema that ajv compiles in strict mode', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });

  it('renders the fixture run as JSON that the schema accepts', () => {
    const text = renderJson(fixtureRun({ extraPasses: 40 }));
    expect(problems(JSON.parse(text))).toEqual([]);
  });

  it('round-trips the run exactly, indented like JSON.stringify(run, null, 2)', () => {
    const run = fixtureRun();
    const text = renderJson(run);
    expect(JSON.parse(text)).toEqual(run);
    expect(text).toBe(`${JSON.stringify(run, null, 2)}\n`);
    // The node's big integers live in a response body (a string): unchanged, digit for digit.
    expect(text).toContain(`\\"balance\\":${U128_MAX},\\"nonce\\":${U64_MAX}`);
  });

  it('writes a bigint that slips into a report as the exact integer', () => {
    const run = fixtureRun();
    (run.options as unknown as Record<string, unknown>).deadlineMs = 2n ** 70n;
    expect(renderJson(run)).toContain('"deadlineMs": 1180591620717411303424');
  });

  it.each<[string, (r: Record<string, unknown> & RunResult) => void]>([
    ['a wrong format', (r) => ((r as { format: string }).format = 'chainrpc-report/1')],
    ['a missing summary', (r) => delete (r as Partial<RunResult>).summary],
    ['an unknown top-level field', (r) => (r.extra = 1)],
    ['an unknown status', (r) => ((r.results[0] as { status: string }).status = 'flaky')],
    ['an unknown level in the counts', (r) => ((r.summary.counts as Record<string, unknown>).MAY = { pass: 0, fail: 0, error: 0, skip: 0 })],
    ['a negative count', (r) => (r.summary.counts.MUST.fail = -1)],
    ['exit code 2', (r) => ((r.summary as { exitCode: number }).exitCode = 2)],
    ['a check id without an area', (r) => ((r.results[0] as CheckResult).id = 'empty-batch')],
    ['an exchange without a request body', (r) => delete (r.results[0]?.evidence.exchanges[0]?.request as Partial<Exchange['request']>).body],
    ['a response without truncated', (r) => delete (r.results[0]?.evidence.exchanges[0]?.response as { truncated?: boolean }).truncated],
    ['an unknown baseline state', (r) => ((r.results.find((x) => x.baseline)?.baseline as { state: string }).state = 'flaky')],
    ['a start time that is not a date-time', (r) => (r.startedAt = 'yesterday')],
    ['a header value that is not a string', (r) => ((r.results[0]?.evidence.exchanges[0]?.request.headers as Record<string, unknown>)['x-n'] = 1)],
  ])('refuses a report with %s', (_what, breakIt) => {
    const report = JSON.parse(renderJson(fixtureRun())) as Record<string, unknown> & RunResult;
    breakIt(report);
    expect(problems(report)).not.toEqual([]);
  });

  // Objects with every field of the model's types, optional ones included: when suites/model.ts gains or
  // loses a field, `satisfies Required<...>` stops compiling until this test (and then the schema) follow.
  it('lists exactly the fields of the model types', () => {
    const exchange = {
      node: '',
      request: { method: '', url: '', headers: {}, body: '', bodyless: false, truncated: false },
      response: { status: 200, headers: {}, body: '', truncated: false },
      failure: '',
      ms: 0,
      startedAt: '',
    } satisfies Required<Exchange>;
    const evidence = { message: '', expected: '', actual: '', exchanges: [] } satisfies Required<Evidence>;
    const baseline = { reason: '', expires: '', state: 'expired' } satisfies Required<BaselineMark>;
    const check = {
      id: '', level: 'MUST', category: 'transport', title: '', spec: '', scope: 'node', node: '', status: 'pass',
      evidence, durationMs: 0, baseline, reproduce: '',
    } satisfies Required<CheckResult>;
    const summary = { counts: fixtureRun().summary.counts, gating: 0, passed: true, certified: true, exitCode: 0, verdict: '' } satisfies Required<RunSummary>;
    const run = {
      format: 'chainrpc-report/4', tool: { name: 'chainrpc', version: '' }, startedAt: '', finishedAt: '', durationMs: 0, targets: [],
      profile: { name: '', source: '' }, gate: 'MUST', options: { only: [], skip: [], baseline: '', deadlineMs: 0 }, results: [], interrupted: true, summary, hints: [],
    } satisfies Required<RunResult>;

    const defs = schema.definitions ?? {};
    const keysOf = (node: SchemaNode | undefined): string[] => Object.keys(node?.properties ?? {}).sort();
    const sorted = (o: object): string[] => Object.keys(o).sort();
    expect(keysOf(schema)).toEqual(sorted(run));
    expect(keysOf(schema.properties?.tool)).toEqual(sorted(run.tool));
    expect(keysOf(schema.properties?.profile)).toEqual(sorted(run.profile));
    expect(keysOf(schema.properties?.options)).toEqual(sorted(run.options));
    expect(keysOf(defs.RunSummary)).toEqual(sorted(summary));
    expect(keysOf(defs.CheckResult)).toEqual(sorted(check));
    expect(keysOf(defs.Evidence)).toEqual(sorted(evidence));
    expect(keysOf(defs.BaselineMark)).toEqual(sorted(baseline));
    expect(keysOf(defs.Exchange)).toEqual(sorted(exchange));
    expect(keysOf(defs.Exchange?.properties?.request)).toEqual(sorted(exchange.request));
    expect(keysOf(defs.Exchange?.properties?.response)).toEqual(sorted(exchange.response));
  });
});
