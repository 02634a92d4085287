// Dates and times as this browser's locale writes them. Building an Intl.DateTimeFormat is slow
// (Date's toLocaleString builds one on every call: most of a message list's render time), so
// each set of options gets one, built on first use.

const formats = new Map<string, Intl.DateTimeFormat>();

/** The date (a Date or milliseconds) in the browser's locale, with these options. */
export function formatDate(date: Date | number, options: Intl.DateTimeFormatOptions = {}): string {
  const key = JSON.stringify(options);
  let format = formats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat([], options);
    formats.set(key, format);
  }
  return format.format(date);
}
