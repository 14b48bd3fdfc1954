// Types of eslint.layers.js (the ESLint config is plain JavaScript; the layers test imports it).
import type { Linter } from 'eslint';

/** [files, forbidden folders, why] for each folder with a dependency rule. */
export const LAYERS: readonly (readonly [string, readonly string[], string])[];

/** One ESLint config block per folder of LAYERS. */
export function layerRules(): Linter.Config[];
