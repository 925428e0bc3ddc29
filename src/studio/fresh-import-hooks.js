/* global URL */
// Module hooks of `switchboard studio` (registered with node:module `register`): a module
// imported with `?studio-gen=N` passes the same query on to the relative imports it makes,
// so a reloaded bot gets fresh copies of its own files (handlers) while packages, and
// switchboard itself (imported by name), stay shared. The query only makes a new module
// identity: loading strips it, so the loaders behind (tsx) see the plain file.
const QUERY = /[?&]studio-gen=(\d+)/;

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  const generation = context.parentURL === undefined ? null : QUERY.exec(context.parentURL);
  const relative = specifier.startsWith('./') || specifier.startsWith('../');
  if (generation === null || !relative || !result.url.startsWith('file:') || QUERY.test(result.url))
    return result;
  const separator = result.url.includes('?') ? '&' : '?';
  return { ...result, url: `${result.url}${separator}studio-gen=${generation[1]}` };
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !QUERY.test(url)) return nextLoad(url, context);
  const plain = new URL(url);
  plain.searchParams.delete('studio-gen');
  return nextLoad(plain.href, context);
}
