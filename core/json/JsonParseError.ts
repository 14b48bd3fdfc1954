/** Thrown by parseJson / parseJsonLossless for any text that JSON.parse would reject (and for nesting beyond the depth limit). */
export class JsonParseError extends Error {
  override readonly name = 'JsonParseError';
  /** Plain reason, without the position. */
  readonly reason: string;
  /** Zero-based UTF-16 code-unit offset into the text where parsing failed. */
  readonly offset: number;

  constructor(reason: string, offset: number, options?: ErrorOptions) {
    super(`Invalid JSON: ${reason} at offset ${offset}`, options);
    this.reason = reason;
    this.offset = offset;
  }
}
