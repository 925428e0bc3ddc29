/**
 * Message builders and send validation (spec 4.5): the single definition of what a
 * POST /v1/messages body may contain, shared by the API client, the sandbox and the
 * flow linter.
 */
export {
  SendRequestSchema,
  RecipientSchema,
  E164,
  validateSendRequest,
  buildSendRequest,
} from './send-request.js';
export type { SendRequest } from './send-request.js';
export { ContentSchema, CONTENT_TYPES, validateContent } from './content.js';
export { TextContentSchema } from './text.js';
export {
  ImageContentSchema,
  VideoContentSchema,
  AudioContentSchema,
  DocumentContentSchema,
} from './media.js';
export { InteractiveContentSchema } from './interactive.js';
export { LocationContentSchema } from './location.js';
export { ContactsContentSchema } from './contacts.js';
export { TemplateContentSchema } from './template.js';
export type { Content, ContentType } from './content.js';
export { MessageValidationError } from './errors.js';
export { formatIssue, formatPath } from './issues.js';
export type { MessageIssue, ValidationResult } from './issues.js';
export { checkMediaLink, MediaLinkSchema } from './media-link.js';
export {
  templateParameterKinds,
  TemplateComponentSchema,
  TemplateParameterSchema,
} from './template.js';
export type {
  ComponentParameterKinds,
  TemplateComponent,
  TemplateContent,
  TemplateParameter,
} from './template.js';
export type { TextContent } from './text.js';
export type { ImageContent, VideoContent, AudioContent, DocumentContent } from './media.js';
export type { InteractiveContent, ReplyButton, ListSection, ListRow } from './interactive.js';
export type { LocationContent } from './location.js';
export type { ContactsContent, ContactCard } from './contacts.js';
export { text, template, image, video, audio, document, location, contact } from './builders.js';
export type { CaptionOptions, ContactCardInput } from './builders.js';
export { buttons, list } from './interactive-builders.js';
export type { InteractiveOptions, ListSectionInput } from './interactive-builders.js';
