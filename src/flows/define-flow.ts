import { formatFlowPath } from './diagnostic.js';
import { FlowError } from './flow-error.js';
import { FlowSchema, type FlowDefinition, type FlowDefinitionInput } from './flow-schema.js';

/**
 * A flow written in TypeScript: the same schema as flow files, with autocompletion.
 * Throws {@link FlowError} listing every issue with its path.
 * @example
 * export const hello = defineFlow({
 *   id: 'hello', version: 1, start: 'hi',
 *   states: { hi: { say: 'Hello {{contact.name}}!', final: true } },
 * });
 */
export function defineFlow(def: FlowDefinitionInput): FlowDefinition {
  const parsed = FlowSchema.safeParse(def);
  if (parsed.success) return parsed.data;
  const id =
    typeof def === 'object' && def !== null && typeof def.id === 'string' ? def.id : '(unnamed)';
  throw new FlowError(
    id,
    parsed.error.issues.map((i) => ({ path: formatFlowPath(i.path), message: i.message })),
    { cause: parsed.error },
  );
}
