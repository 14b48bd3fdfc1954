/** `chainrpc methods`: what its help and summary promise (params, result, error codes) is what it prints. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../commandList.js';
import { schemaCatalog } from '../../core/schema/schemaCatalog.js';
import { methods } from './methods.js';

async function printed(argv: string[]): Promise<string> {
  let out = '';
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void (out += `${args.join(' ')}\n`));
  await methods.run(argv);
  return out;
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** Every error of the reference profile by name, with its code (schemas/errors.schema.json). */
const codes = new Map(Object.entries((schemaCatalog().errors.definitions ?? {}) as Record<string, { 'x-code'?: number }>).flatMap(([name, d]) => (d['x-code'] === undefined ? [] : [[name, d['x-code']] as const])));

describe('chainrpc methods', () => {
  it('promises error codes, and shows each error as its code and name', async () => {
    expect(COMMANDS.find((c) => 'methods' === c.name)?.summary).toContain('error codes');
    expect(methods.help).toContain('code and name');
    const lines = (await printed([])).split('\n').filter((l) => l.trim().startsWith('errors:'));
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) {
      for (const error of line.trim().slice('errors: '.length).split(', ')) {
        const [code, name] = error.split(' ');
        expect(codes.get(name ?? ''), `${error}: the code of ${name ?? ''}`).toBe(Number(code));
      }
    }
    expect(lines[0]).toContain('-32602 InvalidParams');
  });

  it('--json gives each error as {code, name}', async () => {
    const list = JSON.parse(await printed(['--json'])) as { method: string; errors: { code: number; name: string }[] }[];
    const account = list.find((m) => m.method === 'chain_getAccount');
    expect(account?.errors).toContainEqual({ code: -32602, name: 'InvalidParams' });
    for (const m of list) for (const e of m.errors) expect(codes.get(e.name)).toBe(e.code);
  });
});
