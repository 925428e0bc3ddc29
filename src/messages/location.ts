/**
 * Location content (spec 4.5): finite latitude -90..90 and longitude -180..180, optional
 * name and address up to 1,000 characters each.
 */
import { z } from 'zod';
import { LIMITS } from '../core/limits.js';
import { limitedString, numberInRange } from './fields.js';

/** `location` content object. */
export const LocationObjectSchema = z.strictObject({
  latitude: numberInRange({ label: 'Latitude', ...LIMITS.latitude, spec: '4.5' }),
  longitude: numberInRange({ label: 'Longitude', ...LIMITS.longitude, spec: '4.5' }),
  name: limitedString({ label: 'Location name', max: LIMITS.locationName, spec: '4.5' }).optional(),
  address: limitedString({
    label: 'Location address',
    max: LIMITS.locationAddress,
    spec: '4.5',
  }).optional(),
});

/** `{ type: 'location', location: { latitude, longitude, name?, address? } }`. */
export const LocationContentSchema = z.strictObject({
  type: z.literal('location'),
  location: LocationObjectSchema,
});
/** Location content. */
export type LocationContent = z.infer<typeof LocationContentSchema>;
