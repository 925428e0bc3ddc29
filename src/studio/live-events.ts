import type { Request, Response } from 'express';

/**
 * Server-sent events for the studio page: one `change` event per burst of changes
 * (coalesced over `coalesceMs`), naming the conversations that changed; the page then
 * reads what it shows. A comment line every 15 s keeps idle connections open.
 */
export class LiveEvents {
  readonly #clients = new Set<Response>();
  readonly #coalesceMs: number;
  #changed = new Set<string>();
  #all = false;
  #timer: NodeJS.Timeout | undefined;
  #seq = 0;
  readonly #keepAlive: NodeJS.Timeout;

  constructor(options: { coalesceMs?: number } = {}) {
    this.#coalesceMs = options.coalesceMs ?? 40;
    this.#keepAlive = setInterval(() => {
      for (const res of this.#clients) res.write(': keep-alive\n\n');
    }, 15_000);
    this.#keepAlive.unref();
  }

  /** The express handler of `GET /api/events`. */
  handler = (req: Request, res: Response): void => {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
    });
    res.write(`retry: 1000\nevent: hello\ndata: ${JSON.stringify({ seq: this.#seq })}\n\n`);
    this.#clients.add(res);
    req.on('close', () => this.#clients.delete(res));
  };

  /** Something changed (for one conversation, or anything when undefined). */
  changed(conversationId?: string): void {
    if (conversationId === undefined) this.#all = true;
    else this.#changed.add(conversationId);
    this.#timer ??= setTimeout(() => this.#flush(), this.#coalesceMs);
  }

  /** Clients connected now. */
  get clients(): number {
    return this.#clients.size;
  }

  close(): void {
    clearInterval(this.#keepAlive);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    for (const res of this.#clients) res.end();
    this.#clients.clear();
  }

  #flush(): void {
    this.#timer = undefined;
    const data = JSON.stringify({
      seq: ++this.#seq,
      all: this.#all,
      conversations: [...this.#changed],
    });
    this.#changed = new Set();
    this.#all = false;
    for (const res of this.#clients) res.write(`event: change\ndata: ${data}\n\n`);
  }
}
