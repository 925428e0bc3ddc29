import type { Diagnostic } from './diagnostic.js';
import type { FlowDefinition } from './flow-schema.js';
import { exampleKey } from './text-match.js';

/**
 * Lints a flow's out-of-scope examples (`understand.outOfScope`, docs/understanding.md):
 * one that is also an intent's example (folded as intents fold: case, accents and
 * punctuation left out) is an error, as the message would be both in and out of scope; a
 * locale of the bot without out-of-scope examples while another has some is a warning
 * (its customers' near misses are taken as before); a locale the flow does not declare is
 * a warning, as for intents.
 */
export function outOfScopeDiagnostics(flow: FlowDefinition): Diagnostic[] {
  const outOfScope = flow.understand?.outOfScope;
  if (outOfScope === undefined) return [];
  const out: Diagnostic[] = [];
  const intentOf = new Map<string, { id: string; path: string }>();
  for (const [id, intent] of Object.entries(flow.intents ?? {}))
    for (const [locale, examples] of Object.entries(intent.examples))
      examples.forEach((example, i) => {
        const key = `${locale}\u0000${exampleKey(example)}`;
        if (!intentOf.has(key))
          intentOf.set(key, { id, path: `intents.${id}.examples.${locale}[${i}]` });
      });
  const locales = flow.locales ?? [];
  for (const [locale, examples] of Object.entries(outOfScope)) {
    if (locales.length > 0 && !locales.includes(locale))
      out.push({
        severity: 'warning',
        path: `understand.outOfScope.${locale}`,
        rule: 'unknown-locale',
        message: `"${locale}" is not among the flow's locales (${locales.join(', ')})`,
      });
    examples.forEach((example, i) => {
      const intent = intentOf.get(`${locale}\u0000${exampleKey(example)}`);
      if (intent !== undefined)
        out.push({
          severity: 'error',
          path: `understand.outOfScope.${locale}[${i}]`,
          rule: 'out-of-scope-example',
          message: `"${example}" is also an example of intent "${intent.id}" (${intent.path}); a message cannot be both in and out of scope`,
        });
    });
  }
  const botLocales =
    locales.length > 0
      ? locales
      : [
          ...new Set(
            Object.values(flow.intents ?? {}).flatMap((intent) => Object.keys(intent.examples)),
          ),
        ];
  for (const locale of botLocales)
    if ((outOfScope[locale] ?? []).length === 0)
      out.push({
        severity: 'warning',
        path: 'understand.outOfScope',
        rule: 'missing-out-of-scope',
        message: `no ${locale} out-of-scope examples while ${Object.keys(outOfScope).join(', ')} has some: ${locale} near misses are taken as before; add understand.outOfScope.${locale}`,
      });
  return out;
}
