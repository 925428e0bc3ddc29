import { validateContent } from '../messages/index.js';
import type { OutboundContent } from './contract.js';
import { sayItems, type MessageItem, type SayInput } from './content-schema.js';
import type { Diagnostic } from './diagnostic.js';
import { sayPath } from './flow-edges.js';
import type { FlowDefinition, MenuDef } from './flow-schema.js';
import { renderItem, renderMenu, renderTemplate, type Fill } from './render.js';

/**
 * Static content checks with the message validator of `src/messages` (the same rules the
 * API client and the sandbox apply): every message a flow can say is rendered with each
 * `{{…}}` replaced by one character (the minimum) and validated: an issue is an error.
 * It is rendered again with ten characters per placeholder: new issues are warnings
 * (the static part alone is near the limit). Content is never truncated.
 */

const PLACEHOLDER = /\{\{[^}]*\}\}/g;

type Render = (fill: Fill) => OutboundContent;
type MapPath = (contentPath: string) => string;

/**
 * Content diagnostics of a whole flow; `translate` renders it in another locale (each
 * text is looked up before its placeholders are filled).
 */
export function contentDiagnostics(
  flow: FlowDefinition,
  translate: (text: string) => string = (t) => t,
): Diagnostic[] {
  const minimal: Fill = (t) => translate(t).replace(PLACEHOLDER, 'x');
  const typical: Fill = (t) => translate(t).replace(PLACEHOLDER, 'x'.repeat(10));
  const check = (o: Diagnostic[], render: Render, map: MapPath): void =>
    checkWith(o, render, map, minimal, typical);
  const out: Diagnostic[] = [];
  const say = (prefix: string, input: SayInput | undefined): void => {
    sayItems(input).forEach((item, i) => {
      if (isPause(item)) return;
      const base = sayPath(prefix, input, i);
      const raw = Array.isArray(input) ? input[i] : input;
      const isString = typeof raw === 'string';
      const linted = withCheckableLink(item);
      check(
        out,
        (fill) => renderItem(linted, fill),
        (cp) => itemPath(base, isString, cp),
      );
      const rule = item.window;
      if (rule?.onClosed === 'template') {
        check(
          out,
          (fill) => renderTemplate(rule.template, fill),
          (cp) => itemPath(`${base}.window`, false, cp),
        );
      }
    });
  };
  say('fallback', flow.fallback);
  say('stale', flow.stale);
  if (flow.window?.onClosed === 'template') {
    const t = flow.window.template;
    check(
      out,
      (fill) => renderTemplate(t, fill),
      (cp) => itemPath('window', false, cp),
    );
  }
  for (const [name, s] of Object.entries(flow.states)) {
    const p = `states.${name}`;
    say(`${p}.say`, s.say);
    say(`${p}.ask.prompt`, s.ask?.prompt);
    say(`${p}.ask.retry`, s.ask?.retry);
    say(`${p}.otherwise.say`, s.otherwise?.say);
    say(`${p}.timeout.nudge`, s.timeout?.nudge);
    const menu = s.menu;
    if (menu !== undefined) {
      const dynamic = menu.rowsFrom === undefined ? [] : [{ id: 'x', title: 'x' }];
      check(
        out,
        (fill) => renderMenu(menu, { version: flow.version, state: name }, fill, dynamic),
        (cp) => menuPath(`${p}.menu`, menu, dynamic.length, cp),
      );
      const rule = menu.window;
      if (rule?.onClosed === 'template') {
        check(
          out,
          (fill) => renderTemplate(rule.template, fill),
          (cp) => itemPath(`${p}.menu.window`, false, cp),
        );
      }
    }
  }
  return out;
}

/** A `delay:` item without content: nothing to check. */
function isPause(item: MessageItem): boolean {
  return item.delay !== undefined && Object.keys(item).every((k) => k === 'delay');
}

/**
 * A media link that starts with `{{…}}` (the whole URL comes from a variable) cannot be
 * checked statically; it is checked as `https://example.com/…` here and at run time.
 */
function withCheckableLink(item: MessageItem): MessageItem {
  const fix = <T extends { link: string }>(m: T | undefined): T | undefined =>
    m !== undefined && m.link.startsWith('{{')
      ? { ...m, link: `https://example.com/${m.link}` }
      : m;
  const out: MessageItem = { ...item };
  const image = fix(item.image);
  const video = fix(item.video);
  const audio = fix(item.audio);
  const document = fix(item.document);
  if (image !== undefined) out.image = image;
  if (video !== undefined) out.video = video;
  if (audio !== undefined) out.audio = audio;
  if (document !== undefined) out.document = document;
  return out;
}

function checkWith(
  out: Diagnostic[],
  render: Render,
  map: MapPath,
  minimal: Fill,
  typical: Fill,
): void {
  const strict = validateContent(render(minimal));
  const seen = new Set<string>();
  if (strict.status === 'invalid') {
    for (const issue of strict.issues) {
      seen.add(issue.path);
      out.push({
        severity: 'error',
        path: map(issue.path),
        message: issue.message,
        rule: 'content-limit',
      });
    }
  }
  const loose = validateContent(render(typical));
  if (loose.status === 'invalid') {
    for (const issue of loose.issues) {
      if (seen.has(issue.path)) continue;
      out.push({
        severity: 'warning',
        path: map(issue.path),
        message: `with 10-character values for its {{…}} placeholders: ${issue.message}`,
        rule: 'content-near-limit',
      });
    }
  }
}

function itemPath(base: string, isString: boolean, contentPath: string): string {
  if (contentPath === 'text.body' || contentPath === 'text')
    return isString ? base : `${base}.text`;
  const rest = contentPath
    .replace(/^contacts\[0\]/, 'contact')
    .replace(/^contacts$/, 'contact')
    .replace(/^template\.language\.code$/, 'template.language')
    .replace(/^text\.preview_url$/, 'previewUrl');
  return rest === '' ? base : `${base}.${rest}`;
}

function menuPath(base: string, menu: MenuDef, dynamic: number, cp: string): string {
  const fixed: Record<string, string> = {
    'interactive.body.text': 'body',
    'interactive.body': 'body',
    'interactive.header.text': 'header',
    'interactive.footer.text': 'footer',
    'interactive.action.button': 'button',
    'interactive.action.sections[0].title': menu.section === undefined ? 'button' : 'section',
    'interactive.action.buttons': 'options',
    'interactive.action.sections': 'options',
    'interactive.action.sections[0].rows': 'options',
  };
  const f = fixed[cp];
  if (f !== undefined) return `${base}.${f}`;
  const button = /^interactive\.action\.buttons\[(\d+)\](?:\.reply)?(?:\.(id|title))?$/.exec(cp);
  if (button !== null)
    return `${base}.options[${button[1]}]${button[2] === undefined ? '' : `.${button[2]}`}`;
  const row =
    /^interactive\.action\.sections\[0\]\.rows\[(\d+)\](?:\.(id|title|description))?$/.exec(cp);
  if (row !== null) {
    const i = Number(row[1]) - dynamic;
    if (i < 0) return `${base}.rowsFrom`;
    return `${base}.options[${i}]${row[2] === undefined ? '' : `.${row[2]}`}`;
  }
  return cp === '' ? base : `${base} (${cp})`;
}
