/**
 * The built-in ways to ask for a person, per language. They are scored like a bot's own
 * intent examples (same typo and word-order tolerance), so an intent of the bot that fits
 * better still wins. A message counts as a request when it is close enough to one phrase
 * (cosine 0.5), so the phrases pair each way of asking (talk, speak, connect, put me
 * through) with each word for a person (agent, someone, staff, reception): "talk to an
 * agent" is near neither "talk to a person" nor "connect me to an agent" alone.
 */

/** Id of the handoff pseudo-intent inside the index (never returned as an intent). */
export const HANDOFF_ID = '__handoff';

/** Example phrases asking for a person. */
export const HANDOFF_PHRASES: Readonly<Record<string, readonly string[]>> = {
  en: [
    'talk to a person',
    'speak to a human',
    'can I talk to someone',
    'I want a real person',
    'connect me to an agent',
    'put me through to customer service',
    'let me speak to a manager',
    'human please',
    'I need to speak with a representative',
    'get me an operator',
    'is there a real person I can chat with',
    'transfer me to staff',
    'can I talk to an agent',
    'speak to an agent please',
    'I would like to talk to a member of staff',
    'can I speak to reception',
    'talk to customer service',
  ],
  es: [
    'hablar con una persona',
    'quiero hablar con un humano',
    'pásame con un agente',
    'atención al cliente',
    'necesito hablar con alguien',
    'un operador por favor',
    'quiero una persona real',
    'comunícame con un asesor',
    'con un encargado',
    'hablar con un empleado',
    'quiero hablar con un agente',
    'puedo hablar con un asesor',
    'hablar con recepción',
    'hablar con atención al cliente',
  ],
};
