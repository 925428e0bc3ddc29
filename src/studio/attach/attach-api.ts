import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Clock } from '../../core/clock.js';
import { botView } from '../bot-view.js';
import type { LiveEvents } from '../live-events.js';
import type { StudioBotState } from '../studio.js';
import { attachAnalytics } from './attach-analytics.js';
import type { AttachSource, AttachSnapshot } from './attach-source.js';
import { conversationDetail, inboxRow, stateTrail } from './attach-view.js';

/** What the attached studio's API needs. */
export interface AttachApiDeps {
  readonly source: AttachSource;
  readonly live: LiveEvents;
  readonly clock: Clock;
  /** What the page says it is attached to. */
  readonly storeDescription: string;
  botState(): StudioBotState;
}

/** The answer to anything that would send or change state, in attach mode. */
export const READ_ONLY_REFUSAL =
  'the studio is attached to a production store read-only: it never sends, takes over, replies or changes state (run `switchboard studio` without --attach to try the bot in a sandbox)';

/**
 * The attached studio's JSON API under `/api`: the same reads as the sandbox studio's
 * (`/state`, `/customers/:phone`, `/events`), served from real conversations; every other
 * method answers 405 with {@link READ_ONLY_REFUSAL}.
 */
export function attachApi(deps: AttachApiDeps): Router {
  const { source, live, clock } = deps;
  const router = Router();
  let latest: AttachSnapshot | undefined;
  const read = async (): Promise<AttachSnapshot> => (latest = await source.snapshot());
  const handled =
    (fn: (req: Request) => Promise<unknown>) =>
    (req: Request, res: Response, next: NextFunction): void => {
      fn(req).then((body) => res.json(body), next);
    };

  router.use((req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    res.set('Allow', 'GET, HEAD');
    res.status(405).json({ error: READ_ONLY_REFUSAL });
  });

  router.get('/events', live.handler);

  router.get(
    '/state',
    handled(async () => {
      const now = clock.now();
      const snapshot = await read();
      const valid = snapshot.conversations.filter((c) => c.status === 'valid');
      const analytics = attachAnalytics(valid.map(stateTrail));
      const rows = valid
        .map((c) => inboxRow(c, now))
        .sort((a, b) => (b.lastMessageAt ?? '').localeCompare(a.lastMessageAt ?? ''));
      // One row per customer: their newest conversation.
      const seen = new Set<string>();
      const customers = [];
      for (const row of rows) {
        if (seen.has(row.phone)) continue;
        seen.add(row.phone);
        customers.push(row);
      }
      return {
        mode: 'attach',
        attached: {
          store: deps.storeDescription,
          conversations: snapshot.conversations.length,
          truncated: snapshot.truncated,
          unreadable: snapshot.conversations.flatMap((c) =>
            c.status === 'invalid' ? [c.error] : [],
          ),
        },
        clock: { now },
        bot: botView(deps.botState(), (flowId) => analytics.figures(flowId, now)),
        customers,
      };
    }),
  );

  router.get(
    '/customers/:phone',
    handled(async (req) => {
      const phone = String(req.params['phone']);
      const snapshot = latest ?? (await read());
      const ids = snapshot.conversations.flatMap((c) =>
        c.status === 'valid' && c.doc.contact.phone === phone ? [c] : [],
      );
      const now = clock.now();
      const newest = ids
        .map((c) => ({ c, at: inboxRow(c, now).lastMessageAt ?? '' }))
        .sort((a, b) => b.at.localeCompare(a.at))[0]?.c;
      if (newest === undefined)
        throw new NotFound(`no conversation of ${phone} in the attached store`);
      const found = await source.conversation(newest.id, now);
      if (found.status === 'absent')
        throw new NotFound(`conversation ${newest.id} is gone (expired or forgotten)`);
      if (found.status === 'invalid') throw new Unreadable(found.error);
      return conversationDetail(found.view, now);
    }),
  );

  router.use((_req: Request, res: Response) => {
    res.status(404).json({ error: 'no such studio API route' });
  });
  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof NotFound) return void res.status(404).json({ error: error.message });
    if (error instanceof Unreadable) return void res.status(422).json({ error: error.message });
    res.status(503).json({
      error: `the attached store did not answer: ${error instanceof Error ? error.message : String(error)}`,
    });
  });
  return router;
}

class NotFound extends Error {
  override readonly name = 'NotFound';
}

class Unreadable extends Error {
  override readonly name = 'Unreadable';
}
