import type { Check } from '../../Check.js';
import { batches } from './batches.js';
import { errors } from './errors.js';
import { http } from './http.js';
import { ids } from './ids.js';
import { notifications } from './notifications.js';

export { batches, errors, http, ids, notifications };

/**
 * Every transport check, from the envelope outwards: response objects and id echo, JSON-RPC's own
 * error codes, batches, notifications, then HTTP around JSON-RPC (statuses, content types, limits).
 */
export const transportChecks: Check[] = [...ids, ...errors, ...batches, ...notifications, ...http];
