/**
 * A module of the build (`dist/`, which the benchmark's npm script makes first), for benchmarks that time the
 * code users run: the sources through tsx carry its transform, which wraps every function made in a hot path
 * with a naming helper (measured on the fuzzer: 15% more CPU per case). Typed by the source module it was built from.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../core/paths.js';

export const fromBuild = async <T>(file: string): Promise<T> => (await import(pathToFileURL(join(packageRoot, 'dist', file)).href)) as T;
