import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestConversation, expectSent, type TestConversation } from 'switchboard/testing';
import { bot, undeliverable } from './bot.js';

describe('order-status', () => {
  let chat: TestConversation;
  beforeEach(async () => {
    undeliverable.length = 0;
    chat = await createTestConversation(bot);
  });
  afterEach(async () => chat.close());

  it('should capture a valid order number and retry an invalid one', async () => {
    await chat.say('hi');
    expectSent(chat).text("Hi Ada Lovelace! Let's find your order.");
    expectSent(chat).text(/What's your order number/);
    await chat.say('12-34');
    expectSent(chat).text('Order numbers have 6 to 10 digits. Please try again.');
    await chat.say('2345678');
    expectSent(chat).text('Order 2345678 is on its way. It should arrive on Thursday.');
    expectSent(chat).buttons(['Another order', 'No, thanks']);
  });

  it('should send the invoice, the pickup point and the store contact card for a ready order', async () => {
    await chat.say('hi');
    await chat.say('1234567');
    expectSent(chat).text('Good news! Order 1234567 is ready for pickup.');
    const invoice = expectSent(chat).type('document');
    expect(invoice).toMatchObject({
      link: 'https://store.example.com/invoices/1234567.pdf',
      filename: 'invoice-1234567.pdf',
      caption: 'Your invoice for order 1234567',
    });
    expect(expectSent(chat).type('location')).toMatchObject({
      latitude: 52.3731,
      longitude: 4.8922,
      name: 'Switchboard Store pickup point',
    });
    expect(expectSent(chat).type('contacts')).toMatchObject({
      name: 'Switchboard Store',
      phones: ['+31201234567'],
    });
    expectSent(chat).buttons(['Another order', 'No, thanks']);
  });

  it('should tell the contact when an order is not found and offer another lookup', async () => {
    await chat.say('hi');
    await chat.say('9999999');
    expectSent(chat).text(/couldn't find that order/);
    await chat.tap('Another order');
    expectSent(chat).text(/What's your order number/);
  });

  it('should report a send rejected because the contact opted out, and send nothing more', async () => {
    await chat.say('hi');
    chat.setContactState('opted_out');
    await chat.say('1234567');
    expect(chat.rejections()).toContain('contact_opted_out');
    expect(undeliverable).toEqual([
      { reason: 'opted_out', code: 'contact_opted_out', orderNumber: '1234567' },
    ]);
    expectSent(chat).nothing();
  });

  it('should report a message that failed after it was accepted', async () => {
    await chat.say('hi');
    await chat.say('1234567');
    const invoice = expectSent(chat).type('document');
    await chat.failMessage('media_download_failed', invoice.messageId);
    expect(undeliverable).toEqual([
      { reason: 'failed_later', code: 'media_download_failed', orderNumber: '1234567' },
    ]);
  });

  it('should say goodbye after 30 minutes without an answer', async () => {
    await chat.say('hi');
    await chat.say('3456789');
    await chat.advance('31m');
    expectSent(chat).text('Thanks, Ada Lovelace. Have a nice day!');
  });
});
