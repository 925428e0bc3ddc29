import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Whether `dist/` was built after the last change under `src/` (and package.json): then the
 * docs checks may use the compiled package (its declarations, its CLI without tsx), which is
 * several times faster on a small machine; otherwise they use the sources.
 * @example
 * const env = isDistFresh(root) ? { SWITCHBOARD_DIST: '1' } : {};
 */
export function isDistFresh(root: string): boolean {
  let built: number;
  try {
    built = statSync(join(root, 'dist/.tsbuildinfo')).mtimeMs;
  } catch {
    return false; // never built
  }
  return (
    built >= Math.max(newestUnder(join(root, 'src')), statSync(join(root, 'package.json')).mtimeMs)
  );
}
