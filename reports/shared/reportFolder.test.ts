import { mkdtemp, readFile, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { publishReportFolder, runFolderName, writeReportFolder } from './reportFolder.js';

const files = (text: string) => ({ data: { name: 'data.json', text: `{"n":"${text}"}\n` }, page: { name: 'page.html', text: `<p>${text}</p>\n` } }) as const;

describe('report folders', () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'chainrpc-folder-'));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('names a run folder after its start time, in characters every file system takes', () => {
    expect(runFolderName('2026-11-23T12:33:13.004Z')).toBe('2026-11-23T12-33-13-004Z');
  });

  it('writes each file of a kind under its own name, and nothing else', async () => {
    const written = await writeReportFolder(join(base, 'a', 'b'), files('one'));
    expect(written).toEqual({ dir: join(base, 'a', 'b'), files: { data: join(base, 'a', 'b', 'data.json'), page: join(base, 'a', 'b', 'page.html') } });
    expect(await readFile(written.files.page, 'utf8')).toBe('<p>one</p>\n');
    expect((await readdir(written.dir)).sort()).toEqual(['data.json', 'page.html']);
  });

  it('puts each run in a folder of its own and points latest at the newest', async () => {
    const first = await publishReportFolder(base, '2026-11-23T12:00:00.000Z', files('first'));
    expect(first.dir).toBe(join(base, '2026-11-23T12-00-00-000Z'));
    expect(await readlink(join(base, 'latest'))).toBe('2026-11-23T12-00-00-000Z');
    await publishReportFolder(base, '2026-11-23T12:05:00.000Z', files('second'));
    expect(await readlink(join(base, 'latest'))).toBe('2026-11-23T12-05-00-000Z');
    expect(await readFile(join(base, 'latest', 'data.json'), 'utf8')).toBe('{"n":"second"}\n');
    // The earlier run stays where it was.
    expect(await readFile(join(first.dir, 'data.json'), 'utf8')).toBe('{"n":"first"}\n');
    expect((await readdir(base)).sort()).toEqual(['2026-11-23T12-00-00-000Z', '2026-11-23T12-05-00-000Z', 'latest']);
  });
});
