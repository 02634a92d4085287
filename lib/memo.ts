// A memo for pure functions of one key whose values are worth keeping (formatted dates, avatar
// URLs): bounded, so no stream of distinct keys can grow it without limit; emptied when full.

export function boundedMemo<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const values = new Map<K, V>();
  return (key) => {
    let value = values.get(key);
    if (value === undefined) {
      value = compute(key);
      if (values.size >= limit) values.clear();
      values.set(key, value);
    }
    return value;
  };
}
