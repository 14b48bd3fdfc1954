/**
 * Where the string opened by the quote at `open` closes in a JSON text: the next quote not escaped (one after an
 * even run of backslashes), or -1 when none does. Native indexOf does the scanning: a text's strings are walked
 * from quote to quote without reading their characters one by one (parseJson's fast lossless reading, and the
 * fuzzer's count of member names).
 */
export function closingQuote(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  while (close !== -1 && escapedAt(text, close)) close = text.indexOf('"', close + 1);
  return close;
}

function escapedAt(text: string, quote: number): boolean {
  let backslashes = 0;
  for (let i = quote - 1; text.charCodeAt(i) === 0x5c; i--) backslashes++;
  return backslashes % 2 === 1;
}
