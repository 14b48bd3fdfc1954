/**
 * Node-supplied text (an error message a check quotes, a hint built on one) cut to fit where it is a
 * headline: a hint, a message line, a JUnit attribute, a console line. A node can send anything, 5,000
 * characters included; report.json (and the evidence a report shows under the headline) keeps the whole.
 */

/** The longest message shown whole in a headline: every message the checks write on their own is shorter. */
export const MESSAGE_CHARS = 400;
/** The longest hint shown whole ("First, fix this"): hints explain, so they are allowed more. */
export const HINT_CHARS = 600;

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * `text` when it has at most `max` UTF-16 units; else its start and its end (which often says what the
 * message means: "…, so there is no height to use") around "…[cut, N characters in all]…", N the whole
 * length. Never cuts inside a surrogate pair.
 */
export function shortText(text: string, max: number): string {
  if (text.length <= max) return text;
  let head = Math.ceil((max * 2) / 3);
  let tail = Math.max(0, max - head);
  if (isHigh(text.charCodeAt(head - 1))) head--;
  let from = text.length - tail;
  if (tail > 0 && isLow(text.charCodeAt(from))) {
    from++;
    tail--;
  }
  return `${text.slice(0, head)}…[cut, ${text.length.toLocaleString('en-US')} characters in all]…${tail > 0 ? text.slice(from) : ''}`;
}

/** A check's message as a headline. */
export const shortMessage = (message: string): string => shortText(message, MESSAGE_CHARS);
/** A hint as a "First, fix this" line. */
export const shortHint = (hint: string): string => shortText(hint, HINT_CHARS);
