import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunResult } from '../../suites/model.js';
import { fixtureRun, fixtureTranscript } from '../../test/support/fixtureRun.js';
import { renderHtml } from './renderHtml.js';
import { renderJson } from './renderJson.js';
import { renderJunit } from './renderJunit.js';
import { renderMarkdown } from './renderMarkdown.js';
import { renderTranscript } from './renderTranscript.js';
import { writeReports } from './writeReports.js';

describe('writeReports', () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'chainrpc-reports-'));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('creates the folder and writes the five reports, returning absolute paths', async () => {
    const run = fixtureRun();
    const transcript = fixtureTranscript(run);
    const dir = join(base, 'nested', 'run-1');
    const written = await writeReports(run, transcript, relative(process.cwd(), dir));
    expect(written.dir).toBe(dir);
    expect(written.files).toEqual({
      json: join(dir, 'report.json'),
      junit: join(dir, 'junit.xml'),
      markdown: join(dir, 'summary.md'),
      html: join(dir, 'report.html'),
      transcript: join(dir, 'transcript.ndjson'),
    });
    expect(await readFile(written.files.json, 'utf8')).toBe(renderJson(run));
    expect(await readFile(written.files.junit, 'utf8')).toBe(renderJunit(run));
    expect(await readFile(written.files.markdown, 'utf8')).toBe(renderMarkdown(run));
    expect(await readFile(written.files.html, 'utf8')).toBe(renderHtml(run));
    expect(await readFile(written.files.transcript, 'utf8')).toBe(renderTranscript(transcript));
    // No temporary file is left behind.
    expect((await readdir(dir)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md', 'transcript.ndjson']);
  });

  it('replaces the reports of an earlier run in the same folder', async () => {
    await writeFile(join(base, 'report.json'), 'stale');
    const run = fixtureRun();
    await writeReports(run, [], base);
    expect(await readFile(join(base, 'report.json'), 'utf8')).toBe(renderJson(run));
    expect(await readFile(join(base, 'transcript.ndjson'), 'utf8')).toBe('');
  });

  it('leaves the folder untouched when a report cannot be rendered', async () => {
    await writeFile(join(base, 'report.json'), 'earlier');
    const broken = { ...fixtureRun(), summary: undefined } as unknown as RunResult;
    await expect(writeReports(broken, [], base)).rejects.toThrow();
    expect(await readdir(base)).toEqual(['report.json']);
    expect(await readFile(join(base, 'report.json'), 'utf8')).toBe('earlier');
  });

  it('fails with the file system error when the folder cannot be made', async () => {
    const file = join(base, 'a-file');
    await writeFile(file, '');
    await expect(writeReports(fixtureRun(), [], join(file, 'sub'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});
