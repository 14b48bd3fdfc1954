import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root, found by walking up from this file to chainrpc's package.json. The same
 * code runs from the TypeScript sources (tests, scripts) and from the compiled dist/ folder,
 * which sit at different depths, so a fixed relative path would be wrong in one of them.
 */
function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
      if (pkg.name === 'chainrpc') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('chainrpc: cannot find the package root (package.json named "chainrpc") above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const packageRoot: string = findPackageRoot();
export const schemasDir: string = join(packageRoot, 'schemas');
