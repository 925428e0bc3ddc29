/** Set once TypeScript modules can be imported (by the repository's bin or by us). */
const MARKER = Symbol.for('switchboard.typescript-loader');

const TYPESCRIPT = /\.(?:c|m)?tsx?$/i;

/**
 * Makes `import()` of a TypeScript file work: registers tsx's loader the first time a
 * `.ts` / `.mts` / `.cts` / `.tsx` bot module is loaded. The compiled package itself never
 * goes through tsx; only the user's own TypeScript does.
 */
export async function ensureTypeScriptLoader(path: string): Promise<void> {
  const global = globalThis as Record<symbol, unknown>;
  if (!TYPESCRIPT.test(path) || global[MARKER] === true) return;
  // Both hooks: a `.ts` file in a package without `"type": "module"` is CommonJS to Node,
  // and only tsx's CommonJS hook compiles its import/export syntax (without it Node tries
  // require(esm) on the file it is importing, a cycle).
  const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
  esm.register();
  cjs.register();
  global[MARKER] = true;
}
