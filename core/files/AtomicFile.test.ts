import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AtomicFile, writeFileAtomically } from './AtomicFile.js';

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('AtomicFile', () => {
  it('shows the old file until commit, then the whole new one, and leaves no temporary file', () => {
    const path = join(dir, 'a.json');
    writeFileSync(path, 'old');
    const file = new AtomicFile(path);
    file.write('new ');
    expect(readFileSync(path, 'utf8')).toBe('old');
    file.write('text');
    file.commit();
    expect(readFileSync(path, 'utf8')).toBe('new text');
    expect(readdirSync(dir)).toEqual(['a.json']);
    expect(() => file.write('more')).toThrow(/after commit/);
  });
  it('abort leaves the old file as it was', () => {
    const path = join(dir, 'b.json');
    writeFileSync(path, 'kept');
    const file = new AtomicFile(path);
    file.write('half');
    file.abort();
    file.abort();
    expect(readFileSync(path, 'utf8')).toBe('kept');
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json']);
  });
  it('writes a whole file in one call, with the mode asked for, every byte of a large text down', () => {
    const path = join(dir, 'key');
    writeFileAtomically(path, 'secret\n', 0o600);
    expect(readFileSync(path, 'utf8')).toBe('secret\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // 24 MiB of multi-byte text: more than one write(2) may take.
    const big = 'é'.repeat(12 * 1024 * 1024);
    writeFileAtomically(join(dir, 'big'), big);
    expect(readFileSync(join(dir, 'big'), 'utf8')).toBe(big);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('leaves what was there and no temporary file when the file cannot be put in place', () => {
    // The target is a folder with a file in it: the temporary file is written, the rename refused.
    const target = join(dir, 'd');
    mkdirSync(target);
    writeFileSync(join(target, 'inside'), 'kept');
    expect(() => writeFileAtomically(target, 'text')).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readFileSync(join(target, 'inside'), 'utf8')).toBe('kept');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
