import { describe, expect, it } from 'vitest';
import { chaosPlan, parseChaosExec, parseChaosStep } from './chaosPlan.js';

const shape = { nodes: [{ name: 'mn1', kind: 'MN' as const }, { name: 'mn2', kind: 'MN' as const }, { name: 'ln1', kind: 'LN' as const }] };

describe('a fault schedule', () => {
  it('reads <at>:<action>:<target>[:<for>]', () => {
    expect(parseChaosStep('10s:kill:leader')).toEqual({ text: '10s:kill:leader', atMs: 10_000, action: 'kill', target: 'leader', forMs: null });
    expect(parseChaosStep(' 500ms:pause:ln1:3s ')).toEqual({ text: '500ms:pause:ln1:3s', atMs: 500, action: 'pause', target: 'ln1', forMs: 3_000 });
  });

  it('refuses what it cannot do, saying how a step reads', () => {
    expect(() => parseChaosStep('10s:kill')).toThrow(/<at>:<action>:<target>/);
    expect(() => parseChaosStep('10s:explode:mn1')).toThrow(/unknown action "explode"/);
    expect(() => parseChaosStep('soon:kill:mn1')).toThrow(/at "soon" is not a duration/);
    expect(() => parseChaosStep('1s:kill:node7')).toThrow(/neither a node/);
    expect(() => parseChaosStep('1s:restart:mn1:2s')).toThrow(/restart takes no duration/);
    expect(() => parseChaosStep('1s:restart:leader')).toThrow(/by its name/);
  });

  it('is checked against the network and the run, and put in time order', () => {
    expect(chaosPlan(['8s:restart:mn1', '2s:kill:mn1'], shape, 20_000).map((s) => s.atMs)).toEqual([2_000, 8_000]);
    expect(() => chaosPlan(['2s:kill:mn3'], shape, 20_000)).toThrow(/no node mn3 \(it has mn1, mn2, ln1\)/);
    expect(() => chaosPlan(['2s:kill:any-ln'], { nodes: shape.nodes.slice(0, 2) }, 20_000)).toThrow(/no LN/);
    expect(() => chaosPlan(['2s:kill:follower'], { nodes: shape.nodes.slice(0, 1) }, 20_000)).toThrow(/one MN/);
    expect(() => chaosPlan(['15s:pause:ln1:6s'], shape, 20_000)).toThrow(/ends at 21000 ms, not within the run's 20000 ms/);
  });

  it("reads the user's own fault, <at>:<command>, the command as given (colons and all)", () => {
    expect(parseChaosExec('10s:docker exec n2 sh -c "sleep 1; kill 1"')).toEqual({ text: '10s:docker exec n2 sh -c "sleep 1; kill 1"', atMs: 10_000, action: 'exec', target: '', forMs: null, command: 'docker exec n2 sh -c "sleep 1; kill 1"' });
    expect(parseChaosExec('2s:curl http://127.0.0.1:9/x').command).toBe('curl http://127.0.0.1:9/x');
    expect(() => parseChaosExec('10s:')).toThrow(/<at>:<command>/);
    expect(() => parseChaosExec('docker kill n2')).toThrow(/at "docker kill n2" is not a duration|<at>:<command>/);
    expect(chaosPlan(['5s:kill:mn1'], shape, 20_000, ['1s:true']).map((s) => s.action)).toEqual(['exec', 'kill']);
    expect(() => chaosPlan([], { nodes: [] }, 5_000, ['6s:true'])).toThrow(/due at 6000 ms, not within the run's 5000 ms/);
  });

  it('reads the network faults: partition, delay=<d>[/<loss>%], heal', () => {
    expect(parseChaosStep('3s:partition:follower:5s')).toEqual({ text: '3s:partition:follower:5s', atMs: 3_000, action: 'partition', target: 'follower', forMs: 5_000 });
    expect(parseChaosStep('3s:delay=200ms:mn2:5s')).toMatchObject({ action: 'delay', delayMs: 200, loss: 0, forMs: 5_000 });
    expect(parseChaosStep('3s:delay=100ms/12.5%:ln1')).toMatchObject({ action: 'delay', delayMs: 100, loss: 0.125, forMs: null });
    expect(parseChaosStep('9s:heal:mn2')).toMatchObject({ action: 'heal', target: 'mn2' });
    expect(() => parseChaosStep('3s:delay:mn2')).toThrow(/delay=<d>\[\/<loss>%\]/);
    expect(() => parseChaosStep('3s:delay=2m:mn2')).toThrow(/at most 60 s/);
    expect(() => parseChaosStep('3s:heal:leader')).toThrow(/heal a node by its name/);
    expect(() => parseChaosStep('3s:heal:mn1:2s')).toThrow(/heal takes no duration/);
  });
});
