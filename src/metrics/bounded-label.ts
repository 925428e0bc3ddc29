/**
 * Keeps a label's values bounded: the first `max` distinct values are kept as they
 * are (cleaned to `[A-Za-z0-9_.:-]`, at most 64 characters); later new values become
 * `other`. Protects the metrics from unbounded cardinality when a value comes from
 * user code (handler outcomes, error names).
 * @example
 * const label = boundedLabel(2);
 * [label('a'), label('b'), label('c'), label('a')]; // ['a', 'b', 'other', 'a']
 */
export function boundedLabel(max: number): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    const clean = value.replace(/[^A-Za-z0-9_.:-]/g, '_').slice(0, 64) || 'empty';
    if (seen.has(clean)) return clean;
    if (seen.size >= max) return 'other';
    seen.add(clean);
    return clean;
  };
}

/**
 * Returns `value` when it is one of `allowed`, else `other`.
 * @example
 * oneOf(['text', 'image'], 'video'); // 'other'
 */
export function oneOf(allowed: readonly string[], value: string): string {
  return allowed.includes(value) ? value : 'other';
}
