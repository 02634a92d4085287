// Python's str.strip(), for parameters Zulip strips that way (pydantic's strip_whitespace): its
// whitespace set differs from JavaScript's trim() (U+001C-U+001F and U+0085 are stripped, U+FEFF
// is kept).

/** str.isspace() code points: categories Zs and bidi classes WS, B, S; all in the BMP. */
function isPythonSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
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

/** Python's `value.strip()`; a loop, not a regular expression, so long whitespace runs stay linear. */
export function stripPython(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isPythonSpace(value.charCodeAt(start))) start += 1;
  while (end > start && isPythonSpace(value.charCodeAt(end - 1))) end -= 1;
  return value.slice(start, end);
}
