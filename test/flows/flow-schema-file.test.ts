import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { flowJsonSchema } from '../../src/flows/index.js';

describe('flows/flow.schema.json', () => {
  it('should match the JSON Schema generated from FlowSchema (run `npx switchboard schema > flows/flow.schema.json`)', async () => {
    const committed: unknown = JSON.parse(await readFile('flows/flow.schema.json', 'utf8'));
    expect(committed).toEqual(flowJsonSchema());
  });
});
