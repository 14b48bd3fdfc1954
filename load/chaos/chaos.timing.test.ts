/**
 * Faults under load against known truth (docs/chaos.md): a devnet of the build's reference nodes started by
 * `chainrpc load --devnet`, its leader killed at a known moment. The failover time chainrpc measures is checked
 * against the chain's own record: the first block after the kill carries its proposer's timestamp (the same
 * machine's clock), so (that timestamp - the kill's moment) is the true gap, which the followers (20 Hz) see within
 * one interval and a call. The calls to the surviving nodes never fail, and the chain has no fork afterwards.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LoadReport } from '../model.js';
import { CLI_PATH } from '../../reference-node/devnet/startDevnet.js';

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-chaos-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a leader killed under load', () => {
  it('measures the failover the chain shows, within one follower interval, and no surviving node fails a call', () => {
    const r = spawnSync(process.execPath, [CLI_PATH, 'load', 'reads', '--devnet', '3:1', '--chaos', '4s:kill:leader', '--duration', '10s', '--warmup', '1s', '--rate', '40', '--threshold', 'failover < 5s', '--report-dir', dir], { encoding: 'utf8', timeout: 90_000 });
    const report = JSON.parse(readFileSync(join(dir, readlinkSync(join(dir, 'latest')), 'report.json'), 'utf8')) as LoadReport;
    const chaos = report.chaos;
    expect(chaos, r.stdout + r.stderr).toBeDefined();
    const kill = chaos?.events[0];
    expect(kill).toMatchObject({ action: 'kill', text: '4s:kill:leader' });
    expect(kill?.node).toBe(kill?.leaderBefore);
    expect(kill?.leaderAfter).not.toBe(kill?.leaderBefore);
    // The chain's own record: the first block after the kill carries its proposer's timestamp.
    const killedAt = Date.parse(chaos?.originAt ?? '') + (kill?.atMs ?? 0);
    const trueGap = Date.parse(kill?.nextBlockAt ?? '') - killedAt;
    expect(Number.isFinite(trueGap), JSON.stringify(kill)).toBe(true);
    // Seen by a follower at most one interval (50 ms) and a call after it was made; never before.
    expect((kill?.nextBlockMs ?? 0) - trueGap).toBeGreaterThanOrEqual(-5);
    expect((kill?.nextBlockMs ?? 0) - trueGap).toBeLessThanOrEqual(50 + 40);
    expect(kill?.nextBlockMs).toBeGreaterThan(0);
    // Every node but the killed one: no call failed at the fault.
    const others = report.runs.filter((run) => run !== report.runs.find((x) => (x.chaos?.events[0]?.failedCalls ?? 0) > 0));
    expect(others).toHaveLength(3);
    for (const run of others) expect(run.chaos?.events[0]?.failedCalls, run.url).toBe(0);
    expect(chaos?.consistency?.forks).toEqual([]);
    expect(report.runs.every((run) => run.thresholds.find((t) => t.metric === 'failover')?.ok === true)).toBe(true);
  }, 120_000);
});
