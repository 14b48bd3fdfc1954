import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ProfileError } from '../loadProfile.js';
import type { TxCodec } from '../TxCodec.js';

/**
 * A transaction codec module, as a profile file's `codec` key names one (docs/profiles.md): an ES
 * module whose default export is a TxCodec. `path` is resolved against `base` (the working directory
 * for a command-line option). Throws ProfileError when it cannot be loaded or is not a codec.
 */
export async function loadCodecModule(path: string, base = process.cwd()): Promise<TxCodec> {
  const url = pathToFileURL(resolve(base, path)).href;
  let mod: { default?: unknown };
  try {
    mod = (await import(url)) as { default?: unknown };
  } catch (err) {
    throw new ProfileError(`cannot load codec module ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const codec = mod.default as Partial<TxCodec> | undefined;
  if (typeof codec !== 'object' || codec === null || typeof codec.sign !== 'function' || typeof codec.newKey !== 'function' || typeof codec.addressOf !== 'function') {
    throw new ProfileError(`codec module ${path} must export default { name, newKey(), addressOf(key), sign(key, tx) } (see profile/TxCodec.ts)`);
  }
  return codec as TxCodec;
}
