import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import AjvModule from 'ajv';
import { describe, expect, it } from 'vitest';
import { schemasDir } from '../core/paths.js';
import { METHOD_NAMES } from '../core/schema/types.generated.js';

const require = createRequire(import.meta.url);
const Ajv = AjvModule.default;
const doc = JSON.parse(readFileSync(join(schemasDir, 'openrpc.json'), 'utf8')) as {
  openrpc: string;
  methods: { name: string; examples: unknown[]; errors: { code: number }[] }[];
  components: { schemas: Record<string, unknown> };
};

describe('schemas/openrpc.json', () => {
  it('validates against the OpenRPC meta-schema', () => {
    const { openrpcDocument } = require('@open-rpc/meta-schema') as { openrpcDocument: Record<string, unknown> };
    const jsonSchemaMeta = require('@json-schema-tools/meta-schema/schema.json') as Record<string, unknown>;
    // Both meta-schemas declare the json-schema.tools dialect; ajv checks them as plain schemas.
    const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    // The OpenRPC meta-schema refers to it both with and without the trailing slash.
    ajv.addSchema(jsonSchemaMeta);
    ajv.addSchema({ ...jsonSchemaMeta, $id: 'https://meta.json-schema.tools' });
    const validate = ajv.compile(openrpcDocument);
    const ok = validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('lists every method with examples and an error contract', () => {
    expect(doc.methods.map((m) => m.name).sort()).toEqual([...METHOD_NAMES].sort());
    for (const m of doc.methods) {
      expect(m.examples.length, m.name).toBeGreaterThan(0);
      expect(m.errors.map((e) => e.code), m.name).toContain(-32602);
    }
  });

  it('every $ref resolves inside the document', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const r of refs) {
      const name = /#\/components\/schemas\/(.+)"$/.exec(r)?.[1];
      expect(name && doc.components.schemas[name], r).toBeTruthy();
    }
  });

  it('keeps u64 max exact in the published schema', () => {
    expect(readFileSync(join(schemasDir, 'openrpc.json'), 'utf8')).toContain('18446744073709551615');
  });
});
