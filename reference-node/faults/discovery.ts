/**
 * Discovery faults: rpc.discover. TEST-ONLY: each fault makes a reference node deliberately wrong (docs/faults.md).
 */
import { mapResult } from './bends.js';
import type { Fault } from './bends.js';

export const DISCOVERY_FAULTS = [
  {
    name: 'discover-invalid',
    category: 'discovery',
    description: 'rpc.discover returns {"openrpc": "1.3.2"} with no info and no methods.',
    rule: 'rpc.discover returns a valid OpenRPC document listing the methods (profile: OpenRPC service discovery).',
    level: 'PROFILE',
    scope: 'node',
    bend: { methods: mapResult('rpc.discover', () => ({ openrpc: '1.3.2' })) },
  },
] as const satisfies readonly Fault[];
