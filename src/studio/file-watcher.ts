import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

/** What to watch: exact files, and folders in which any source file counts. */
export interface WatchTargets {
  readonly files: readonly string[];
  readonly sourceDirs: readonly string[];
}

/** A running watcher; `update` changes the targets (after a reload found new files). */
export interface FileWatcher {
  update(targets: WatchTargets): void;
  close(): void;
}

const SOURCE_EXTENSIONS = new Set(['.ts', '.mts', '.js', '.mjs', '.yaml', '.yml', '.json']);

/**
 * Calls `onChange` once per burst of changes (after `debounceMs` without another) to the
 * watched files. Folders are watched rather than files, so an editor that saves by
 * writing a new file and renaming it over the old one is seen too.
 */
export function watchFiles(
  targets: WatchTargets,
  onChange: (changed: readonly string[]) => void,
  options: { readonly debounceMs?: number } = {},
): FileWatcher {
  const debounceMs = options.debounceMs ?? 200;
  const watchers = new Map<string, FSWatcher>();
  let files = new Set<string>();
  let sourceDirs = new Set<string>();
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  const relevant = (path: string): boolean =>
    files.has(path) ||
    (sourceDirs.has(dirname(path)) &&
      SOURCE_EXTENSIONS.has(extname(path)) &&
      !basename(path).startsWith('.'));
  const changed = (path: string): void => {
    if (!relevant(path)) return;
    pending.add(path);
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      const batch = [...pending];
      pending = new Set();
      onChange(batch);
    }, debounceMs);
  };

  const update = (next: WatchTargets): void => {
    files = new Set(next.files);
    sourceDirs = new Set(next.sourceDirs);
    const dirs = new Set([...next.files.map((f) => dirname(f)), ...next.sourceDirs]);
    for (const [dir, watcher] of watchers) {
      if (dirs.has(dir)) continue;
      watcher.close();
      watchers.delete(dir);
    }
    for (const dir of dirs) {
      if (watchers.has(dir)) continue;
      try {
        const watcher = watch(dir, (_event, name) => {
          if (name !== null) changed(join(dir, name.toString()));
        });
        watcher.on('error', () => {
          // A folder that disappeared stops being watched; the next update may add it back.
          watcher.close();
          watchers.delete(dir);
        });
        watchers.set(dir, watcher);
      } catch {
        // A folder that does not exist (yet) cannot be watched; nothing in it can change.
      }
    }
  };
  update(targets);

  return {
    update,
    close() {
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
