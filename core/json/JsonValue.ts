/**
 * A parsed JSON value. Integer literals beyond ±(2^53−1) are `bigint` (see parseJson), so the
 * value is exact: nothing a node sends is rounded on its way into a check.
 */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };
