// Grouping rows by a key (the reactions or the edit history of a page of messages, by message id).

/** `rows` grouped by `key`, each mapped with `value`, in the rows' order. */
export function groupBy<R, K, V>(rows: Iterable<R>, key: (row: R) => K, value: (row: R) => V): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(value(row));
    else groups.set(k, [value(row)]);
  }
  return groups;
}
