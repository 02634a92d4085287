// Whitespace stripping as Zulip's two layers do it. pydantic's strip_whitespace (parameters with a
// length limit) trims Unicode White_Space (Rust's str::trim) before counting; Python's str.strip()
// (the domain's own stripping, e.g. of status_text) also strips U+001C-U+001F. Neither is
// JavaScript's trim(), which keeps U+0085 and strips U+FEFF.

/** Unicode White_Space (Rust's char::is_whitespace); all in the BMP. */
function isWhiteSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** str.isspace() code points: White_Space plus the information separators U+001C-U+001F. */
const isPythonSpace = (code: number): boolean => isWhiteSpace(code) || (code >= 0x1c && code <= 0x1f);

/** A loop, not a regular expression, so long whitespace runs stay linear. */
function strip(value: string, isSpace: (code: number) => boolean): string {
  let start = 0;
  let end = value.length;
  while (start < end && isSpace(value.charCodeAt(start))) start += 1;
  while (end > start && isSpace(value.charCodeAt(end - 1))) end -= 1;
  return value.slice(start, end);
}

/** Python's `value.strip()`. */
export const stripPython = (value: string): string => strip(value, isPythonSpace);

/** pydantic's strip_whitespace (Rust's `str::trim`). */
export const stripWhiteSpace = (value: string): string => strip(value, isWhiteSpace);
