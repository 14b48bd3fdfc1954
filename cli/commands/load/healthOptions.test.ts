import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../../CliError.js';
import { parseThreshold } from '../../../load/scenario/Threshold.js';
import { HEALTH_OPTIONS, listensOn, metricNamesOf, metricsUrlsOf, pidNotes, pidsOf, startedByChainrpc } from './healthOptions.js';
import { headThresholds } from './measure.js';

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('--pid and --url', () => {
  it('says which URL each pid is read as, and warns when the process does not listen on that URL\'s port', () => {
    // This process listens on `port`; a port nothing here listens on is another node's.
    expect(listensOn(process.pid, port)).toBe(true);
    expect(pidNotes('load', [`http://127.0.0.1:${port}`], [process.pid])).toEqual([`load: --pid ${process.pid} is read as the process of http://127.0.0.1:${port} (--pid pairs with --url by position)`]);
    const swapped = pidNotes('load', ['http://127.0.0.1:9', `http://127.0.0.1:${port}`], [process.pid]);
    expect(swapped).toHaveLength(2);
    expect(swapped[1]).toBe(`load: warning: process ${process.pid} does not listen on port 9 of http://127.0.0.1:9: is it that node's process? (give --pid in the order of --url)`);
    // A process whose sockets cannot be read is not proven wrong.
    expect(listensOn(2_147_483_646, port)).toBeUndefined();
  });
});

describe('--pid and --metrics-url by position, - for none', () => {
  const urls = ['http://127.0.0.1:18001', 'http://127.0.0.1:18002'];
  const pid = String(process.pid);

  it('reads one node by its pid and the next by its page (the outside tester\'s: --pid $A --metrics-url http://B/metrics paired the page with A)', () => {
    // Without a way to skip a position, the page paired with the first --url, which had the pid: exit 2.
    expect(() => metricsUrlsOf('watch', ['http://127.0.0.1:18002/metrics'], [pid], urls)).toThrow(`watch: http://127.0.0.1:18001 (--url number 1) has both a --pid and a --metrics-url: each pairs with --url by position, so give one per node, and - where a node has none (--url A --url B --pid <A's pid> --metrics-url - --metrics-url http://B/metrics)`);
    expect(pidsOf('watch', [pid], urls)).toEqual([process.pid]);
    expect(metricsUrlsOf('watch', ['-', 'http://127.0.0.1:18002/metrics'], [pid], urls)).toEqual([undefined, 'http://127.0.0.1:18002/metrics']);
    // And the other way round: the first by its page, the second by its pid.
    expect(pidsOf('watch', ['-', pid], urls)).toEqual([undefined, process.pid]);
    expect(metricsUrlsOf('watch', ['http://127.0.0.1:18001/metrics'], ['-', pid], urls)).toEqual(['http://127.0.0.1:18001/metrics']);
    expect(metricNamesOf('watch', ['fake_kept_bytes'], [undefined, 'http://127.0.0.1:18002/metrics'])).toEqual(['fake_kept_bytes']);
  });

  it('takes - as a value of either option; a position of none everywhere is no process read; still one per --url at most', () => {
    expect(HEALTH_OPTIONS.pid.check('-')).toBeUndefined();
    expect(HEALTH_OPTIONS['metrics-url'].check('-')).toBeUndefined();
    expect(HEALTH_OPTIONS.pid.check('0')).toBe('is a process id (a positive integer), or - for none for that --url');
    expect(pidsOf('load', ['-', '-'], urls)).toBeUndefined();
    expect(metricsUrlsOf('load', ['-'], undefined, urls)).toEqual([]);
    expect(() => metricNamesOf('load', ['x'], [])).toThrow(/give --metrics-url/);
    expect(() => pidsOf('load', ['-', '-', pid], urls)).toThrow('load: 3 --pid for 2 --url: one per node, in the order of --url (- for a node that has none)');
    expect(pidNotes('load', urls, [undefined, process.pid])).toEqual([`load: --pid ${process.pid} is read as the process of http://127.0.0.1:18002 (--pid pairs with --url by position)`, expect.stringContaining('warning') as unknown as string]);
  });
});

describe('a devnet\'s own nodes', () => {
  it('are not said as --pid paired by position: chainrpc started each on its URL', () => {
    // The outside tester's --devnet run printed "load: --pid 21389 is read as the process of ... (--pid pairs with
    // --url by position)" though no --pid or --url was given.
    const devnetPid = 2_147_483_600;
    expect(pidNotes('load', ['http://127.0.0.1:9'], [devnetPid])[0]).toMatch(/--pid 2147483600 is read as/);
    startedByChainrpc([devnetPid]);
    expect(pidNotes('load', ['http://127.0.0.1:9'], [devnetPid])).toEqual([]);
  });
});

describe('thresholds on the head lag with one head alone', () => {
  const parsed = (...texts: string[]) => texts.map(parseThreshold);

  it('refuses one given on the command line (exit 2), saying how to measure it', () => {
    const given = parsed('head-lag-p99 < 100ms');
    const all = [...parsed('p99 < 250ms'), ...given];
    let error: unknown;
    try {
      headThresholds('load', all, given, 'alone');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).message).toBe('load: the threshold "head-lag-p99 < 100ms" compares the node\'s head with another\'s, and only one node\'s head is followed: give a second --url or --head-reference <url> (a node trusted to be at the tip)');
    for (const text of ['stalls == 0', 'head-lag-drift < 1s/h']) expect(() => headThresholds('load', parsed(text), parsed(text), 'alone')).toThrow(CliError);
  });

  it('leaves out the scenario\'s own (the soak\'s), keeps the rest; judges them all when the head is compared', () => {
    const soak = parsed('p99 < 500ms', 'rss-growth < 50MB/h', 'stalls == 0', 'head-lag-p99 < 1s', 'head-lag-drift < 1s/h', 'regressions == 0');
    const alone = headThresholds('load', soak, [], 'alone');
    expect(alone.kept.map((t) => t.text)).toEqual(['p99 < 500ms', 'rss-growth < 50MB/h', 'regressions == 0']);
    expect(alone.leftOut.map((t) => t.text)).toEqual(['stalls == 0', 'head-lag-p99 < 1s', 'head-lag-drift < 1s/h']);
    expect(headThresholds('load', soak, [], 'compared')).toEqual({ kept: soak, leftOut: [] });
    expect(headThresholds('load', soak, soak.slice(2), 'compared').kept).toHaveLength(6);
  });
});
