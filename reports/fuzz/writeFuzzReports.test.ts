/**
 * writeFuzzReports: the four reports in a fuzz- folder of the report folder, `latest` and `latest-fuzz` moved
 * to it (and no other kind's link), the replay commands naming that folder's report.json, nothing written
 * when a report cannot be rendered.
 */
import { mkdtemp, readFile, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FuzzRun } from '../../fuzz/model.js';
import { publishReportFolder } from '../shared/reportFolder.js';
import { fuzzRunFixture } from '../../test/support/fuzzRunFixture.js';
import { renderFuzzHtml } from './renderFuzzHtml.js';
import { renderFuzzJson } from './renderFuzzJson.js';
import { renderFuzzJunit } from './renderFuzzJunit.js';
import { renderFuzzMarkdown } from './renderFuzzMarkdown.js';
import { writeFuzzReports } from './writeFuzzReports.js';

const FOLDER = 'fuzz-2026-12-01T10-00-00-000Z';

describe('writeFuzzReports', () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'chainrpc-fuzz-reports-'));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('writes the four reports into a fuzz- folder and points latest and latest-fuzz at it', async () => {
    const run = fuzzRunFixture('findings');
    const written = await writeFuzzReports(run, { dir: base, command: 'chainrpc fuzz --url http://127.0.0.1:8545' });
    const dir = join(base, FOLDER);
    expect(written).toEqual({
      dir,
      files: { json: join(dir, 'report.json'), html: join(dir, 'report.html'), markdown: join(dir, 'summary.md'), junit: join(dir, 'junit.xml') },
    });
    const options = { reportPath: join(base, FOLDER, 'report.json'), command: 'chainrpc fuzz --url http://127.0.0.1:8545' };
    expect(await readFile(written.files.json, 'utf8')).toBe(renderFuzzJson(run));
    expect(await readFile(written.files.html, 'utf8')).toBe(renderFuzzHtml(run, options));
    expect(await readFile(written.files.markdown, 'utf8')).toBe(renderFuzzMarkdown(run, options));
    expect(await readFile(written.files.junit, 'utf8')).toBe(renderFuzzJunit(run, options));
    expect((await readdir(dir)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    expect(await readlink(join(base, 'latest'))).toBe(FOLDER);
    expect(await readlink(join(base, 'latest-fuzz'))).toBe(FOLDER);
    expect(JSON.parse(await readFile(join(base, 'latest-fuzz', 'report.json'), 'utf8'))).toMatchObject({ format: 'chainrpc-fuzz/1' });
  });

  it('names, in each replay command, the report.json of the folder it wrote (a second run of the same millisecond included)', async () => {
    await writeFuzzReports(fuzzRunFixture('findings'), { dir: base });
    const second = await writeFuzzReports(fuzzRunFixture('findings'), { dir: base });
    expect(second.dir).toBe(join(base, `${FOLDER}-2`));
    expect(await readFile(second.files.markdown, 'utf8')).toContain(`chainrpc fuzz --replay ${join(base, `${FOLDER}-2`, 'report.json')} F1\n`);
  });

  it('passes the run\'s profile file in every replay command the reports print (not only the console\'s)', async () => {
    const profileFile = '/home/me/net/detected profile.json';
    const run: FuzzRun = { ...fuzzRunFixture('findings'), options: { ...fuzzRunFixture('findings').options, profile: 'small-batches', profileFile } };
    const written = await writeFuzzReports(run, { dir: base });
    const replay = `chainrpc fuzz --replay ${join(base, FOLDER, 'report.json')} F1 --profile '${profileFile}'`;
    expect(written.profileFile).toBe(profileFile);
    expect(JSON.parse(await readFile(written.files.json, 'utf8'))).toMatchObject({ options: { profile: 'small-batches', profileFile } });
    expect(await readFile(written.files.markdown, 'utf8')).toContain(`${replay}\n`);
    expect(await readFile(written.files.junit, 'utf8')).toContain(`replay: ${replay}`);
    expect(await readFile(written.files.html, 'utf8')).toContain(`>${replay.replace(/'/g, '&#39;')}</pre>`);
    for (const file of [written.files.markdown, written.files.html, written.files.junit]) expect(await readFile(file, 'utf8'), file).not.toMatch(/--replay \S+ F\d+(?! --profile)/);
  });

  it('keeps a detected profile beside the reports as profile.json, which report.json names and the replay commands pass', async () => {
    const detected = { name: 'detected at http://127.0.0.1:8545', maxBatch: 8 };
    const written = await writeFuzzReports(fuzzRunFixture('findings'), { dir: base, detectedProfile: detected });
    const file = join(base, FOLDER, 'profile.json');
    expect(written.profileFile).toBe(file);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(detected);
    expect(JSON.parse(await readFile(written.files.json, 'utf8'))).toMatchObject({ options: { profileFile: file } });
    expect(await readFile(written.files.markdown, 'utf8')).toContain(`chainrpc fuzz --replay ${join(base, FOLDER, 'report.json')} F1 --profile ${file}\n`);
  });

  it('sits beside conformance and load runs: latest-fuzz moves, the other kinds\' links stay', async () => {
    await publishReportFolder(base, '2026-12-01T09:00:00.000Z', { json: { name: 'report.json', text: '{"format":"chainrpc-report/3"}' } }, 'conformance');
    await publishReportFolder(base, 'load-2026-12-01T09:30:00.000Z', { json: { name: 'report.json', text: '{"format":"chainrpc-load/2"}' } }, 'load');
    await writeFuzzReports(fuzzRunFixture('clean'), { dir: base });
    expect((await readdir(base)).sort()).toEqual(['2026-12-01T09-00-00-000Z', FOLDER, 'latest', 'latest-conformance', 'latest-fuzz', 'latest-load', 'load-2026-12-01T09-30-00-000Z']);
    expect(await readlink(join(base, 'latest'))).toBe(FOLDER);
    expect(await readlink(join(base, 'latest-conformance'))).toBe('2026-12-01T09-00-00-000Z');
    expect(await readlink(join(base, 'latest-load'))).toBe('load-2026-12-01T09-30-00-000Z');
  });

  it('writes nothing when a report cannot be rendered', async () => {
    const broken = { ...fuzzRunFixture('findings'), findings: undefined } as unknown as FuzzRun;
    await expect(writeFuzzReports(broken, { dir: base })).rejects.toThrow();
    expect(await readdir(base)).toEqual([]);
  });
});
