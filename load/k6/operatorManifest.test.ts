import fc from 'fast-check';
// js-yaml 5 ships its own types and named exports only (no default export).
import { YAML11_SCHEMA, loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { CONFIGMAP_MAX_BYTES, OperatorManifestError, operatorManifest, type OperatorManifestOptions } from './operatorManifest.js';

const SCRIPT = `import http from 'k6/http';
// "quotes", 'single', \`back\` and \${template}: a colon, a # hash, a \\ backslash
export const options = { scenarios: { chainrpc: { executor: 'constant-arrival-rate', rate: 300 } } };
export function handleSummary(data) {
  return { [\`\${__ENV.CHAINRPC_SUMMARY_DIR}/summary.json\`]: JSON.stringify({ format: 'chainrpc-k6-summary/1' }) };
}
`;

/** Contents that a careless emitter would change: quoting, indentation, chomping, comments, markers, line breaks. */
const FILES: Record<string, string> = {
  'chainrpc.k6.js': SCRIPT,
  'corpus.json': '{"format": "chainrpc-corpus/1", "lanes": [["0xf8", "a: b", "# not a comment"]]}\n',
  'leading-spaces.txt': '    four spaces first\nthen none\n',
  'leading-newlines.txt': '\n\n  after two empty lines\n',
  'no-final-newline.txt': 'key: value\nlast line',
  'many-final-newlines.txt': 'text\n\n\n',
  'trailing-spaces.txt': 'a  \n   \n\tb\t\n  ',
  'markers.txt': '---\n...\n%YAML 1.2\n- item\n? key\n| pipe\n> fold\n&anchor *alias !tag @at `tick`\n',
  'crlf.txt': 'windows\r\nline\r\n',
  'controls.txt': 'nul\u0000 bell\u0007 del\u007f nel\u0085 ls\u2028 ps\u2029 bom\ufeff c1\u0090\n',
  'unicode.txt': 'é 漢字 😀 \u00a0nbsp\n',
  'empty.txt': '',
  'only-newlines.txt': '\n\n',
  'single-line.txt': '"quoted": \'and\' # hash',
  'true': 'yes',
  '1.5': 'null',
  '.hidden': 'on\n',
};

const BASE: OperatorManifestOptions = { name: 'chainrpc-reads', parallelism: 4, files: FILES, script: 'chainrpc.k6.js', summaryClaim: 'k6-summaries', namespace: 'load' };

type Doc = Record<string, unknown> & { metadata: Record<string, unknown>; data: Record<string, unknown>; spec: Record<string, unknown> & { runner: Record<string, unknown> } };
const parse = (text: string): Doc[] => loadAll(text) as Doc[];

describe('operatorManifest', () => {
  it('writes a ConfigMap of the files and a k6-operator TestRun that runs the script', () => {
    const [configMap, testRun, ...rest] = parse(operatorManifest(BASE));
    expect(rest).toEqual([]);
    expect(configMap).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'chainrpc-reads', namespace: 'load' }, data: FILES });
    expect(testRun).toEqual({
      apiVersion: 'k6.io/v1alpha1',
      kind: 'TestRun',
      metadata: { name: 'chainrpc-reads', namespace: 'load' },
      spec: {
        parallelism: 4,
        script: { configMap: { name: 'chainrpc-reads', file: 'chainrpc.k6.js' } },
        arguments: '--no-usage-report',
        runner: {
          env: [
            { name: 'K6_NO_USAGE_REPORT', value: 'true' },
            // Each of the 4 runners' share of the test, for its share of the drop limits.
            { name: 'CHAINRPC_SHARE', value: '1/4' },
            { name: 'CHAINRPC_SUMMARY_DIR', value: '/summaries' },
          ],
          volumes: [{ name: 'chainrpc-summaries', persistentVolumeClaim: { claimName: 'k6-summaries' } }],
          volumeMounts: [{ name: 'chainrpc-summaries', mountPath: '/summaries' }],
        },
      },
    });
    expect(operatorManifest(BASE)).not.toMatch(/cloud/i);
  });

  it('leaves the volume out without a claim, and the namespace out without one', () => {
    const { summaryClaim: _c, namespace: _n, ...plain } = BASE;
    const [configMap, testRun] = parse(operatorManifest({ ...plain, parallelism: 1 }));
    expect(configMap?.metadata).toEqual({ name: 'chainrpc-reads' });
    expect(testRun?.metadata).toEqual({ name: 'chainrpc-reads' });
    expect(testRun?.spec.runner).toEqual({ env: [{ name: 'K6_NO_USAGE_REPORT', value: 'true' }] });
  });

  it('keeps every file byte for byte, and no value turns into a boolean, a number or null under YAML 1.1 either', () => {
    const text = operatorManifest(BASE);
    const [configMap, testRun] = loadAll(text, { schema: YAML11_SCHEMA }) as Doc[];
    expect(configMap?.data).toEqual(FILES);
    expect((testRun?.spec.runner.env as { value: unknown }[])[0]?.value).toBe('true');
    // Text that fits a literal block is written as one (readable in kubectl's output), with the indicators it needs.
    expect(text).toContain('  chainrpc.k6.js: |\n    import http from \'k6/http\';\n');
    expect(text).toContain('  leading-spaces.txt: |2\n        four spaces first\n    then none\n');
    expect(text).toContain('  no-final-newline.txt: |-\n');
    expect(text).toContain('  many-final-newlines.txt: |+\n');
    // A carriage return does not survive a block scalar (line breaks are normalized): double-quoted, escaped.
    expect(text).toContain('  crlf.txt: "windows\\r\\nline\\r\\n"\n');
    // Keys that a parser could read as something else are quoted.
    expect(text).toContain('  "true": "yes"\n');
    expect(text).toContain('  "1.5": "null"\n');
  });

  it('keeps any text byte for byte', () => {
    const tricky = fc.constantFrom('\n', ' ', '  ', '\t', '\r', '#', ': ', '- ', '"', "'", '\\', '|', '>', '---', '...', '%', '\u0085', '\u2028', '\ufeff', '\u0000', '\u001b', 'é', '😀', '\ud800');
    const text = fc.string({ unit: fc.oneof(tricky, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 40 });
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[-._a-zA-Z0-9]{1,12}$/).filter((k) => k !== '.' && !k.startsWith('..')), text, { minKeys: 1, maxKeys: 4 }), (files) => {
        const script = Object.keys(files)[0] ?? '';
        const [configMap] = parse(operatorManifest({ name: 'prop', parallelism: 2, files, script }));
        expect(configMap?.data).toEqual(files);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a name that Kubernetes would refuse, or that could break out of the YAML', () => {
    const refused = (o: Partial<OperatorManifestOptions>): string => {
      try {
        operatorManifest({ ...BASE, ...o });
      } catch (error) {
        expect(error).toBeInstanceOf(OperatorManifestError);
        return (error as Error).message;
      }
      throw new Error(`accepted ${JSON.stringify(o)}`);
    };
    for (const name of ['x\nkind: Secret', 'name"quote', 'Upper', 'under_score', '-lead', 'trail-', '1digit', 'a.b', '']) {
      expect(refused({ name })).toMatch(/^name .* cannot name a TestRun: use lower case letters, digits and "-"/);
    }
    // The longest name leaves room for "-initializer" (and "-service-<n>").
    expect(() => operatorManifest({ ...BASE, name: 'a'.repeat(51) })).not.toThrow();
    expect(refused({ name: 'a'.repeat(52) })).toContain('at most 51 characters');
    expect(refused({ namespace: 'kube system' })).toBe('namespace "kube system" is not a Kubernetes namespace name (lower case letters, digits and "-", at most 63 characters)');
    expect(refused({ summaryClaim: 'claim\n- x' })).toBe('summaryClaim "claim\\n- x" is not a PersistentVolumeClaim name (lower case letters, digits, "-" and ".")');
    for (const file of ['../etc/passwd', 'a/b', '..data', '.', 'with space', 'ünï.js', 'x\ny']) {
      expect(refused({ files: { ...FILES, [file]: 'x' } })).toBe(`file name ${JSON.stringify(file)} cannot be a ConfigMap key: use letters, digits, "-", "_" and "." only (not "." or "..", nor a leading ".."), at most 253 characters`);
    }
    expect(refused({ script: 'missing.js', files: { 'a.js': '' } })).toBe('the script "missing.js" is not among the files ("a.js")');
    expect(refused({ parallelism: 0 })).toBe('parallelism must be a whole number from 1 to 10000; got 0');
    expect(refused({ parallelism: 1.5 })).toBe('parallelism must be a whole number from 1 to 10000; got 1.5');
    expect(refused({ files: { 's.js': 'x'.repeat(CONFIGMAP_MAX_BYTES) } , script: 's.js' })).toBe(
      `the files come to ${CONFIGMAP_MAX_BYTES + 4} bytes; a ConfigMap holds at most ${CONFIGMAP_MAX_BYTES} (1 MiB): use a smaller corpus, or serve the files from a volume claim`,
    );
  });
});
