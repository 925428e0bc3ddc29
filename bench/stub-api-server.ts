/**
 * The stub Messaging API as its own process (`tsx bench/stub-api-server.ts`), so the
 * bot under test does not also carry the API server's work on its event loop (the real
 * API is remote). Prints `{"url": ...}` once listening; exits when its stdin closes
 * (the parent died or stopped it).
 */
import { startStubApi } from './stub-api.js';

const stub = await startStubApi();
process.stdin.on('end', () => process.exit(0));
process.stdin.on('close', () => process.exit(0));
process.stdin.resume();
process.stdout.write(`${JSON.stringify({ url: stub.url })}\n`);
