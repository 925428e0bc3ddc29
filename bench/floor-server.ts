/**
 * The floor of the real-load benchmark: the least a bot must do per inbound message, in
 * its own process, written plainly with Node's own modules and libsql. Per signed
 * `message.received` callback on `POST /callbacks`: verify the HMAC over the raw bytes
 * (the scheme of src/api/callbacks.ts, constant time), parse the JSON, write one SQLite
 * transaction (WAL, synchronous=NORMAL, as the SQLite store opens its file: the dedup
 * mark and the conversation's state), answer 200, then make two POSTs to `<sink>/v1/messages`
 * over a keep-alive connection (fetch, as the bot's client does).
 *
 * `node floor-server.js <secret> <sqlite file> <sink url>`; prints `{"url": …}`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'libsql';

const [secret = '', file = '', sink = ''] = process.argv.slice(2);
const db = new Database(file);
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA synchronous = NORMAL');
db.exec(
  'CREATE TABLE IF NOT EXISTS seen (id TEXT PRIMARY KEY); CREATE TABLE IF NOT EXISTS state (conversation TEXT PRIMARY KEY, doc TEXT)',
);
const markSeen = db.prepare('INSERT OR IGNORE INTO seen (id) VALUES (?)');
const putState = db.prepare('INSERT OR REPLACE INTO state (conversation, doc) VALUES (?, ?)');
const write = db.transaction((id: string, conversation: string, doc: string) => {
  markSeen.run(id);
  putState.run(conversation, doc);
});

interface Inbound {
  data: { message: { id: string; conversationId: string }; conversation: { phoneNumber: string } };
}

const send = (to: string, text: string): Promise<unknown> =>
  fetch(`${sink}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer floor' },
    body: JSON.stringify({ messaging_product: 'whatsapp', to, type: 'text', text: { body: text } }),
  }).then((r) => r.arrayBuffer());

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const ts = String(req.headers['x-callback-timestamp'] ?? '');
    const given = Buffer.from(String(req.headers['x-callback-signature'] ?? ''));
    const mac = createHmac('sha256', secret).update(`${ts}.`).update(body).digest('hex');
    const expected = Buffer.from(`v1=${mac}`);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(401).end();
      return;
    }
    const event = JSON.parse(body.toString('utf8')) as Inbound;
    const { message, conversation } = event.data;
    write(message.id, message.conversationId, JSON.stringify({ state: 'welcome', at: ts }));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    void send(conversation.phoneNumber, 'Hi! I am the support desk assistant.')
      .then(() => send(conversation.phoneNumber, 'How can I help you today?'))
      .catch((error: unknown) => process.stderr.write(`floor send failed: ${String(error)}\n`));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
const stop = (): void => {
  server.close();
  db.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
