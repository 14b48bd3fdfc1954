import { mkdtemp, readFile, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoadReport } from '../../load/model.js';
import { publishReportFolder } from '../shared/reportFolder.js';
import { loadReportFixture } from '../../test/support/loadReportFixture.js';
import { renderLoadHtml } from './renderLoadHtml.js';
import { renderLoadJson } from './renderLoadJson.js';
import { renderLoadJunit } from './renderLoadJunit.js';
import { renderLoadMarkdown } from './renderLoadMarkdown.js';
import { writeLoadReports } from './writeLoadReports.js';

describe('writeLoadReports', () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'chainrpc-load-reports-'));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('writes the four reports into a load- folder of the report folder and points latest at it', async () => {
    const report = loadReportFixture('plain');
    const written = await writeLoadReports(report, { dir: base });
    const dir = join(base, 'load-2026-12-01T10-00-00-000Z');
    expect(written).toEqual({
      dir,
      files: { json: join(dir, 'report.json'), html: join(dir, 'report.html'), markdown: join(dir, 'summary.md'), junit: join(dir, 'junit.xml') },
    });
    expect(await readFile(written.files.json, 'utf8')).toBe(renderLoadJson(report));
    expect(await readFile(written.files.html, 'utf8')).toBe(renderLoadHtml(report));
    expect(await readFile(written.files.markdown, 'utf8')).toBe(renderLoadMarkdown(report));
    expect(await readFile(written.files.junit, 'utf8')).toBe(renderLoadJunit(report));
    expect((await readdir(dir)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    expect(await readlink(join(base, 'latest'))).toBe('load-2026-12-01T10-00-00-000Z');
    expect(JSON.parse(await readFile(join(base, 'latest', 'report.json'), 'utf8'))).toMatchObject({ format: 'chainrpc-load/2' });
  });

  it('sits beside conformance runs in the same report folder: latest follows the newest run of either kind, latest-<kind> the newest of its kind', async () => {
    await publishReportFolder(base, '2026-12-01T09:00:00.000Z', { json: { name: 'report.json', text: '{"format":"chainrpc-report/3"}' } }, 'conformance');
    await writeLoadReports(loadReportFixture('plain'), { dir: base });
    expect((await readdir(base)).sort()).toEqual(['2026-12-01T09-00-00-000Z', 'latest', 'latest-conformance', 'latest-load', 'load-2026-12-01T10-00-00-000Z']);
    expect(await readlink(join(base, 'latest'))).toBe('load-2026-12-01T10-00-00-000Z');
    expect(await readlink(join(base, 'latest-load'))).toBe('load-2026-12-01T10-00-00-000Z');
    // A load run leaves the conformance run's own link where it was (chainrpc replay reads it).
    expect(await readlink(join(base, 'latest-conformance'))).toBe('2026-12-01T09-00-00-000Z');
  });

  it('writes nothing when a report cannot be rendered', async () => {
    const broken = { ...loadReportFixture('plain'), verdict: undefined } as unknown as LoadReport;
    await expect(writeLoadReports(broken, { dir: base })).rejects.toThrow();
    expect(await readdir(base)).toEqual([]);
  });
});
