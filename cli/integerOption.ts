import { CliError } from './CliError.js';

/**
 * A whole-number option: `fallback` when absent, else an integer from `min` (to `max` when given);
 * anything else is a usage error naming the command and the flag.
 */
export function integerOption(command: string, flag: string, text: string | undefined, fallback: number, min: number, max?: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || (max !== undefined && n > max)) {
    throw new CliError(`${command}: ${flag} must be an integer ${max === undefined ? `>= ${min}` : `from ${min} to ${max}`}; got "${text}"`);
  }
  return n;
}

/** A chain id: a non-negative integer of at most 20 digits (a u64). */
export function chainIdOption(command: string, text: string | undefined, fallback: bigint): bigint {
  if (text === undefined) return fallback;
  if (!/^\d{1,20}$/.test(text)) throw new CliError(`${command}: --chain-id must be a non-negative integer; got "${text}"`);
  return BigInt(text);
}
