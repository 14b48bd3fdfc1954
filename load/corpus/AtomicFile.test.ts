import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AtomicFile } from './AtomicFile.js';

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
});
