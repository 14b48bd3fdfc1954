import type { JsonValue } from '../../core/json/index.js';
import type { Profile } from '../../profile/Profile.js';
import { asInteger, readField } from '../../profile/readWire.js';

/** An account as the load tools need it. */
export interface AccountState {
  balance: bigint;
  /** The nonce the account's next transaction must carry (its confirmed transactions). */
  nonce: bigint;
}

/**
 * A chain_getAccount result read through the profile's field names, in any legal encoding (a balance as
 * a decimal string or an integer, a nonce as a number or a hex quantity); undefined when it is no account.
 */
export function parseAccount(profile: Profile, result: JsonValue): AccountState | undefined {
  const b = readField(profile, result, 'balance');
  const balance = typeof b === 'string' && /^[0-9]+$/.test(b) ? BigInt(b) : asInteger(b);
  const nonce = asInteger(readField(profile, result, 'nonce'));
  return balance === undefined || nonce === undefined ? undefined : { balance, nonce };
}
