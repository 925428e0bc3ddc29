// Used in a checkout of the repository only (see switchboard.js): makes `switchboard` and
// `switchboard/testing` resolve to the TypeScript sources (the "switchboard-source" export
// condition, as tsconfig.json and vitest.config.ts do) and loads TypeScript through tsx.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

const HOOKS = `export async function resolve(specifier, context, next) {
  return next(specifier, { ...context, conditions: [...context.conditions, 'switchboard-source'] });
}`;

/** Registers the source condition and tsx once per process. */
export function registerSourceConditions() {
  const marker = Symbol.for('switchboard.typescript-loader');
  if (globalThis[marker] === true) return;
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`);
  registerTsx();
  globalThis[marker] = true;
}
