import type { Clock } from '../core/clock.js';
import { renderView, type MessageView } from './message-view.js';

/** A readable log of a conversation: what you did, what the bot sent, what happened. */
export class Transcript {
  readonly #lines: string[] = [];
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  you(text: string): void {
    this.#add('you', [text]);
  }

  bot(view: MessageView): void {
    this.#add('bot', renderView(view));
  }

  system(text: string): void {
    this.#add('---', [text]);
  }

  /** The transcript, one line per entry line, with the clock time of each entry. */
  text(): string {
    return this.#lines.length === 0 ? '  (nothing happened yet)' : this.#lines.join('\n');
  }

  #add(who: string, lines: readonly string[]): void {
    const time = new Date(this.#clock.now()).toISOString().slice(11, 19);
    lines.forEach((line, i) =>
      this.#lines.push(i === 0 ? `  ${time} ${who.padEnd(3)} ${line}` : `               ${line}`),
    );
  }
}
