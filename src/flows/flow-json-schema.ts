import { z } from 'zod';
import { FlowSchema } from './flow-schema.js';

/**
 * The JSON Schema of flow files, generated from {@link FlowSchema} (with descriptions), for
 * editors with yaml-language-server: `switchboard schema > flow.schema.json`, then
 * `# yaml-language-server: $schema=./flow.schema.json` at the top of a flow file.
 */
export function flowJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(FlowSchema, { io: 'input', unrepresentable: 'any' });
}
