import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * A name for this worker process, unique across restarts and hosts: used as the owner
 * of leases (conversation leases, the polling lease) so a lease names who holds it.
 * @example
 * workerId(); // 'web-1:4242:9f3ab2c1'
 */
export function workerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}
