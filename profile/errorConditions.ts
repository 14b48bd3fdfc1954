/**
 * The conditions a profile can give its own error code, as `errorCodes["<Name>/<condition>"]`, where a
 * node answers one kind of bad input with another code than the rest of its kind (a transaction that
 * is not hex answered with the node's malformed-transaction code rather than InvalidParams, say).
 * The checks that refuse such input look the code up by name and condition (Profile.ts, errorCode).
 */
export const ERROR_CONDITIONS: Readonly<Record<string, string>> = {
  'InvalidParams/type': 'a param of the wrong JSON type (a word as the height, a number as the address)',
  'InvalidParams/count': 'a required param missing, or one too many where extra params are refused',
  'InvalidParams/by-name': 'by-name (object) params, where they are refused',
  'InvalidParams/hex-prefix': 'a 0x before a hex param, where it is refused',
  'InvalidParams/string-integer': 'a height given as a string ("0"), where that is refused',
  'InvalidParams/address': 'an address that is not 64 hex characters (63 characters, non-hex characters)',
  'InvalidParams/height': 'a negative or fractional height',
  'InvalidParams/tx-hex': 'a transaction that is not a string of hex pairs (non-hex characters, odd length)',
};

/**
 * Error names a profile may give a code that the reference profile does not use (schemas/errors.schema.json
 * holds the reference's own): the error a node answers an unknown account with.
 */
export const EXTRA_ERROR_NAMES: readonly string[] = ['AccountNotFound'];
