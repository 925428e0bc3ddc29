import { defineBot, defineHandler } from 'switchboard';

/** Quotes requested, for the tests: size, the photo's content type, the price. */
export const quotes: { size: string; photoType: string; price: number }[] = [];

const PRICES: Readonly<Record<string, number>> = { small: 12, medium: 20, large: 35 };

/**
 * Prices a parcel. It downloads the parcel photo through the API client (the media id is
 * the `parcel` variable of the `ask`; a download holds one of the 8 media stream slots
 * until its stream is read) to check that it is an image.
 */
const quote = defineHandler(
  { outcomes: ['ok', 'unreadablePhoto'], sets: ['price'] },
  async ({ input, api }) => {
    const size = String(input['size']);
    const photo = await api.downloadMedia(String(input['photo']));
    let bytes = 0;
    for await (const chunk of photo.stream) bytes += (chunk as Buffer).length;
    if (!photo.contentType.startsWith('image/') || bytes === 0)
      return { outcome: 'unreadablePhoto' };
    const price = PRICES[size] ?? 20;
    quotes.push({ size, photoType: photo.contentType, price });
    return { outcome: 'ok', vars: { price } };
  },
);

/** Counts the contact's bookings in contact memory (`contact.bookings`). */
const countBooking = defineHandler({ outcomes: ['ok'] }, ({ input }) => ({
  outcome: 'ok',
  vars: { 'contact.bookings': Number(input['bookings'] ?? 0) + 1 },
}));

export const bot = defineBot({
  flows: ['../../flows/courier-booking.yaml', '../../flows/collect-address.yaml'],
  handlers: { quote, countBooking },
  dir: import.meta.dirname,
});
