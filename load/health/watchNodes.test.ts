import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { renderWatchReports, watchReport } from '../../reports/watch/writeWatchReports.js';
import { watchNodes, type WatchSnapshot } from './watchNodes.js';

// Both ship CommonJS with `exports.default`; under NodeNext the default import is the module object.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r())))));

/** A node whose heights rise every 100 ms; `flaps`: every fifth answer one height lower (behind a balancer). */
async function node(t0: number, flaps: boolean): Promise<string> {
  let calls = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls++;
      const height = 50 + Math.floor((Date.now() - t0) / 100) - (flaps && calls % 5 === 0 ? 1 : 0);
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc":"2.0","id":1,"result":${height}}`);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('watchNodes: the health of nodes under no load', () => {
  it('follows each head and reads a process for its duration, live every tick, then the same NodeHealth a load run gives', async () => {
    const t0 = Date.now();
    const steady = await node(t0, false);
    const flapping = await node(t0, true);
    const ticks: WatchSnapshot[] = [];
    // This process stands for the first node's: /proc/<pid> is real.
    const result = await watchNodes({ urls: [steady, flapping], profile: referenceProfile(), headIntervalMs: 20, pids: [process.pid], durationMs: 1_500, tickMs: 250, onTick: (s) => ticks.push(s) });
    expect(result.stop).toBe('duration');
    expect(result.durationMs).toBeGreaterThanOrEqual(1_500);
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(ticks.at(-1)?.nodes[0]?.height).toBeGreaterThan(50);
    expect(ticks.at(-1)?.nodes[0]?.rssBytes).toBeGreaterThan(0);
    const [a, b] = result.nodes;
    expect(a?.health.head?.regressionCount).toBe(0);
    expect(b?.health.head?.regressionCount).toBeGreaterThan(0);
    expect(a?.health.head?.blocks).toBeGreaterThanOrEqual(10);
    expect(a?.health.resources?.cpuSeconds).not.toBeNull();
    expect(a?.health.resources?.cpuPerCallUs).toBeNull();
    expect(b?.health.resources).toBeUndefined();
    // Its report validates against its schema (whose nodes' health is the load report's NodeHealth).
    const ajv = new Ajv({ strict: true, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(JSON.parse(readFileSync(new URL('../../reports/load/load-report.schema.json', import.meta.url), 'utf8')) as object);
    const validate = ajv.compile(JSON.parse(readFileSync(new URL('../../reports/watch/watch-report.schema.json', import.meta.url), 'utf8')) as object);
    const files = renderWatchReports(watchReport(result, { version: 'test', command: 'chainrpc watch' }));
    expect(validate(JSON.parse(files.json.text)), JSON.stringify(validate.errors)).toBe(true);
    expect(files.markdown.text).toContain('| Node | Head lag p50 / p90');
    expect(files.html.text).toContain('Head lag over time');
  });

  it('stops when told (Ctrl-C), with what it saw so far', async () => {
    const url = await node(Date.now(), false);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 400);
    const result = await watchNodes({ urls: [url], profile: referenceProfile(), headIntervalMs: 20, durationMs: null, signal: controller.signal });
    expect(result.stop).toBe('interrupted');
    expect(result.nodes[0]?.health.head?.samples).toBeGreaterThan(5);
    // One node, no reference: its lag and stalls are not measured, and the report says so (and stays valid).
    expect(result.nodes[0]?.health.head?.alone).toBe(true);
    expect(result.nodes[0]?.health.head?.lagMs).toBeNull();
    const ajv = new Ajv({ strict: true, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(JSON.parse(readFileSync(new URL('../../reports/load/load-report.schema.json', import.meta.url), 'utf8')) as object);
    const validate = ajv.compile(JSON.parse(readFileSync(new URL('../../reports/watch/watch-report.schema.json', import.meta.url), 'utf8')) as object);
    const files = renderWatchReports(watchReport(result, { version: 'test', command: 'chainrpc watch' }));
    expect(validate(JSON.parse(files.json.text)), JSON.stringify(validate.errors)).toBe(true);
    expect(files.markdown.text).toContain('head lag and stalls not measured (one node\'s head alone');
    expect(files.markdown.text).toContain('Head lag not measured: the head was followed alone');
  });
});
