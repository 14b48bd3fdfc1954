import { mkdir, mkdtemp, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkReportRoot, publishReportFolder, runFolderName, writeReportFolder } from './reportFolder.js';

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

  it("writes a run beside a user's files in the report folder and keeps every one of them", async () => {
    await mkdir(join(base, 'sub'));
    await writeFile(join(base, 'thesis.txt'), 'four years of work\n');
    await writeFile(join(base, 'sub', 'y'), 'y\n');
    await publishReportFolder(base, '2026-11-23T12:00:00.000Z', files('first'), 'conformance');
    expect((await readdir(base)).sort()).toEqual(['2026-11-23T12-00-00-000Z', 'latest', 'latest-conformance', 'sub', 'thesis.txt']);
    expect(await readFile(join(base, 'thesis.txt'), 'utf8')).toBe('four years of work\n');
    expect(await readFile(join(base, 'sub', 'y'), 'utf8')).toBe('y\n');
  });

  it("refuses, writing nothing, a report folder whose latest is a user's file or folder (it would be replaced)", async () => {
    await writeFile(join(base, 'latest'), 'my notes\n');
    expect(() => checkReportRoot(base)).toThrow(`${base} holds latest, which is not chainrpc's link to the newest report and would be replaced`);
    await expect(publishReportFolder(base, '2026-11-23T12:00:00.000Z', files('first'), 'load')).rejects.toThrow(/holds latest,/);
    expect(await readdir(base)).toEqual(['latest']);
    expect(await readFile(join(base, 'latest'), 'utf8')).toBe('my notes\n');
    const other = join(base, 'other');
    await mkdir(join(other, 'latest-load'), { recursive: true });
    expect(() => checkReportRoot(other, 'conformance')).not.toThrow();
    expect(() => checkReportRoot(other, 'load')).toThrow(/holds latest-load\/,/);
    expect(() => checkReportRoot(join(base, 'latest'))).toThrow(/is not a folder/);
  });

  it("refuses a latest that is a user's own link (to anything but a run folder beside it), leaving it as it was", async () => {
    // An outside tester's link to a folder of their own, named latest, was replaced without a word.
    const mine = join(base, 'mine');
    await mkdir(mine);
    await symlink(mine, join(base, 'latest'));
    expect(() => checkReportRoot(base)).toThrow(`${base} holds latest (a link to ${mine}), which is not chainrpc's link to the newest report and would be replaced`);
    await expect(publishReportFolder(base, '2026-11-23T12:00:00.000Z', files('first'), 'load')).rejects.toThrow(/holds latest \(a link/);
    expect(await readlink(join(base, 'latest'))).toBe(mine);
    // chainrpc's own link moves on as before.
    const other = join(base, 'other');
    await publishReportFolder(other, '2026-11-23T12:00:00.000Z', files('first'), 'load');
    await publishReportFolder(other, '2026-11-23T12:05:00.000Z', files('second'), 'load');
    expect(await readlink(join(other, 'latest'))).toBe('2026-11-23T12-05-00-000Z');
  });

  it('keeps a link per kind: a run of one kind leaves the other kind\'s link where it was', async () => {
    await publishReportFolder(base, '2026-11-23T12:00:00.000Z', files('conformance'), 'conformance');
    await publishReportFolder(base, '2026-11-23T12:05:00.000Z', files('load'), 'load');
    expect(await readlink(join(base, 'latest'))).toBe('2026-11-23T12-05-00-000Z');
    expect(await readlink(join(base, 'latest-load'))).toBe('2026-11-23T12-05-00-000Z');
    expect(await readFile(join(base, 'latest-conformance', 'data.json'), 'utf8')).toBe('{"n":"conformance"}\n');
  });

  it('never writes into a run folder it did not make: a second run of the same millisecond gets a folder of its own', async () => {
    const first = await publishReportFolder(base, '2026-11-23T12:00:00.000Z', files('first'));
    const second = await publishReportFolder(base, '2026-11-23T12:00:00.000Z', files('second'));
    expect(second.dir).toBe(join(base, '2026-11-23T12-00-00-000Z-2'));
    expect(await readFile(join(first.dir, 'data.json'), 'utf8')).toBe('{"n":"first"}\n');
    expect(await readlink(join(base, 'latest'))).toBe('2026-11-23T12-00-00-000Z-2');
  });

  it('renders files that name their own folder once it is made (the second of a millisecond included), with the report folder as given', async () => {
    await publishReportFolder(base, '2026-11-23T12:00:00.000Z', files('first'));
    const seen: string[] = [];
    const written = await publishReportFolder(base, '2026-11-23T12:00:00.000Z', (folder) => {
      seen.push(folder);
      return files(join(folder, 'data.json'));
    });
    expect(seen).toEqual([join(base, '2026-11-23T12-00-00-000Z-2')]);
    expect(await readFile(join(written.dir, 'page.html'), 'utf8')).toBe(`<p>${join(written.dir, 'data.json')}</p>\n`);
  });

  it('removes the folder it made, and moves no link, when the files cannot be rendered', async () => {
    await publishReportFolder(base, '2026-11-23T12:00:00.000Z', files('first'), 'fuzz');
    const render = (): never => {
      throw new Error('renderer broke');
    };
    await expect(publishReportFolder(base, '2026-11-23T12:05:00.000Z', render, 'fuzz')).rejects.toThrow('renderer broke');
    expect((await readdir(base)).sort()).toEqual(['2026-11-23T12-00-00-000Z', 'latest', 'latest-fuzz']);
    expect(await readlink(join(base, 'latest-fuzz'))).toBe('2026-11-23T12-00-00-000Z');
  });
});
