import { fileURLToPath } from 'node:url';

/**
 * Node arguments that run the benchmark script `name` (e.g. `'target-server'`) the way this
 * process runs: the compiled JavaScript beside this file when `npm run bench` runs the
 * build under `.bench-build/` (as users run the package: plain node, compiled code), or
 * the TypeScript source through tsx when a bench file is started with `tsx`.
 * @example
 * spawn(process.execPath, [...benchScript('stub-api-server')]);
 */
export function benchScript(name: string): string[] {
  if (import.meta.url.endsWith('.js'))
    return [fileURLToPath(new URL(`./${name}.js`, import.meta.url))];
  return ['--import', 'tsx', fileURLToPath(new URL(`./${name}.ts`, import.meta.url))];
}
