import type { ResponseEvidence } from './types.js';

const EXCERPT_CHARS = 1000;

/** Status, headers and the start of the body: enough to show in a report what the node sent. */
export function responseEvidence(
  status: number,
  headers: Readonly<Record<string, string>>,
  text: string,
  bodyBytes: number,
  truncated: boolean,
): ResponseEvidence {
  return {
    status,
    headers,
    contentType: headers['content-type'],
    excerpt: text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text,
    bodyBytes,
    truncated,
  };
}
