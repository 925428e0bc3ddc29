/**
 * Questions about the bot itself ("are you a real person?", "is this a bot?", "am I talking
 * to a machine?", "¿eres una persona?", "¿estoy hablando con un robot?"): they ask what the
 * contact is talking to, not to be passed to someone else. Their words are those of the
 * handoff phrases ("a real person"), so similarity alone took them for a request; a
 * request read from the words ("is there a real person there", "I want a real person",
 * person-request.ts) is still one.
 */
import { fold } from '../text/fold.js';

/** Greetings and fillers that may come before the question ("hi, are you a bot"). */
const OPENER = String.raw`(?:(?:hi|hello|hey|ok|okay|so|wait|sorry|hola|oye|perdona|vale)\W+)*`;

/** The question's opening (folded): the contact asks what "you" or "this" is. */
const ABOUT_BOT = new RegExp(
  '^' +
    OPENER +
    String.raw`(?:(?:are|r)\s+(?:you|u)|is\s+this|is\s+it|am\s+i\s+(?:talking|speaking|chatting|writing)\s+(?:to|with)` +
    String.raw`|eres|sois|es\s+esto|estoy\s+hablando\s+con|hablo\s+con\s+(?:un|una)\s+(?:bot|robot|maquina|persona|humano|humana))\b`,
);

/** Words of what the contact asks the bot to be or not be. */
const WHAT =
  /\b(?:person|human|people|bot|robot|machine|ai|real|automated|computer|persona|humano|humana|maquina|real|automatico|ordenador)\b/;

/**
 * Whether `text` asks what the bot is (a person, a machine), English or Spanish.
 * @example
 * isBotQuestion('are you a real person'); // true
 * isBotQuestion('¿eres un bot?'); // true
 * isBotQuestion('I want a real person'); // false
 * isBotQuestion('are you open on Sunday'); // false
 */
export function isBotQuestion(text: string): boolean {
  const folded = fold(text.trim()).replace(/^[¿¡\s]+/, '');
  return ABOUT_BOT.test(folded) && WHAT.test(folded);
}
