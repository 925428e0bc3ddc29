import { defineBot } from 'switchboard';
import type { Handler } from 'switchboard';

/** Handoff requests noted by `notifyAgents` (an in-memory stand-in for a ticket system). */
export const handoffRequests: { contact: string; phone: string }[] = [];

/** Tells the team that a customer asked for a person (here: remembers the request). */
const notifyAgents: Handler = ({ input, logger }) => {
  const contact = String(input['contactName'] ?? '');
  const phone = String(input['contactPhone'] ?? '');
  handoffRequests.push({ contact, phone });
  logger.info('handoff requested', { contact });
  return { outcome: 'done' };
};

/**
 * The support desk: a menu of reply buttons, an FAQ list, handoff to a person that
 * resumes when the conversation is released, and "menu" / "stop" at any time.
 */
export const bot = defineBot({
  flows: [new URL('../../flows/support-desk.yaml', import.meta.url)],
  handlers: { notifyAgents },
});
