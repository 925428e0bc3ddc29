import { describe, expectTypeOf, it } from 'vitest';
import type { OutboundContent } from '../../src/flows/contract.js';
import type {
  Content,
  SendRequest,
  TextContent,
  ValidationResult,
} from '../../src/messages/index.js';
import { text, validateSendRequest } from '../../src/messages/index.js';

describe('message types', () => {
  it('should make Content usable as the flow contract OutboundContent', () => {
    expectTypeOf<Content>().toExtend<OutboundContent>();
    expectTypeOf<TextContent>().toExtend<Content>();
  });

  it('should type builders and validation results precisely', () => {
    expectTypeOf(text).returns.toEqualTypeOf<TextContent>();
    expectTypeOf(validateSendRequest).returns.toEqualTypeOf<ValidationResult<SendRequest>>();
    expectTypeOf<SendRequest['messaging_product']>().toEqualTypeOf<'whatsapp'>();
    expectTypeOf<Content['type']>().toEqualTypeOf<
      | 'text'
      | 'template'
      | 'image'
      | 'video'
      | 'audio'
      | 'document'
      | 'interactive'
      | 'location'
      | 'contacts'
    >();
  });
});
