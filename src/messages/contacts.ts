/**
 * Contact card content (spec 4.5.3): an array with exactly one card.
 */
import { z } from 'zod';
import { LIMITS } from '../core/limits.js';
import { boundedArray, limitedString } from './fields.js';

const SPEC = '4.5.3';
const nameOf = (label: string, max: number) => limitedString({ label, max, spec: SPEC });
/** Free strings without a spec limit (phone, email, url, type labels): non-empty. */
const required = (label: string) => limitedString({ label, spec: SPEC });

/** `name` of a contact card. */
export const ContactNameSchema = z.strictObject({
  formatted_name: nameOf('formatted_name', LIMITS.formattedName),
  first_name: nameOf('first_name', LIMITS.namePart).optional(),
  last_name: nameOf('last_name', LIMITS.namePart).optional(),
  middle_name: nameOf('middle_name', LIMITS.namePart).optional(),
  prefix: nameOf('prefix', LIMITS.namePrefixSuffix).optional(),
  suffix: nameOf('suffix', LIMITS.namePrefixSuffix).optional(),
});

/** A phone of a contact card: `phone` required, optional `type` and `wa_id`. */
export const ContactPhoneSchema = z.strictObject({
  phone: required('Phone'),
  type: required('Phone type').optional(),
  wa_id: required('wa_id').optional(),
});
/** An email of a contact card: `email` required, optional `type`. */
export const ContactEmailSchema = z.strictObject({
  email: required('Email'),
  type: required('Email type').optional(),
});
/** A URL of a contact card: `url` required, optional `type`. */
export const ContactUrlSchema = z.strictObject({
  url: required('URL'),
  type: required('URL type').optional(),
});
/** `org` of a contact card: company, department, title (each up to 256). */
export const ContactOrgSchema = z.strictObject({
  company: nameOf('org.company', LIMITS.orgField).optional(),
  department: nameOf('org.department', LIMITS.orgField).optional(),
  title: nameOf('org.title', LIMITS.orgField).optional(),
});

/** One contact card. */
export const ContactCardSchema = z.strictObject({
  name: ContactNameSchema,
  phones: boundedArray(ContactPhoneSchema, {
    label: 'Phones',
    min: 0,
    max: LIMITS.phonesPerCard,
    spec: SPEC,
  }).optional(),
  emails: boundedArray(ContactEmailSchema, {
    label: 'Emails',
    min: 0,
    max: LIMITS.emailsPerCard,
    spec: SPEC,
  }).optional(),
  urls: boundedArray(ContactUrlSchema, {
    label: 'URLs',
    min: 0,
    max: LIMITS.urlsPerCard,
    spec: SPEC,
  }).optional(),
  org: ContactOrgSchema.optional(),
});

/** `{ type: 'contacts', contacts: [card] }` (exactly one card). */
export const ContactsContentSchema = z.strictObject({
  type: z.literal('contacts'),
  contacts: boundedArray(ContactCardSchema, {
    label: 'Contact cards',
    min: LIMITS.contactsEntries,
    max: LIMITS.contactsEntries,
    spec: SPEC,
  }),
});
/** Contact card content. */
export type ContactsContent = z.infer<typeof ContactsContentSchema>;
/** One contact card. */
export type ContactCard = z.infer<typeof ContactCardSchema>;
