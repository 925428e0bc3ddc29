/**
 * One line for a server that cannot listen, e.g. `port 3000 is in use; choose another
 * with --port`; undefined for an error that is not about the address.
 * @example
 * const line = listenFailure(error, { port: 3000, host: '0.0.0.0', flag: '--port' });
 */
export function listenFailure(
  error: unknown,
  where: { readonly port: number; readonly host: string; readonly flag: string },
): string | undefined {
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${where.port} is in use; choose another with ${where.flag}`;
    case 'EACCES':
      return `port ${where.port} needs privileges this process lacks; choose one above 1023 with ${where.flag}`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `cannot listen on ${where.host}: not an address of this machine; choose another with --host`;
    default:
      return undefined;
  }
}
