/**
 * Builders for interactive content (spec 4.5.2): reply buttons and lists. Each returns
 * validated content or throws MessageValidationError; nothing is ever truncated.
 */
import { build, opt } from './build.js';
import { InteractiveContentSchema, type InteractiveContent } from './interactive.js';

/** Optional header (text, ≤ 60) and footer (≤ 60) of an interactive message. */
export interface InteractiveOptions {
  readonly header?: string | undefined;
  readonly footer?: string | undefined;
}

function frame(body: string, options: InteractiveOptions) {
  return {
    ...opt(
      'header',
      options.header === undefined ? undefined : { type: 'text', text: options.header },
    ),
    body: { text: body },
    ...opt('footer', options.footer === undefined ? undefined : { text: options.footer }),
  };
}

/**
 * A reply-button message: 1 to 3 buttons, ids ≤ 256 and unique, titles ≤ 20.
 *
 * @example
 * buttons('Did that help?', [{ id: 'yes', title: 'Yes' }, { id: 'no', title: 'No' }]);
 */
export function buttons(
  body: string,
  options: ReadonlyArray<{ readonly id: string; readonly title: string }>,
  extras: InteractiveOptions = {},
): InteractiveContent {
  return build(InteractiveContentSchema, {
    type: 'interactive',
    interactive: {
      type: 'button',
      ...frame(body, extras),
      action: {
        buttons: options.map(({ id, title }) => ({ type: 'reply', reply: { id, title } })),
      },
    },
  });
}

/** A section of {@link list}. */
export interface ListSectionInput {
  readonly title: string;
  readonly rows: ReadonlyArray<{
    readonly id: string;
    readonly title: string;
    readonly description?: string | undefined;
  }>;
}

/**
 * A list message: a button label (≤ 20), 1 to 10 sections, at most 10 rows in all,
 * unique row ids.
 *
 * @example
 * list('Pick a topic', 'Topics', [{ title: 'Orders', rows: [{ id: 'track', title: 'Track my order' }] }]);
 */
export function list(
  body: string,
  buttonLabel: string,
  sections: readonly ListSectionInput[],
  extras: InteractiveOptions = {},
): InteractiveContent {
  return build(InteractiveContentSchema, {
    type: 'interactive',
    interactive: {
      type: 'list',
      ...frame(body, extras),
      action: {
        button: buttonLabel,
        sections: sections.map((s) => ({
          title: s.title,
          rows: s.rows.map((r) => ({
            id: r.id,
            title: r.title,
            ...opt('description', r.description),
          })),
        })),
      },
    },
  });
}
