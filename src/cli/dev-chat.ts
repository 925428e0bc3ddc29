import { createInterface } from 'node:readline';
import { parseDuration } from '../core/duration.js';
import type { BotHarness, ContactMessage } from '../testing/bot-harness.js';
import {
  renderView,
  viewOfRequest,
  type MessageView,
  type OptionView,
} from '../testing/message-view.js';

/** Options of {@link runChat}. */
export interface ChatOptions {
  readonly harness: BotHarness;
  /** The contact you play. */
  readonly phone: string;
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  /** How often messages the bot sends on its own (timers, polling) are shown, ms. */
  readonly watchMs?: number;
}

/** The prompt printed whenever the bot has settled and waits for you. */
export const CHAT_PROMPT = 'you> ';

export const CHAT_HELP = `Type a message and press Enter. Pick a button or list row by its number.
Commands:
  /image [caption]          send an image
  /document [filename]      send a document
  /audio                    send a voice note
  /video [caption]          send a video
  /location [lat lng]       send a location (default: 52.3731 4.8922)
  /contact [name] [phone]   send a contact card
  /unsupported              send a message type the API does not support
  /takeover                 a person takes the conversation over (the bot goes quiet)
  /release                  release the conversation to the API (the bot resumes)
  /advance <duration>       move the clock, e.g. /advance 25h, /advance 30m
  /state                    show the conversation's state and variables
  /help                     show this help
  /quit                     leave (Ctrl+D works too)`;

/**
 * The terminal chat of `switchboard dev`: you are the contact. Works with piped
 * (non-TTY) input: lines are handled one at a time, each turn ends with the prompt once
 * the bot is idle, and end of input ends the chat.
 */
export async function runChat(options: ChatOptions): Promise<void> {
  const { harness, phone, output } = options;
  const { control } = harness.sandbox;
  const write = (text: string): void => void output.write(text);
  let seen = control.sent().length;
  let menu: readonly OptionView[] = [];

  const flush = (): boolean => {
    const records = control.sent();
    const fresh = records.slice(seen).filter((r) => r.to === phone);
    seen = records.length;
    for (const r of fresh) printBot(viewOfRequest(r.request));
    return fresh.length > 0;
  };
  const printBot = (view: MessageView): void => {
    if (view.type === 'buttons' || view.type === 'list') menu = view.options;
    renderView(view).forEach((line, i) => write(`${i === 0 ? 'bot> ' : '     '}${line}\n`));
  };
  const unsubscribe = harness.bot.on('effect', ({ outcome }) => {
    if (outcome.startsWith('rejected:'))
      write(`  ! the API rejected a send: ${outcome.slice('rejected:'.length)}\n`);
  });
  const conversationId = (): string | undefined =>
    control.conversations().find((c) => c.phoneNumber === phone)?.id;
  const inbound = async (spec: ContactMessage): Promise<void> => {
    control.injectInbound({ ...spec, from: phone });
    await harness.settle();
  };

  const handle = async (line: string): Promise<'quit' | 'continue'> => {
    const text = line.trim();
    if (text === '') return 'continue';
    if (/^\d{1,2}$/.test(text)) {
      const option = menu[Number(text) - 1];
      if (option === undefined) {
        write(
          menu.length === 0
            ? '  (no menu to pick from; type text instead)\n'
            : `  (pick 1 to ${menu.length})\n`,
        );
        return 'continue';
      }
      write(`  (you tapped "${option.title}")\n`);
      await inbound({ type: 'interactive', optionId: option.optionId, label: option.title });
      return 'continue';
    }
    if (!text.startsWith('/')) {
      await inbound({ type: 'text', text });
      return 'continue';
    }
    const [command = '', ...args] = text.split(/\s+/);
    const rest = args.join(' ');
    switch (command.toLowerCase()) {
      case '/help':
        write(`${CHAT_HELP}\n`);
        break;
      case '/quit':
      case '/exit':
        return 'quit';
      case '/image':
        await inbound({
          type: 'image',
          ...(rest === '' ? {} : { caption: rest }),
          media: { outcome: 'ready', readyAfterMs: 0 },
        });
        break;
      case '/audio':
        await inbound({ type: 'audio', media: { outcome: 'ready', readyAfterMs: 0 } });
        break;
      case '/video':
        await inbound({
          type: 'video',
          ...(rest === '' ? {} : { caption: rest }),
          media: { outcome: 'ready', readyAfterMs: 0 },
        });
        break;
      case '/document':
        await inbound({
          type: 'document',
          media: {
            outcome: 'ready',
            readyAfterMs: 0,
            filename: rest === '' ? 'document.pdf' : rest,
          },
        });
        break;
      case '/location': {
        const [lat = 52.3731, lng = 4.8922] = args.slice(0, 2).map(Number);
        if (
          !Number.isFinite(lat) ||
          !Number.isFinite(lng) ||
          Math.abs(lat) > 90 ||
          Math.abs(lng) > 180
        ) {
          write('  usage: /location <latitude -90..90> <longitude -180..180>\n');
          break;
        }
        await inbound({ type: 'location', location: { latitude: lat, longitude: lng } });
        break;
      }
      case '/contact': {
        const phoneArg = args.find((a) => /^\+\d{8,15}$/.test(a)) ?? '+15551230002';
        const name = args.filter((a) => a !== phoneArg).join(' ') || 'Grace Hopper';
        await inbound({ type: 'contacts', contacts: [{ name, phones: [phoneArg] }] });
        break;
      }
      case '/unsupported':
        await inbound({ type: 'unsupported' });
        break;
      case '/takeover':
      case '/release': {
        const id = conversationId();
        if (id === undefined) {
          write('  (no conversation yet: say something first)\n');
          break;
        }
        const owned = control.conversations().find((c) => c.id === id)?.humanOwned === true;
        if (command === '/release' && !owned) {
          write(
            '  (nobody has taken the conversation over, so there is nothing to release; /takeover first)\n',
          );
          break;
        }
        if (command === '/takeover' && owned) {
          write('  (a person already owns the conversation; /release gives it back to the bot)\n');
          break;
        }
        if (command === '/takeover') control.takeOver(id);
        else control.release(id);
        write(
          command === '/takeover'
            ? '  (a person took the conversation over; the bot stays quiet)\n'
            : '  (released to the API; the bot resumes)\n',
        );
        await harness.settle();
        break;
      }
      case '/advance': {
        const d = parseDuration(rest);
        if (rest === '' || d.status === 'invalid') {
          write('  usage: /advance <duration>, e.g. /advance 25h\n');
          break;
        }
        await harness.advance(d.ms);
        write(
          `  (clock advanced by ${rest}; now ${new Date(harness.clock.now()).toISOString()})\n`,
        );
        break;
      }
      case '/state':
        await printState();
        break;
      default:
        write(`  unknown command ${command}; /help lists the commands\n`);
    }
    return 'continue';
  };

  const printState = async (): Promise<void> => {
    const id = conversationId();
    const view = id === undefined ? undefined : await harness.bot.inspect(id);
    if (view === undefined) {
      write('  (no conversation yet)\n');
      return;
    }
    const window =
      control.conversations().find((c) => c.id === id)?.windowOpen === true ? 'open' : 'closed';
    write(
      `  flow ${view.flowId}@${view.flowVersion}  state ${view.state}${view.ended ? ' (ended)' : ''}\n`,
    );
    write(
      `  humanOwned ${String(view.humanOwned)}  window ${window}  held sends ${view.heldSends}\n`,
    );
    write(`  vars ${JSON.stringify(view.vars)}\n`);
  };

  // Messages the bot sends by itself (timers, polling) are shown as they come.
  let busy = false;
  const watch = setInterval(() => {
    if (!busy && flush()) write(CHAT_PROMPT);
  }, options.watchMs ?? 500);
  watch.unref();

  write(CHAT_PROMPT);
  const rl = createInterface({ input: options.input, terminal: false });
  // Piped input is not echoed by a terminal: echo it so the session reads like a chat.
  const echo = (options.input as { isTTY?: boolean }).isTTY !== true;
  try {
    for await (const line of rl) {
      busy = true;
      if (echo) write(`${line}\n`);
      let result: 'quit' | 'continue';
      try {
        result = await handle(line);
      } catch (error) {
        write(`  error: ${error instanceof Error ? error.message : String(error)}\n`);
        result = 'continue';
      }
      flush();
      busy = false;
      if (result === 'quit') break;
      write(CHAT_PROMPT);
    }
  } finally {
    clearInterval(watch);
    unsubscribe();
    rl.close();
  }
  write('\nbye\n');
}
