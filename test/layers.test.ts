// The dependency rule of ARCHITECTURE.md is enforced by the linter (eslint.layers.js): a wrong-way
// import fails `npm run lint`. Each case lints one import, as it would sit in a file of that folder.
// The linter reads static imports only, so each dynamic `import('…')` of product code is judged here by
// the same rule: linted as the static import it would be, in its own file.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { LAYERS, layerRules } from '../eslint.layers.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  // The layer blocks alone, on the TypeScript parser: no type information is needed for an import.
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...layerRules()],
});

/** The messages of no-restricted-imports for `source` placed at `file`. */
async function violations(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: `${ROOT}${file}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

/** The relative paths a text imports dynamically by a literal: `import('../x.js')`. */
function dynamicImports(text: string): string[] {
  return [...text.matchAll(/\bimport\(\s*(['"`])(\.{1,2}\/[^'"`$]+)\1\s*\)/g)].map((m) => m[2] ?? '');
}

/** Each dynamic import of `text` at `file` that the rule refuses, with the rule's message. */
async function dynamicViolations(file: string, text: string): Promise<string[]> {
  const found: string[] = [];
  for (const path of dynamicImports(text)) {
    for (const message of await violations(file, `import '${path}';`)) found.push(`${file}: import('${path}'): ${message}`);
  }
  return found;
}

/** The product's .ts files (tests aside) in the folders the layer table rules. */
function productFiles(): string[] {
  const folders = [...new Set(LAYERS.map(([files]) => files.split('/')[0] ?? ''))];
  return folders.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => `${folder}/${f.split('\\').join('/')}`),
  );
}

describe('the dependency rule (eslint.layers.js)', () => {
  it.each([
    ['reference-node/node/Wrong.ts', "import { withFaults } from '../faults/applyFaults.js';", /knows no fault/],
    ['reference-node/rpc/Wrong.ts', "import { Chain } from '../chain/index.js';", /any method table/],
    ['reference-node/chain/Wrong.ts', "import type { NodeContext } from '../methods/NodeContext.js';", /nothing of the network/],
    ['reference-node/store/Wrong.ts', "import type { Block } from '../chain/types.js';", /generic key-value store/],
    ['reference-node/methods/Wrong.ts', "import { ReferenceNode } from '../node/ReferenceNode.js';", /below the node/],
    ['suites/checks/Wrong.ts', "import { ReferenceNode } from '../../reference-node/node/ReferenceNode.js';", /never imports the reference node/],
    ['core/json/Wrong.ts', "import { runSuite } from '../../suites/runner/runSuite.js';", /bottom layer/],
    ['reports/Wrong.ts', "import { startTestNode } from '../test/support/suites.js';", /test helpers/],
    ['suites/checks/Wrong.ts', "import Ajv from 'ajv';", /core\/schema/],
    ['reports/Wrong.ts', "import { request } from 'undici';", /core\/client/],
    ['load/engine/Wrong.ts', "import { writeLoadReports } from '../../reports/load/writeLoadReports.js';", /hands their results to reports/],
    ['load/engine/Wrong.ts', "import * as hdr from 'hdr-histogram-js';", /load\/metrics/],
    ['load/corpus/Wrong.ts', "import { readAccount } from '../../suites/Wallet.js';", /never from suites/],
    ['load/Wrong.ts', "import { runSuite } from '../suites/runner/runSuite.js';", /never from suites/],
    ['fuzz/run/Wrong.ts', "import { runSuite } from '../../suites/runner/runSuite.js';", /nothing from the suite or load/],
    ['fuzz/cases/Wrong.ts', "import { drawParams } from '../../load/requests/drawParams.js';", /nothing from the suite or load/],
    ['fuzz/Wrong.ts', "import { startTestNode } from '../reference-node/node/ReferenceNode.js';", /the fuzzer drives nodes from outside/],
    ['load/Wrong.ts', "import { runFuzz } from '../fuzz/run/runFuzz.js';", /never from suites/],
    ['profile/Wrong.ts', "import { NODE_DEFAULTS } from '../reference-node/node/nodeDefaults.js';", /imports core\/ only/],
    ['profile/detect/Wrong.ts', "import type { CheckContext } from '../../suites/CheckContext.js';", /imports core\/ only/],
    ['profile/detect/Wrong.ts', "import { mergeRuns } from '../../load/mergeRuns.js';", /imports core\/ only/],
    ['reference-node/node/Wrong.ts', "import { referenceProfile } from '../../profile/referenceProfile.js';", /nor on the profile/],
    ['core/json/Wrong.ts', "import type { Profile } from '../../profile/Profile.js';", /bottom layer/],
  ])('%s: %s is refused', async (file, source, message) => {
    const found = await violations(file, source);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });

  it.each([
    ['reference-node/faults/Right.ts', "import type { NodeVariant } from '../node/NodeVariant.js';"],
    ['reference-node/node/Right.ts', "import { createMethodTable } from '../methods/createMethodTable.js';"],
    ['suites/checks/Right.ts', "import { parseJson } from '../../core/json/index.js';"],
    ['cli/commands/Right.ts', "import { withFaults } from '../../reference-node/faults/applyFaults.js';"],
    ['core/schema/Right.ts', "import Ajv from 'ajv';"],
    ['reports/load/Right.ts', "import type { LoadReport } from '../../load/model.js';"],
    ['load/metrics/Right.ts', "import * as hdr from 'hdr-histogram-js';"],
    ['load/requests/Right.ts', "import { wireMethod } from '../../profile/Profile.js';"],
    ['load/inclusion/Right.ts', "import { readField } from '../../profile/readWire.js';"],
    ['fuzz/oracles/Right.ts', "import { profileValidators } from '../../profile/profileSchemas.js';"],
    ['reports/fuzz/Right.ts', "import type { FuzzRun } from '../../fuzz/model.js';"],
    ['suites/checks/Right.ts', "import { errorCode } from '../../profile/Profile.js';"],
    ['reports/conformance/Right.ts', "import type { Profile } from '../../profile/Profile.js';"],
    ['cli/commands/Right.ts', "import { detectProfile } from '../../profile/detect/detectProfile.js';"],
    ['profile/detect/Right.ts', "import { parseJson } from '../../core/json/index.js';"],
    ['profile/detect/Right.ts', "import { referenceProfile } from '../referenceProfile.js';"],
    ['profile/Right.ts', "import { REFERENCE_SETTINGS } from '../core/referenceSettings.js';"],
    ['reference-node/node/Right.test.ts', "import { startTestNode } from '../../test/support/suites.js';"],
  ])('%s: %s is allowed', async (file, source) => {
    expect(await violations(file, source)).toEqual([]);
  });

  it('judges a dynamic import by the same rule: one across a forbidden line is refused', async () => {
    const text = "const m = await import('../../suites/catalogue.js');\nconst n = await import(`../metrics/Histogram.js`);";
    expect(dynamicImports(text)).toEqual(['../../suites/catalogue.js', '../metrics/Histogram.js']);
    const found = await dynamicViolations('load/corpus/Wrong.ts', text);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/import\('\.\.\/\.\.\/suites\/.*never from suites/);
  });

  it('no dynamic import of product code crosses a forbidden line (the linter reads static imports only)', async () => {
    const files = productFiles();
    expect(files).toContain('load/corpus/signLanes.ts');
    const texts = files.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')] as const);
    // The scan sees the dynamic imports there are (a broken scan would pass on nothing).
    expect(dynamicImports(texts.find(([f]) => f === 'load/corpus/signLanes.ts')?.[1] ?? '')).toEqual(['../../profile/detect/loadCodecModule.js']);
    const found = (await Promise.all(texts.map(([file, text]) => dynamicViolations(file, text)))).flat();
    expect(found).toEqual([]);
  });
});
