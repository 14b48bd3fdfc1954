import { describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { startTestNode } from '../../test/support/suites.js';
import type { ChaosAction, ChaosReport, ChaosStep } from '../model.js';
import { loadVerdict } from '../loadVerdict.js';
import { runLoad } from '../runLoad.js';
import { loadScenario } from '../scenario/loadScenario.js';
import { ChainView } from './ChainView.js';
import { outsideNetwork, type ChaosNetwork } from './ChaosNetwork.js';
import { parseChaosExec, parseChaosStep } from './chaosPlan.js';
import { runChaos } from './runChaos.js';

const now = (): number => performance.timeOrigin + performance.now();
const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A devnet as the runner sees it, whose actions take as long as `takes` says (a restart waits for the node to serve). */
function slowNetwork(takes: Partial<Record<ChaosAction, number>>): ChaosNetwork & { done: string[] } {
  const done: string[] = [];
  return {
    done,
    nodes: [{ name: 'mn1', kind: 'MN', url: 'http://127.0.0.1:9' }, { name: 'ln1', kind: 'LN', url: 'http://127.0.0.1:9' }],
    isUp: () => true,
    nameOfProposer: () => undefined,
    act: async (action, name) => {
      await wait(takes[action] ?? 0);
      done.push(`${action} ${name}`);
    },
  };
}

describe('runChaos: the user\'s own faults', () => {
  it('runs each command at its time with the shell and records its exit code and output; a failure is said, the run goes on', async () => {
    const network = outsideNetwork([]);
    const chain = new ChainView(network, referenceProfile());
    const steps = [parseChaosExec('0ms:echo fell over; exit 3'), parseChaosExec('50ms:printf ok')];
    const run = runChaos({ steps, network, chain, measureStartMs: now() });
    await wait(400);
    const events = await run.stop();
    await chain.close();
    expect(events.map((e) => [e.action, e.exitCode, e.output, e.error])).toEqual([['exec', 3, 'fell over', 'exited 3'], ['exec', 0, 'ok', undefined]]);
    expect(events[1]?.atMs).toBeGreaterThanOrEqual(45);
  });

  it('ends a command still running when the run stops (every fault is bounded), and says so', async () => {
    const network = outsideNetwork([]);
    const chain = new ChainView(network, referenceProfile());
    const run = runChaos({ steps: [parseChaosExec('0ms:sleep 30')], network, chain, measureStartMs: now() });
    await wait(150);
    const t0 = performance.now();
    const [event] = await run.stop();
    await chain.close();
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(event).toMatchObject({ action: 'exec', exitCode: null, error: 'still running at the end of the run: ended' });
  });

  it('a step due while a command still runs is done at its time, beside it: none waits for a command, none is lost', async () => {
    // The tester's run: 2s:echo boom >&2; exit 3, 3s:sleep 100, 4s:true, 5s:/nonexistent/cmd (here in tenths).
    const network = outsideNetwork([]);
    const chain = new ChainView(network, referenceProfile());
    const steps = ['0ms:echo boom >&2; exit 3', '100ms:sleep 100', '200ms:true', '300ms:/nonexistent/cmd'].map(parseChaosExec);
    const run = runChaos({ steps, network, chain, measureStartMs: now() });
    await wait(700);
    const events = await run.stop();
    await chain.close();
    expect(events.map((e) => [e.text, e.exitCode, e.error])).toEqual([
      ['0ms:echo boom >&2; exit 3', 3, 'exited 3'],
      ['100ms:sleep 100', null, 'still running at the end of the run: ended'],
      ['200ms:true', 0, undefined],
      ['300ms:/nonexistent/cmd', 127, 'exited 127'],
    ]);
    expect(events[2]?.atMs).toBeLessThan(280);
    expect(events[3]?.output).toMatch(/not found/);
  });
});

describe('runChaos: chainrpc\'s own actions', () => {
  it('a fault on a devnet happens at its time while a command still runs (--chaos-exec "2s:sleep 100" --chaos 4s:kill:ln1)', async () => {
    const network = slowNetwork({});
    const chain = new ChainView(network, referenceProfile());
    const run = runChaos({ steps: [parseChaosExec('0ms:sleep 100'), parseChaosStep('200ms:kill:ln1')], network, chain, measureStartMs: now() });
    await wait(500);
    const events = await run.stop();
    await chain.close();
    expect(network.done).toEqual(['kill ln1']);
    const kill = events.find((e) => e.action === 'kill');
    expect(kill?.node).toBe('ln1');
    expect(kill?.error).toBeUndefined();
    expect(kill?.atMs).toBeLessThan(300);
  });

  it('one at a time; a step still waiting behind an action under way when the run ends, and one not yet due, are in the events with why', async () => {
    const network = slowNetwork({ restart: 600 });
    const chain = new ChainView(network, referenceProfile());
    const steps = ['0ms:kill:mn1:50ms', '100ms:pause:ln1:50ms', '10s:kill:ln1'].map(parseChaosStep);
    const run = runChaos({ steps, network, chain, measureStartMs: now() });
    await wait(300);
    const events = await run.stop();
    await chain.close();
    // The restart (the kill's end, at 50 ms) was under way from 50 ms to 650 ms: the pause due at 100 ms waited behind it.
    expect(network.done).toEqual(['kill mn1', 'restart mn1']);
    expect(events.map((e) => [e.text, e.node, e.error])).toEqual([
      ['0ms:kill:mn1:50ms', 'mn1', undefined],
      ['0ms:kill:mn1:50ms (end)', 'mn1', undefined],
      ['100ms:pause:ln1:50ms', 'ln1', 'it fell due while `0ms:kill:mn1:50ms (end)` was under way (chainrpc\'s actions run one at a time), still so at the end of the run'],
      ['10s:kill:ln1', 'ln1', 'the run ended before it was due'],
    ]);
  });
});

describe('runChaos: a restart inside a partition', () => {
  it('says the restart ended the partition, and the heal planned after it is not done (an outside tester\'s ln1 synced from 6.5 s while "partitioned" until 12 s)', async () => {
    // --chaos 2s:partition:ln1:10s --chaos 4s:kill:ln1:2s, 20 times faster; a node starts with its peer gate open.
    const network = slowNetwork({});
    const chain = new ChainView(network, referenceProfile());
    const lines: string[] = [];
    const steps = ['0ms:partition:ln1:500ms', '100ms:kill:ln1:100ms', '0ms:partition:mn1:400ms'].map(parseChaosStep);
    const run = runChaos({ steps, network, chain, measureStartMs: now(), log: (l) => lines.push(l) });
    for (let i = 0; i < 100 && !lines.some((l) => l.includes('partition:ln1:500ms (end)')); i++) await wait(50);
    const events = await run.stop();
    await chain.close();
    // mn1, partitioned and healed without a restart, is healed as planned; ln1's heal opens nothing: not done.
    expect(network.done).toEqual(['partition ln1', 'partition mn1', 'kill ln1', 'restart ln1', 'heal mn1']);
    const restart = events.find((e) => e.text === '100ms:kill:ln1:100ms (end)');
    const heal = events.find((e) => e.text === '0ms:partition:ln1:500ms (end)');
    expect(heal?.error).toBe(`ln1's peer links were open again since its restart at ${restart?.atMs} ms, which ended \`0ms:partition:ln1:500ms\` (a reference node starts with its peer gate open; chainrpc cannot keep a partition across a restart): the drill planned was not carried out`);
    expect(events.find((e) => e.text === '0ms:partition:mn1:400ms (end)')?.error).toBeUndefined();
    expect(lines.find((l) => l.includes('restart ln1'))).toMatch(/restart ln1 \(end of the fault\); it starts with its peer links open, which ends `0ms:partition:ln1:500ms`/);
  });
});

describe('runChaos: a pause that a kill ends', () => {
  it('says the kill ended the pause, and the resume planned after it is not done', async () => {
    // An outside tester's --chaos 3s:pause:mn2:4s --chaos 4s:kill:mn2:2s: the 7 s resume was reported done, with a
    // catch-up measured on a node restarted unpaused at 6 s. 20 times faster here.
    const network = slowNetwork({});
    const chain = new ChainView(network, referenceProfile());
    const lines: string[] = [];
    const steps = ['0ms:pause:mn2:200ms', '50ms:kill:mn2:100ms', '0ms:pause:mn1:100ms'].map(parseChaosStep);
    const run = runChaos({ steps, network, chain, measureStartMs: now(), log: (l) => lines.push(l) });
    for (let i = 0; i < 100 && !lines.some((l) => l.includes('pause:mn2:200ms (end)')); i++) await wait(50);
    const events = await run.stop();
    await chain.close();
    expect(network.done).toEqual(['pause mn2', 'pause mn1', 'kill mn2', 'resume mn1', 'restart mn2']);
    const kill = events.find((e) => e.text === '50ms:kill:mn2:100ms');
    expect(events.find((e) => e.text === '0ms:pause:mn2:200ms (end)')?.error).toBe(`mn2 was no longer paused since the kill at ${kill?.atMs} ms, which ended \`0ms:pause:mn2:200ms\`: the drill planned was not carried out`);
    expect(events.find((e) => e.text === '0ms:pause:mn1:100ms (end)')?.error).toBeUndefined();
    expect(lines.find((l) => l.includes('kill mn2'))).toMatch(/kill mn2; which ends `0ms:pause:mn2:200ms`/);
  });
});

describe('runChaos: the end of the run', () => {
  it('a fault still under way when the run ends: its return, not yet due, is recorded as not done, and nothing runs after stop()', async () => {
    const network = slowNetwork({ kill: 300 });
    const chain = new ChainView(network, referenceProfile());
    const run = runChaos({ steps: [parseChaosStep('0ms:kill:mn1:100ms')], network, chain, measureStartMs: now() });
    await wait(50);
    // What stop() resolved with, as it was then: nothing is added to it later.
    const events = [...(await run.stop())];
    await wait(200);
    await chain.close();
    expect(network.done).toEqual(['kill mn1']);
    expect(events.map((e) => [e.text, e.error])).toEqual([['0ms:kill:mn1:100ms', undefined], ['0ms:kill:mn1:100ms (end)', 'the run ended before it was due']]);
  });
});

describe('a drill not carried out as planned', () => {
  it('is not trusted (exit 1): every run says which steps were not done and why; a fault threshold does not pass for a fault that did not happen', async () => {
    const node = await startTestNode();
    try {
      const steps: ChaosStep[] = ['300ms:exit 3', '400ms:true'].map(parseChaosExec);
      let report: ChaosReport | undefined;
      const scenario = loadScenario('reads', { rate: 20, duration: '1500ms', warmup: '200ms', thresholds: ['recovery < 5s'] });
      const [run] = await runLoad({ scenario, urls: [node.url], profile: referenceProfile(), profileSource: null, threads: 1, maxLagP99Us: 100_000, health: { intervalMs: 50 }, chaos: { steps, network: outsideNetwork([node.url]), onChaos: (r) => (report = r) }, log: () => {} });
      expect(report?.events.map((e) => [e.text, e.error])).toEqual([['300ms:exit 3', 'exited 3'], ['400ms:true', undefined]]);
      expect(run?.valid).toBe(false);
      expect(run?.invalid).toContain('the fault schedule was not carried out (1 of its 2 steps not done: `300ms:exit 3` (exited 3)): the figures at faults (failover, recovery, lost-tx, duplicate-tx, forks) measure another drill than the one planned');
      // The recovery is kept (nothing failed), and the verdict still does not pass the run.
      expect(run?.thresholds.find((t) => t.metric === 'recovery')).toMatchObject({ actual: 0, ok: true });
      expect(loadVerdict(run === undefined ? [] : [run], [], undefined, false)).toMatchObject({ word: 'NOT TRUSTED', exitCode: 1 });
    } finally {
      await node.stop();
    }
  }, 60_000);
});
