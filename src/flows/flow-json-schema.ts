import { z } from 'zod';
import { FlowSchema } from './flow-schema.js';

/**
 * The JSON Schema of flow files, generated from {@link FlowSchema} (with descriptions), for
 * editors with yaml-language-server: `switchboard schema > flow.schema.json`, then
 * `# yaml-language-server: $schema=./flow.schema.json` at the top of a flow file.
 */
export function flowJsonSchema(): Record<string, unknown> {
  // `reused: 'ref'` keeps shared shapes (messages, targets) in $defs: 18 KB instead of 200 KB.
  return z.toJSONSchema(FlowSchema, { io: 'input', reused: 'ref', unrepresentable: 'any' });
}
