// localStorage in memory for Node tests, with an optional quota (in
// characters) to try a full storage.
export function memoryStorage({ quota = Infinity } = {}) {
  const items = new Map();
  return {
    items,
    get length() { return items.size; },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem(k, v) {
      const size = [...items].reduce((n, [key, value]) => n + (key === k ? 0 : value.length), 0) + v.length;
      if (size > quota) throw new Error('QuotaExceededError');
      items.set(k, String(v));
    },
    removeItem: (k) => items.delete(k),
  };
}
