import { sayItems, type SayInput } from './content-schema.js';
import type { Diagnostic } from './diagnostic.js';
import { sayPath } from './flow-edges.js';
import type { FlowDefinition } from './flow-schema.js';
import { placeholders } from './interpolate.js';
import { contentDiagnostics } from './lint-content.js';

/**
 * Languages: every text the contact can read, with its path. A flow with `locales` is
 * written in its first locale; `translations.<locale>` maps each of these texts to the
 * translated one. The linter checks that every other locale has every text, that a
 * translation uses the same placeholders, and that translated content still fits the
 * spec's limits.
 */

/** A text of a flow and where it is. */
export interface FlowText {
  readonly path: string;
  readonly text: string;
}

/** Every text the contact can read (not links, ids, template names or internal notes). */
export function flowTexts(flow: FlowDefinition): FlowText[] {
  const out: FlowText[] = [];
  const add = (path: string, text: string | undefined): void => {
    if (text !== undefined && text.trim() !== '') out.push({ path, text });
  };
  const say = (prefix: string, input: SayInput | undefined): void => {
    sayItems(input).forEach((item, i) => {
      const raw = Array.isArray(input) ? input[i] : input;
      const base = sayPath(prefix, input, i);
      add(typeof raw === 'string' ? base : `${base}.text`, item.text);
      add(`${base}.image.caption`, item.image?.caption);
      add(`${base}.video.caption`, item.video?.caption);
      add(`${base}.document.caption`, item.document?.caption);
      add(`${base}.location.name`, item.location?.name);
      add(`${base}.location.address`, item.location?.address);
    });
  };
  say('fallback', flow.fallback);
  say('stale', flow.stale);
  for (const [event, rule] of Object.entries(flow.on ?? {})) say(`on.${event}.say`, rule.say);
  for (const [id, intent] of Object.entries(flow.intents ?? {}))
    add(`intents.${id}.title`, intent.title);
  add('understand.clarify.body', flow.understand?.clarify?.body);
  for (const [name, s] of Object.entries(flow.states)) {
    const p = `states.${name}`;
    say(`${p}.say`, s.say);
    say(`${p}.ask.prompt`, s.ask?.prompt);
    say(`${p}.ask.retry`, s.ask?.retry);
    say(`${p}.otherwise.say`, s.otherwise?.say);
    say(`${p}.timeout.nudge`, s.timeout?.nudge);
    say(`${p}.remind.say`, s.remind?.say);
    const m = s.menu;
    if (m !== undefined) {
      add(`${p}.menu.body`, m.body);
      add(`${p}.menu.header`, m.header);
      add(`${p}.menu.footer`, m.footer);
      add(`${p}.menu.button`, m.button);
      add(`${p}.menu.section`, m.section);
      m.options.forEach((o, i) => {
        add(`${p}.menu.options[${i}].title`, o.title);
        add(`${p}.menu.options[${i}].description`, o.description);
      });
    }
  }
  return out;
}

/** Diagnostics of `locales` and `translations`. */
export function localeDiagnostics(flow: FlowDefinition): Diagnostic[] {
  const out: Diagnostic[] = [];
  const locales = flow.locales;
  const translations = flow.translations ?? {};
  if (locales === undefined) {
    if (flow.translations !== undefined)
      out.push({
        severity: 'error',
        path: 'translations',
        rule: 'locales',
        message: 'translations need locales: [<the locale the flow is written in>, <others>…]',
      });
    return out;
  }
  const [base, ...others] = locales;
  for (const locale of Object.keys(translations)) {
    if (locale === base)
      out.push({
        severity: 'error',
        path: `translations.${locale}`,
        rule: 'locales',
        message: `"${locale}" is the flow's own locale (the first of locales): its texts are the ones written in the flow`,
      });
    else if (!locales.includes(locale))
      out.push({
        severity: 'error',
        path: `translations.${locale}`,
        rule: 'locales',
        message: `"${locale}" is not in locales (${locales.join(', ')})`,
      });
  }
  const texts = flowTexts(flow);
  const used = new Set(texts.map((t) => t.text));
  for (const locale of others) {
    const table = translations[locale] ?? {};
    const reported = new Set<string>();
    for (const t of texts) {
      const translated = table[t.text];
      if (translated === undefined) {
        if (reported.has(t.text)) continue;
        reported.add(t.text);
        out.push({
          severity: 'error',
          path: t.path,
          rule: 'missing-translation',
          message: `no ${locale} translation of ${JSON.stringify(t.text)} (add it under translations.${locale})`,
        });
        continue;
      }
      const want = new Set(placeholders(t.text));
      const have = new Set(placeholders(translated));
      const missing = [...want].filter((n) => !have.has(n));
      const extra = [...have].filter((n) => !want.has(n));
      if ((missing.length > 0 || extra.length > 0) && !reported.has(t.text)) {
        reported.add(t.text);
        out.push({
          severity: 'error',
          path: `translations.${locale}`,
          rule: 'translation-placeholders',
          message: `the ${locale} translation of ${JSON.stringify(t.text)} ${missing.length > 0 ? `lacks {{${missing.join('}}, {{')}}}` : ''}${missing.length > 0 && extra.length > 0 ? ' and ' : ''}${extra.length > 0 ? `adds {{${extra.join('}}, {{')}}}` : ''}`,
        });
      }
    }
    for (const key of Object.keys(table)) {
      if (!used.has(key))
        out.push({
          severity: 'warning',
          path: `translations.${locale}`,
          rule: 'unused-translation',
          message: `${JSON.stringify(key)} is not a text of this flow (changed or removed?)`,
        });
    }
    // Translated content must still fit the limits of spec part 8.
    const base = new Set(contentDiagnostics(flow).map((d) => `${d.path}\u0000${d.message}`));
    for (const d of contentDiagnostics(flow, (text) => table[text] ?? text)) {
      if (base.has(`${d.path}\u0000${d.message}`)) continue;
      out.push({ ...d, message: `in ${locale}: ${d.message}` });
    }
  }
  return out;
}
