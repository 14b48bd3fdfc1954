const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface DecodedBody {
  /** The body as text; invalid UTF-8 sequences become U+FFFD. */
  readonly text: string;
  /** False when the bytes are not valid UTF-8, which a JSON text must be (RFC 8259 §8.1). */
  readonly validUtf8: boolean;
}

/**
 * Decodes a response body. A leading BOM is kept (ignoreBOM), so the JSON parser rejects it as
 * JSON.parse would: RFC 8259 §8.1 forbids sending one, and a conformance client should notice.
 */
export function decodeBody(body: Uint8Array): DecodedBody {
  try {
    return { text: strict.decode(body), validUtf8: true };
  } catch {
    return { text: Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'), validUtf8: false };
  }
}
