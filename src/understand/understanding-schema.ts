import { z } from 'zod';
import type { Understanding } from './types.js';

/**
 * The zod schema of an {@link Understanding}: what an understander answers is checked with
 * it before the engine records it (an understander is code the bot brings), and so is a
 * recorded one read back from the store.
 */

const Confidence = z.number().min(0).max(1);

const ScoredIntentSchema = z.object({ id: z.string().min(1), confidence: Confidence });

/** An understander's proposal, validated. */
export const UnderstandingSchema = z.object({
  source: z.enum(['builtin', 'llm', 'scripted']),
  intent: ScoredIntentSchema.exactOptional(),
  alternatives: z.array(ScoredIntentSchema).max(20).readonly().exactOptional(),
  slots: z
    .record(
      z.string(),
      z.object({
        value: z.union([z.string(), z.number(), z.boolean()]),
        text: z.string().exactOptional(),
      }),
    )
    .exactOptional(),
  correction: z.boolean().exactOptional(),
  handoff: z.boolean().exactOptional(),
  outOfScope: z.boolean().exactOptional(),
  knowledge: z
    .object({
      text: z.string(),
      confidence: Confidence,
      sources: z.array(z.object({ file: z.string(), heading: z.string() })).readonly(),
    })
    .exactOptional(),
  fallback: z.string().exactOptional(),
  ms: z.number().min(0).exactOptional(),
}) satisfies z.ZodType<Understanding>;

/** Reads an understander's answer: the proposal, or undefined with the reason it is refused. */
export function parseUnderstanding(
  value: unknown,
):
  | { readonly ok: true; readonly value: Understanding }
  | { readonly ok: false; readonly error: string } {
  const r = UnderstandingSchema.safeParse(value);
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0];
  return {
    ok: false,
    error: `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
  };
}
