import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimFile, claimFolder, cleanFolder, folderMarker, NotOursError, OWNED_FORMAT, OWNED_MARKER, removeFolder } from './ownedFolder.js';
import type { FolderRules } from './ownedFolder.js';

let base = '';
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'chainrpc-owned-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** A user's folder: thesis.txt and sub/y. */
function usersFolder(name = 'user'): string {
  const dir = join(base, name);
  mkdirSync(join(dir, 'sub'), { recursive: true });
  writeFileSync(join(dir, 'thesis.txt'), 'four years of work\n');
  writeFileSync(join(dir, 'sub', 'y'), 'y\n');
  return dir;
}

const intact = (dir: string): void => {
  expect(readFileSync(join(dir, 'thesis.txt'), 'utf8')).toBe('four years of work\n');
  expect(readFileSync(join(dir, 'sub', 'y'), 'utf8')).toBe('y\n');
};

/** A tool that makes `out.json` and `parts/` in its folder. */
const RULES: FolderRules = {
  madeBy: 'chainrpc test-tool',
  entry: (path, kind) => (path === 'out.json' && kind === 'file') || (path === 'parts' && kind === 'folder'),
  recognise: (dir) => existsSync(join(dir, 'out.json')),
  advice: 'give --out a new or empty folder',
};

const refusal = (run: () => unknown): NotOursError => {
  try {
    run();
  } catch (err) {
    if (err instanceof NotOursError) return err;
    throw err;
  }
  throw new Error('not refused');
};

describe('claimFolder', () => {
  it('makes a missing folder (parents too) and marks it with what made it', () => {
    const dir = join(base, 'a', 'b');
    expect(claimFolder(dir, RULES)).toBe('made');
    expect(folderMarker(dir)).toBe('chainrpc test-tool');
    expect(JSON.parse(readFileSync(join(dir, OWNED_MARKER), 'utf8'))).toMatchObject({ format: OWNED_FORMAT, madeBy: 'chainrpc test-tool' });
    expect(claimFolder(dir, RULES)).toBe('marked');
  });

  it('marks an empty folder, and one it recognises as made before markers', () => {
    mkdirSync(join(base, 'empty'));
    expect(claimFolder(join(base, 'empty'), RULES)).toBe('empty');
    mkdirSync(join(base, 'old'));
    writeFileSync(join(base, 'old', 'out.json'), '{}');
    expect(claimFolder(join(base, 'old'), RULES)).toBe('recognised');
    expect(folderMarker(join(base, 'old'))).toBe('chainrpc test-tool');
  });

  it("refuses a user's folder, naming it and what it holds, and writes nothing into it", () => {
    const dir = usersFolder();
    const err = refusal(() => claimFolder(dir, RULES));
    expect(err.path).toBe(dir);
    expect(err.message).toBe(`${dir} is not empty and was not made by chainrpc test-tool (it holds sub/, thesis.txt); give --out a new or empty folder`);
    expect(readdirSync(dir).sort()).toEqual(['sub', 'thesis.txt']);
    intact(dir);
  });

  it('refuses a file, and a link to nothing; takes a link to a folder as that folder', () => {
    writeFileSync(join(base, 'file'), 'x');
    expect(refusal(() => claimFolder(join(base, 'file'), RULES)).message).toContain('is not a folder');
    symlinkSync(join(base, 'nowhere'), join(base, 'dangling'));
    expect(refusal(() => claimFolder(join(base, 'dangling'), RULES)).message).toContain('is a link to nothing');
    mkdirSync(join(base, 'target'));
    symlinkSync(join(base, 'target'), join(base, 'link'));
    expect(claimFolder(join(base, 'link'), RULES)).toBe('empty');
    expect(existsSync(join(base, 'target', OWNED_MARKER))).toBe(true);
  });

  it('is not fooled by a marker that is a link, or a file of another format', () => {
    const dir = usersFolder();
    writeFileSync(join(base, 'fake'), JSON.stringify({ format: OWNED_FORMAT, madeBy: 'chainrpc test-tool' }));
    symlinkSync(join(base, 'fake'), join(dir, OWNED_MARKER));
    expect(folderMarker(dir)).toBeUndefined();
    expect(() => claimFolder(dir, RULES)).toThrow(NotOursError);
    const other = usersFolder('other');
    writeFileSync(join(other, OWNED_MARKER), '{"format":"something-else/1","madeBy":"x"}');
    expect(() => claimFolder(other, RULES)).toThrow(NotOursError);
    intact(dir);
    intact(other);
  });
});

describe('cleanFolder', () => {
  it('empties a folder it made of what it put there, and keeps it marked', () => {
    const dir = join(base, 'made');
    claimFolder(dir, RULES);
    writeFileSync(join(dir, 'out.json'), '{}');
    mkdirSync(join(dir, 'parts', 'deep'), { recursive: true });
    writeFileSync(join(dir, 'parts', 'deep', 'p'), 'p');
    expect(cleanFolder(dir, RULES)).toBe('marked');
    expect(readdirSync(dir)).toEqual([OWNED_MARKER]);
  });

  it('refuses, removing nothing, a folder it made that has come to hold a file of the user\'s', () => {
    const dir = join(base, 'made');
    claimFolder(dir, RULES);
    writeFileSync(join(dir, 'out.json'), '{}');
    writeFileSync(join(dir, 'thesis.txt'), 'four years of work\n');
    const err = refusal(() => cleanFolder(dir, RULES));
    expect(err.message).toBe(`${dir} holds what chainrpc test-tool did not make (thesis.txt), so it will not empty it; give --out a new or empty folder`);
    expect(readdirSync(dir).sort()).toEqual([OWNED_MARKER, 'out.json', 'thesis.txt']);
  });

  it("refuses a user's folder, and a recognised one holding anything else, without marking it", () => {
    const dir = usersFolder();
    expect(() => cleanFolder(dir, RULES)).toThrow(NotOursError);
    writeFileSync(join(dir, 'out.json'), '{}');
    expect(() => cleanFolder(dir, RULES)).toThrow(/holds what chainrpc test-tool did not make \(sub\/, thesis\.txt\)/);
    expect(existsSync(join(dir, OWNED_MARKER))).toBe(false);
    intact(dir);
  });

  it('never follows a link: a link inside is not its own, and without entry rules only the link goes', () => {
    const user = usersFolder();
    const dir = join(base, 'made');
    claimFolder(dir, RULES);
    symlinkSync(user, join(dir, 'parts'));
    expect(() => cleanFolder(dir, RULES)).toThrow(/\(parts\)/);
    const loose: FolderRules = { madeBy: 'chainrpc test-tool' };
    expect(cleanFolder(dir, loose)).toBe('marked');
    expect(readdirSync(dir)).toEqual([OWNED_MARKER]);
    intact(user);
  });
});

describe('removeFolder', () => {
  it('removes only a marked folder of its own files; a missing one is nothing to do', () => {
    expect(removeFolder(join(base, 'missing'), RULES)).toBe(false);
    const dir = join(base, 'made');
    claimFolder(dir, RULES);
    writeFileSync(join(dir, 'out.json'), '{}');
    expect(removeFolder(dir, RULES)).toBe(true);
    expect(existsSync(dir)).toBe(false);
    const user = usersFolder();
    expect(refusal(() => removeFolder(user, RULES)).message).toBe(`${user} was not made by chainrpc test-tool, so it will not remove it; give --out a new or empty folder`);
    intact(user);
  });
});

describe('claimFile', () => {
  const isOurs = (path: string): boolean => readFileSync(path, 'utf8').startsWith('{"ours"');

  it('takes a missing file or one chainrpc wrote; refuses a user\'s file, a folder and a link, naming them', () => {
    const user = usersFolder();
    expect(() => claimFile(join(user, 'new.json'), 'a corpus', isOurs)).not.toThrow();
    writeFileSync(join(user, 'ours.json'), '{"ours":1}');
    expect(() => claimFile(join(user, 'ours.json'), 'a corpus', isOurs)).not.toThrow();
    expect(refusal(() => claimFile(join(user, 'thesis.txt'), 'a corpus', isOurs, 'give --out a new file')).message).toBe(
      `${join(user, 'thesis.txt')} is a file chainrpc did not write, so chainrpc will not replace it with a corpus; give --out a new file`,
    );
    expect(refusal(() => claimFile(join(user, 'sub'), 'a corpus', isOurs)).message).toContain('is a folder');
    symlinkSync(join(user, 'ours.json'), join(user, 'link.json'));
    expect(refusal(() => claimFile(join(user, 'link.json'), 'a corpus', isOurs)).message).toContain('is a link');
    intact(user);
  });
});
