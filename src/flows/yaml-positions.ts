import { isMap, isPair, isScalar, isSeq, type LineCounter, type Node } from 'yaml';
import { formatFlowPath } from './diagnostic.js';

/** A 1-based line and column in a YAML file. */
export interface YamlPosition {
  readonly line: number;
  readonly column: number;
}

/**
 * Where every path of a parsed YAML document starts (`states.welcome.say`, `numbers[1]`):
 * for a mapping entry its key (`anchor: 'key'`) or its value, falling back to the key when
 * it has none (`anchor: 'value'`); for a sequence item the item. The root path `''` is
 * where the top-level node starts (after comments), not 1:1.
 * @example
 * const table = yamlPositionTable(doc.contents, lineCounter, 'key');
 * table.get('states.welcome'); // { line: 7, column: 3 }
 */
export function yamlPositionTable(
  root: unknown,
  lines: LineCounter,
  anchor: 'key' | 'value',
): Map<string, YamlPosition> {
  const table = new Map<string, YamlPosition>();
  const at = (offset: number | undefined): YamlPosition => {
    const p = lines.linePos(offset ?? 0);
    return { line: p.line, column: p.col };
  };
  const walk = (node: unknown, path: PropertyKey[]): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const p = [...path, String(pair.key.value)];
        const value = anchor === 'value' ? (pair.value as Node | null) : null;
        table.set(formatFlowPath(p), at(value?.range?.[0] ?? pair.key.range?.[0]));
        walk(pair.value, p);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        const p = [...path, i];
        table.set(formatFlowPath(p), at((item as Node | null)?.range?.[0]));
        walk(item, p);
      });
    }
  };
  table.set('', at((root as Node | null)?.range?.[0]));
  walk(root, []);
  return table;
}
