// The dependency rule of ARCHITECTURE.md is enforced by the linter (eslint.layers.js): a wrong-way
// import fails `npm run lint`. Each case lints one import, as it would sit in a file of that folder.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { layerRules } from '../eslint.layers.js';

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
    ['load/requests/Right.ts', "import { wireMethod } from '../../suites/profile/Profile.js';"],
    ['reference-node/node/Right.test.ts', "import { startTestNode } from '../../test/support/suites.js';"],
  ])('%s: %s is allowed', async (file, source) => {
    expect(await violations(file, source)).toEqual([]);
  });
});
