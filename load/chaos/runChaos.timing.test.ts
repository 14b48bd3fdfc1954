/**
 * The schedule's t = 0 against the truth: a fault due 500 ms into the measured window runs then, on the shell's own
 * clock, within 60 ms. It judges time, so it runs in the timing lane, alone on the machine (vitest.config.ts).
 */
import { describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { startTestNode } from '../../test/support/suites.js';
import type { ChaosReport, ChaosStep } from '../model.js';
import { runLoad } from '../runLoad.js';
import { loadScenario } from '../scenario/loadScenario.js';
import { outsideNetwork } from './ChaosNetwork.js';
import { parseChaosExec } from './chaosPlan.js';

describe('the schedule\'s t = 0 is the start of measurement', () => {
  it('a fault at 500 ms comes 500 ms into the measured window of every node (the engines\' start-up is not in it), and the report\'s clock is that window\'s', async () => {
    // The outside tester's runs: a `500ms:kill` came 413 ms before the measured window (in the warm-up), and a
    // `4s:kill -9` 1,862 ms into it: t = 0 was taken as now + the warm-up, before the engines' threads started.
    const nodes = [await startTestNode(), await startTestNode()];
    try {
      // The shell's own clock when the command ran: the truth, apart from chainrpc's.
      const steps: ChaosStep[] = [parseChaosExec('500ms:date +%s%3N')];
      let report: ChaosReport | undefined;
      const scenario = loadScenario('reads', { rate: 20, duration: '1500ms', warmup: '300ms' });
      const runs = await runLoad({ scenario, urls: nodes.map((n) => n.url), profile: referenceProfile(), profileSource: null, threads: 1, maxLagP99Us: 100_000, health: { intervalMs: 50 }, chaos: { steps, network: outsideNetwork(nodes.map((n) => n.url)), onChaos: (r) => (report = r) }, log: () => {} });
      const ranAt = Number(report?.events[0]?.output);
      const opened = runs.map((r) => Date.parse(r.startedAt) + r.warmupMs);
      expect(opened).toHaveLength(2);
      // The schedule's zero is the latest window's opening (every node measured then), to the ms the engine gave it.
      expect(Date.parse(report?.originAt ?? '')).toBe(Math.max(...opened));
      // Into each window: at 500 ms of the later one (the shell starts within a few ms), never in a warm-up.
      for (const at of opened) expect(ranAt - at).toBeGreaterThanOrEqual(500);
      expect(ranAt - Math.max(...opened)).toBeLessThan(560);
      // The event on the report's clock says when it ran.
      expect(report?.events[0]?.atMs).toBeGreaterThanOrEqual(500);
      expect(report?.events[0]?.atMs).toBeLessThan(560);
    } finally {
      await Promise.all(nodes.map((n) => n.stop()));
    }
  }, 60_000);
});
