import { describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { ChainView } from './ChainView.js';
import { outsideNetwork } from './ChaosNetwork.js';
import { runChaos } from './runChaos.js';

describe('runChaos: the user\'s own faults', () => {
  it('runs each command at its time with the shell and records its exit code and output; a failure is said, the run goes on', async () => {
    const network = outsideNetwork([]);
    const chain = new ChainView(network, referenceProfile());
    const start = performance.timeOrigin + performance.now();
    const steps = [
      { text: '0ms:echo fell over; exit 3', atMs: 0, action: 'exec' as const, target: '', forMs: null, command: 'echo fell over; exit 3' },
      { text: '50ms:printf ok', atMs: 50, action: 'exec' as const, target: '', forMs: null, command: 'printf ok' },
    ];
    const run = runChaos({ steps, network, chain, measureStartMs: start });
    await new Promise((r) => setTimeout(r, 400));
    const events = await run.stop();
    await chain.close();
    expect(events.map((e) => [e.action, e.exitCode, e.output, e.error])).toEqual([['exec', 3, 'fell over', 'exited 3'], ['exec', 0, 'ok', undefined]]);
    expect(events[1]?.atMs).toBeGreaterThanOrEqual(45);
  });

  it('ends a command still running when the run stops (every fault is bounded)', async () => {
    const network = outsideNetwork([]);
    const chain = new ChainView(network, referenceProfile());
    const run = runChaos({ steps: [{ text: '0ms:sleep 30', atMs: 0, action: 'exec', target: '', forMs: null, command: 'sleep 30' }], network, chain, measureStartMs: performance.timeOrigin + performance.now() });
    await new Promise((r) => setTimeout(r, 150));
    const t0 = performance.now();
    const [event] = await run.stop();
    await chain.close();
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(event).toMatchObject({ action: 'exec', exitCode: null, error: 'ended by a signal or its time limit' });
  });
});
