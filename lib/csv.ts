// CSV as RFC 4180 writes it (https://www.rfc-editor.org/rfc/rfc4180): fields separated by commas,
// records by CRLF or LF, a field in double quotes may hold commas, line breaks and "" for a quote.
// Only what `parley user import` reads and writes; no dependency offers less.

export class CsvError extends Error {}

/** A record and the line it starts on (1-based). */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/** The records of a CSV text; a final line break ends the last record, blank lines are skipped. */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
        const next = text[i + 1];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') throw new CsvError(`line ${line}: text after a closing quote`);
      } else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field === '') quoted = true;
    else if (c === '"') throw new CsvError(`line ${line}: a quote inside an unquoted field`);
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      if (record.length > 1 || record[0] !== '') records.push({ fields: record, line: start });
      record = [];
      field = '';
      start = ++line;
    } else field += c;
  }
  if (quoted) throw new CsvError(`line ${line}: a quoted field is not closed`);
  record.push(field);
  if (record.length > 1 || record[0] !== '') records.push({ fields: record, line: start });
  return records;
}

/** One CSV record: fields with a comma, quote or line break are quoted. */
export function csvRecord(fields: readonly string[]): string {
  return fields.map((field) => (/[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field)).join(',');
}
