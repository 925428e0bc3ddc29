/**
 * The lean stub Messaging API (bench/lean-stub.ts) as its own process, shared by every
 * worker of the scale-out benchmark (`STUB_URL`). Prints `{"url": ...}` once listening;
 * exits when its stdin closes (the parent died or stopped it).
 */
import { startLeanStub } from './lean-stub.js';

const stub = await startLeanStub();
process.stdin.on('end', () => process.exit(0));
process.stdin.on('close', () => process.exit(0));
process.stdin.resume();
process.stdout.write(`${JSON.stringify({ url: stub.url })}\n`);
