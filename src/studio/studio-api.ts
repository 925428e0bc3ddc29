import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { parseDuration } from '../core/duration.js';
import { SandboxControlError } from '../sandbox/index.js';
import { CustomerMessage, toInbound } from './customer-input.js';
import { NewCustomer, type CustomerBook } from './customers.js';
import { botView } from './bot-view.js';
import type { LiveEvents } from './live-events.js';
import { phoneMessages, windowView } from './phone-view.js';
import type { StudioBotState } from './studio.js';
import type { StudioRuntime } from './studio-runtime.js';

/** What the API router needs from the studio. */
export interface StudioApiDeps {
  readonly runtime: StudioRuntime;
  readonly customers: CustomerBook;
  readonly live: LiveEvents;
  botState(): StudioBotState;
  reload(): Promise<StudioBotState>;
}

/** A request the page got wrong: answered 400 with a message saying what to fix. */
class BadRequest extends Error {
  override readonly name = 'BadRequest';
}

const Advance = z.strictObject({ by: z.string().trim().min(1) });
const Reply = z.strictObject({ text: z.string() });

/**
 * The studio page's JSON API under `/api`, and its live events. Everything goes through
 * the sandbox's control operations and the bot's public API; no API key ever leaves.
 */
export function studioApi(deps: StudioApiDeps): Router {
  const { runtime, customers, live } = deps;
  const { control } = runtime.sandbox;
  const router = Router();
  router.use(express.json({ limit: '8mb' }));

  const parse = <T>(schema: z.ZodType<T>, body: unknown): T => {
    const r = schema.safeParse(body);
    if (r.success) return r.data;
    const first = r.error.issues[0];
    const where = first === undefined || first.path.length === 0 ? '' : `${first.path.join('.')}: `;
    throw new BadRequest(`${where}${first?.message ?? 'invalid request'}`);
  };
  const customerOf = (req: Request) => {
    const phone = String(req.params['phone']);
    const customer = customers.find(phone);
    if (customer === undefined) throw new BadRequest(`no customer ${phone}`);
    return customer;
  };
  const conversationOf = (phone: string) =>
    control.conversations().find((c) => c.phoneNumber === phone);
  const requireConversation = (phone: string) => {
    const conversation = conversationOf(phone);
    if (conversation === undefined)
      throw new BadRequest(
        `${phone} has no conversation yet: send a message as the customer first`,
      );
    return conversation;
  };
  const handled =
    (fn: (req: Request, res: Response) => unknown) =>
    (req: Request, res: Response, next: NextFunction): void => {
      Promise.resolve()
        .then(() => fn(req, res))
        .then((body) => {
          if (!res.headersSent) res.json(body ?? { ok: true });
        })
        .catch(next);
    };

  router.get('/events', live.handler);

  router.get(
    '/state',
    handled(() => {
      const now = runtime.clock.now();
      const conversations = control.conversations();
      // Contacts a bot wrote to first (bot.start, notifications) become customers too.
      for (const c of conversations)
        if (customers.find(c.phoneNumber) === undefined)
          customers.add({ phone: c.phoneNumber, name: c.contactName });
      const state = deps.botState();
      return {
        clock: { now },
        bot: botView(state, (flowId) => runtime.recorder.analytics.figures(flowId, now)),
        customers: customers.all().map((customer) => {
          const conversation = conversations.find((c) => c.phoneNumber === customer.phone);
          const doc =
            conversation === undefined ? undefined : runtime.recorder.doc(conversation.id);
          const last = conversation?.lastMessage;
          return {
            ...customer,
            conversationId: conversation?.id ?? null,
            humanOwned: conversation?.humanOwned ?? false,
            window: windowView(
              conversation?.lastInboundAt == null
                ? undefined
                : Date.parse(conversation.lastInboundAt),
              now,
            ),
            flowId: doc?.flowId ?? null,
            state: doc?.state ?? null,
            ended: doc?.ended ?? false,
            lastMessageAt: last === null || last === undefined ? null : last.occurredAt,
            preview: last === null || last === undefined ? null : preview(last),
          };
        }),
      };
    }),
  );

  router.get(
    '/customers/:phone',
    handled(async (req) => {
      const customer = customerOf(req);
      const conversation = conversationOf(customer.phone);
      const now = runtime.clock.now();
      if (conversation === undefined) {
        return {
          customer,
          conversationId: null,
          messages: [],
          doc: null,
          timeline: [],
          window: windowView(undefined, now),
        };
      }
      const botIds = new Set(control.sent().map((s) => s.messageId));
      const timeline = runtime.recorder.timeline(conversation.id);
      const view = await runtime.bot().inspect(conversation.id);
      return {
        customer,
        conversationId: conversation.id,
        humanOwned: conversation.humanOwned,
        window: windowView(
          conversation.lastInboundAt === null ? undefined : Date.parse(conversation.lastInboundAt),
          now,
        ),
        messages: phoneMessages(
          control.messages(conversation.id),
          botIds,
          timeline,
          runtime.sandbox.config.templates,
        ),
        doc: view ?? null,
        timeline,
      };
    }),
  );

  router.post(
    '/customers',
    handled((req) => {
      try {
        const customer = customers.add(parse(NewCustomer, req.body ?? {}));
        live.changed();
        return customer;
      } catch (error) {
        if (error instanceof RangeError) throw new BadRequest(error.message);
        throw error;
      }
    }),
  );

  router.post(
    '/customers/:phone/send',
    handled((req) => {
      const customer = customerOf(req);
      const message = parse(CustomerMessage, req.body);
      const sent = control.injectInbound(toInbound(message, customer.phone, customer.name));
      live.changed(sent.conversationId);
      return { messageId: sent.id, conversationId: sent.conversationId };
    }),
  );

  router.post(
    '/customers/:phone/takeover',
    handled((req) => {
      const conversation = requireConversation(customerOf(req).phone);
      control.takeOver(conversation.id);
      runtime.recorder.note(conversation.id, 'a teammate took the conversation over (Take over)');
      return { humanOwned: true };
    }),
  );

  router.post(
    '/customers/:phone/release',
    handled((req) => {
      const conversation = requireConversation(customerOf(req).phone);
      control.release(conversation.id);
      runtime.recorder.note(conversation.id, 'released to the API (Release to API)');
      return { humanOwned: false };
    }),
  );

  router.post(
    '/customers/:phone/reply',
    handled((req) => {
      const conversation = requireConversation(customerOf(req).phone);
      const { text } = parse(Reply, req.body);
      const message = control.teammateReply(conversation.id, text);
      runtime.recorder.note(conversation.id, `teammate replied: "${text.trim()}"`);
      return { messageId: message.id };
    }),
  );

  router.post(
    '/clock/advance',
    handled(async (req) => {
      const { by } = parse(Advance, req.body);
      const d = parseDuration(by);
      if (d.status === 'invalid') throw new BadRequest(`by: ${d.message}`);
      if (d.ms <= 0) throw new BadRequest('by: advance by more than 0');
      runtime.recorder.note(undefined, `clock advanced by ${by}`);
      await runtime.advance(d.ms);
      return { now: runtime.clock.now() };
    }),
  );

  router.post(
    '/reload',
    handled(async () => ({ error: (await deps.reload()).error ?? null })),
  );

  router.get('/media/:id', (req, res) => {
    const media = control.media(String(req.params['id']));
    if (media === undefined) {
      res.status(404).json({ error: 'no such media' });
      return;
    }
    res.set('Content-Type', media.mimeType);
    res.set(
      'Content-Disposition',
      `inline; filename="${media.filename.replace(/["\\\r\n]/g, '_')}"`,
    );
    res.set('X-Content-Type-Options', 'nosniff');
    // An uploaded file is shown, never run: no scripts, whatever its type says.
    res.set(
      'Content-Security-Policy',
      "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
    );
    res.send(media.bytes);
  });

  router.use((_req: Request, res: Response) => {
    res.status(404).json({ error: 'no such studio API route' });
  });
  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof BadRequest) return void res.status(400).json({ error: error.message });
    if (error instanceof SandboxControlError)
      return void res.status(error.code === 'not_found' ? 404 : 400).json({ error: error.message });
    const type = (error as { type?: unknown } | undefined)?.type;
    if (type === 'entity.parse.failed')
      return void res.status(400).json({ error: 'the body is not valid JSON' });
    if (type === 'entity.too.large')
      return void res
        .status(413)
        .json({ error: 'the file is too large (the studio takes up to 5 MB)' });
    res.status(500).json({ error: error instanceof Error ? error.message : String(error) });
  });
  return router;
}

function preview(message: {
  direction: string;
  type: string;
  text?: { body?: string | undefined } | undefined;
  interactive?: unknown;
}): string {
  const who = message.direction === 'inbound' ? '' : '↩ ';
  const reply = message.interactive as { label?: unknown; body?: { text?: unknown } } | undefined;
  const text =
    message.text?.body ??
    (typeof reply?.label === 'string' ? reply.label : undefined) ??
    (typeof reply?.body?.text === 'string' ? reply.body.text : undefined) ??
    `[${message.type}]`;
  return `${who}${text}`.slice(0, 80);
}
