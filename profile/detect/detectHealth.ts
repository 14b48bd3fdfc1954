import { referenceProfile } from '../referenceProfile.js';
import { showJson } from './describe.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { fieldOf, RESULT_FIELDS } from './findKeys.js';
import { amountOf } from './integerOf.js';
import { readText, resultOf } from './readResults.js';
import type { Read } from './readResults.js';

/**
 * The value sets of chain_health's status and mode (docs/interface.md#resource-health: not
 * shown). One answer shows one value: when it is one of the reference set's, the reference set is
 * the best guess; otherwise the value seen alone, with the note that other values were not seen.
 * Also reads chain_id (the chain transactions are signed for) when the result carries one.
 */
export function detectHealth(health: Read | undefined): { findings: Finding[]; chainId: bigint | undefined } {
  const reference = referenceProfile().health;
  const result = resultOf(health);
  const findings: Finding[] = [];
  for (const key of ['status', 'mode'] as const) {
    const value = fieldOf(result, RESULT_FIELDS.health, key);
    const known: readonly string[] = reference[key];
    if (health === undefined || typeof value !== 'string') {
      findings.push(fallback(`health.${key}`, [...known], health === undefined ? 'chain_health not served' : `${readText(health)}: no ${key} string`));
    } else if (known.includes(value)) {
      // One value seen: the rest of the set is the reference's guess, not seen (medium, as an outside tester noted).
      findings.push(probed(`health.${key}`, [...known], 'medium', `${readText(health)}: ${key} "${value}" is in the reference set ${showJson([...known])}; its other values were not seen`));
    } else {
      findings.push(probed(`health.${key}`, [value], 'medium', `${readText(health)}: ${key} "${value}"; other values were not seen (add them by hand)`));
    }
  }
  const chainId = amountOf(fieldOf(result, RESULT_FIELDS.health, 'chain_id'));
  return { findings, chainId };
}
