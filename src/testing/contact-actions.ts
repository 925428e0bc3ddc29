import type { ContactMessage } from './bot-harness.js';

/** What the contact you play can send (each returns when the bot has answered). */
export interface ContactActions {
  /** Sends a text message. */
  say(text: string): Promise<void>;
  /** Sends an image (with a caption). */
  sendImage(caption?: string): Promise<void>;
  /** Sends a video (with a caption). */
  sendVideo(caption?: string): Promise<void>;
  /** Sends a voice note. */
  sendAudio(): Promise<void>;
  /** Sends a document (default `document.pdf`). */
  sendDocument(filename?: string): Promise<void>;
  /** Shares a location. */
  sendLocation(latitude: number, longitude: number, name?: string): Promise<void>;
  /** Shares a contact card (default: Grace Hopper, +15551230002). */
  sendContact(name?: string, phone?: string): Promise<void>;
  /** Sends a message type the API does not support. */
  sendUnsupported(): Promise<void>;
}

/** Sends one message as the contact; `shown` is its transcript line. */
export type SendAsContact = (spec: ContactMessage, shown: string) => Promise<void>;

/** The contact's sends, over one inbound function. */
export function contactActions(inbound: SendAsContact): ContactActions {
  const ready = { outcome: 'ready' as const, readyAfterMs: 0 };
  const captioned = (caption: string | undefined) => (caption === undefined ? {} : { caption });
  const shownCaption = (caption: string | undefined) =>
    caption === undefined ? '' : ` ${caption}`;
  return {
    say: (text) => inbound({ type: 'text', text }, text),
    sendImage: (caption) =>
      inbound(
        { type: 'image', ...captioned(caption), media: ready },
        `[image]${shownCaption(caption)}`,
      ),
    sendVideo: (caption) =>
      inbound(
        { type: 'video', ...captioned(caption), media: ready },
        `[video]${shownCaption(caption)}`,
      ),
    sendAudio: () => inbound({ type: 'audio', media: ready }, '[audio]'),
    sendDocument: (filename = 'document.pdf') =>
      inbound({ type: 'document', media: { ...ready, filename } }, `[document] ${filename}`),
    sendLocation: (latitude, longitude, name) =>
      inbound(
        {
          type: 'location',
          location: { latitude, longitude, ...(name === undefined ? {} : { name }) },
        },
        `[location] (${latitude}, ${longitude})`,
      ),
    sendContact: (name = 'Grace Hopper', phone = '+15551230002') =>
      inbound(
        { type: 'contacts', contacts: [{ name, phones: [phone] }] },
        `[contact card] ${name} ${phone}`,
      ),
    sendUnsupported: () => inbound({ type: 'unsupported' }, '[unsupported message]'),
  };
}
