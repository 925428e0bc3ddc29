import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { register as registerTsx } from 'tsx/esm/api';

let generation = 0;
let registered = false;

/** `import()` that no bundler or test runner rewrites: the module goes through Node's loader. */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- on purpose: a bundler or test runner rewrites a literal import()
const nativeImport = new Function('url', 'return import(url)') as (url: string) => Promise<unknown>;

/**
 * Imports a module and the files it imports by relative path anew (a new `?studio-gen=N`
 * on each of their URLs, see fresh-import-hooks.js), so edits to a bot module or its
 * handler files are seen by the next reload. TypeScript loads through tsx.
 */
export async function importFresh(file: string): Promise<unknown> {
  if (!registered) {
    registered = true;
    registerTsx();
    register(new URL('./fresh-import-hooks.js', import.meta.url));
  }
  generation += 1;
  const url = `${pathToFileURL(file).href}?studio-gen=${generation}`;
  try {
    return await nativeImport(url);
  } catch (error) {
    // A runtime that evaluates this file in a VM context of its own (a test runner) has no
    // native import here: its own import() still reloads the module, if not its imports.
    if ((error as { code?: unknown }).code !== 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING')
      throw error;
    return import(url);
  }
}
