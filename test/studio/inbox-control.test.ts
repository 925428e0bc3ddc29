import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { createSandbox, SandboxControlError, type Sandbox } from '../../src/sandbox/index.js';

const PHONE = '+15551230001';

describe('sandbox inbox control (studio)', () => {
  let sandbox: Sandbox;
  afterEach(async () => sandbox.close());
  const start = (): Sandbox => (sandbox = createSandbox({ clock: new ManualClock(), tickMs: 0 }));

  it("should list a conversation's messages oldest first, by id or phone", () => {
    const { control } = start();
    const first = control.injectInbound({ type: 'text', from: PHONE, text: 'one' });
    control.injectInbound({ type: 'text', from: PHONE, text: 'two' });
    expect(control.messages(PHONE).map((m) => m.text?.body)).toEqual(['one', 'two']);
    expect(control.messages(first.conversationId)).toHaveLength(2);
    expect(() => control.messages('+15559999999')).toThrow(SandboxControlError);
  });

  it('should keep binary media given as base64 and return its bytes', () => {
    const { control } = start();
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    const message = control.injectInbound({
      type: 'image',
      from: PHONE,
      media: {
        contentBase64: bytes.toString('base64'),
        mimeType: 'image/png',
        filename: 'p.png',
        readyAfterMs: 0,
      },
    });
    const id = message.media?.id;
    expect(id).toBeDefined();
    expect(control.media(id ?? '')).toEqual({ mimeType: 'image/png', filename: 'p.png', bytes });
    expect(control.media('med_nope')).toBeUndefined();
    expect(() =>
      control.injectInbound({
        type: 'image',
        from: PHONE,
        media: { contentBase64: 'not base64!' },
      }),
    ).toThrow(/contentBase64/);
  });

  it('should let a teammate reply only while a person owns the conversation', () => {
    const { control } = start();
    control.injectInbound({ type: 'text', from: PHONE, text: 'hi' });
    expect(() => control.teammateReply(PHONE, 'hello')).toThrow(/take the conversation over/);
    control.takeOver(PHONE);
    expect(() => control.teammateReply(PHONE, '   ')).toThrow(/needs some text/);
    expect(() => control.teammateReply(PHONE, 'x'.repeat(4097))).toThrow(SandboxControlError);
    const reply = control.teammateReply(PHONE, 'Hello, Sam here.');
    expect(reply).toMatchObject({
      direction: 'outbound',
      type: 'text',
      text: { body: 'Hello, Sam here.' },
    });
    // Part of the history, not of the API's sends.
    expect(control.messages(PHONE).at(-1)?.id).toBe(reply.id);
    expect(control.sent()).toHaveLength(0);
  });
});
