import { runLoad } from '../bench/http-load.js';
import { signedInboundCallback } from '../bench/callback-body.js';
import { pipeline } from '../bench/webhook-throughput.js';
import { spawnTarget } from '../bench/spawn-target.js';
import { startStubProcess } from '../bench/stub-process.js';
const modes = process.argv.slice(2);
const stub = await startStubProcess();
for (let round = 0; round < 2; round++) {
  const echoT = await spawnTarget('echo');
  const echo = await runLoad({ url: echoT.url, path: '/echo', connections: 32, durationSec: 4, makeRequest: (n) => signedInboundCallback(n, 2000, Date.now(), 'e' + round) });
  await echoT.stop();
  for (const mode of modes) {
    const t = await spawnTarget(mode as never, mode === 'bot-sqlite' ? `/tmp/prof17/q${Date.now()}.db` : `sb:bench:q${Date.now()}:`, { env: { STUB_URL: stub.url } });
    const s0 = await t.stats();
    const p = await pipeline([t], `q${round}${mode}${Date.now()}`);
    const s1 = await t.stats();
    await t.stop();
    console.log(`${mode}: echo ${echo.requestsPerSec.toFixed(0)} ack ${(p.load.requestsPerSec / echo.requestsPerSec * 100).toFixed(1)}% e2e ${(p.endToEndPerSec / echo.requestsPerSec * 100).toFixed(1)}% cpu/event ${((s1.cpuMicros - s0.cpuMicros) / (s1.events - s0.events)).toFixed(0)}µs events ${s1.events}`);
  }
}
await stub.stop();
