import type { Check } from './Check.js';
import { chainChecks } from './checks/chain.js';
import { discoveryChecks } from './checks/discovery.js';
import { methodChecks } from './checks/methods/index.js';
import { networkChecks } from './checks/network.js';
import { stateChecks } from './checks/state.js';
import { transportChecks } from './checks/transport/index.js';

/** Every check, in report order: transport, methods, chain, state, network and PoU, discovery. */
export function catalogue(): Check[] {
  const all = [...transportChecks, ...methodChecks, ...chainChecks, ...stateChecks, ...networkChecks, ...discoveryChecks];
  const seen = new Set<string>();
  for (const c of all) {
    if (seen.has(c.id)) throw new Error(`two checks have the id ${c.id}`);
    seen.add(c.id);
  }
  return all;
}
