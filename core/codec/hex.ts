import { CodecError, quote } from './CodecError.js';

// Decoding table: char code -> nibble value, or -1. Lower and upper case are both hexadecimal
// characters (the spec says "hexadecimal characters" without a case), so both are accepted.
const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) NIBBLE[48 + i] = i;
for (let i = 0; i < 6; i++) {
  NIBBLE[65 + i] = 10 + i;
  NIBBLE[97 + i] = 10 + i;
}

function nibble(code: number): number {
  return code < 128 ? (NIBBLE[code] ?? -1) : -1;
}

/**
 * Hex string -> bytes, under the reference profile's hex policy: either case, no `0x` prefix
 * (the spec's addresses are exactly 64 hex characters), non-empty, even length.
 * `what` names the value in error messages ("transaction hex", "to address").
 */
export function hexToBytes(hex: unknown, what = 'hex string'): Uint8Array {
  if (typeof hex !== 'string') {
    throw new CodecError('INPUT_TYPE', `${what} must be a string of hexadecimal characters, got ${typeof hex}`);
  }
  if (hex.length === 0) {
    throw new CodecError('EMPTY_INPUT', `${what} is empty; expected hexadecimal characters`);
  }
  if (hex.length >= 2 && hex[0] === '0' && (hex[1] === 'x' || hex[1] === 'X')) {
    throw new CodecError(
      'HEX_PREFIX',
      `${what} starts with "${hex.slice(0, 2)}"; remove the prefix: hex in this profile carries no 0x prefix`,
    );
  }
  if (hex.length % 2 !== 0) {
    throw new CodecError('HEX_ODD_LENGTH', `${what} has ${hex.length} characters; an odd length cannot be bytes`);
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(hex.charCodeAt(2 * i));
    const lo = nibble(hex.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) {
      const at = hi < 0 ? 2 * i : 2 * i + 1;
      // codePointAt so that an emoji is shown whole rather than as half a surrogate pair.
      const ch = String.fromCodePoint(hex.codePointAt(at) ?? 0);
      throw new CodecError(
        'HEX_INVALID_CHAR',
        `${what} has the non-hex character ${quote(ch)} at index ${at}; use only 0-9, a-f, A-F`,
      );
    }
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** Bytes -> lower-case hex (output hex is always lower case). */
export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Hex string of an exact byte length (addresses, signatures); WRONG_LENGTH names both counts. */
export function hexToFixedBytes(hex: unknown, length: number, what: string): Uint8Array {
  const bytes = hexToBytes(hex, what);
  if (bytes.length !== length) {
    throw new CodecError(
      'WRONG_LENGTH',
      `${what} has ${bytes.length * 2} hex characters (${bytes.length} bytes); expected exactly ${length * 2} (${length} bytes)`,
    );
  }
  return bytes;
}
