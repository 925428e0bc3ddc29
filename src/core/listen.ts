/**
 * Starts an HTTP app on `host:port` (0 = an ephemeral port) and answers its server and
 * its base URL (an IPv6 host in brackets).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What can listen: an express app or a node:http server. */
interface Listenable {
  listen(port: number, host: string, done: (error?: Error) => void): Server;
}

/**
 * @example
 * const { server, url } = await listenOn(app, 0, '127.0.0.1'); // url: 'http://127.0.0.1:41234/'
 */
export async function listenOn(
  app: Listenable,
  port: number,
  host: string,
): Promise<{ server: Server; url: string }> {
  const server = await new Promise<Server>((done, fail) => {
    const s = app.listen(port, host, (e?: Error) => (e === undefined ? done(s) : fail(e)));
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/`,
  };
}
