import { SERVICE_WINDOW_MS } from '../core/limits.js';
import { templateParameterKinds, type SendRequest } from '../messages/index.js';
import type { NumberConfig, SandboxConfig, TemplateConfig } from './config.js';
import type { ContactRecord, ConversationRecord } from './model.js';
import { problem, type Problem } from './problem.js';
import type { SandboxState } from './state.js';

/** Outcome of {@link admit}. */
export type Admission =
  | {
      readonly status: 'admitted';
      readonly contact: ContactRecord;
      readonly template: TemplateConfig | undefined;
    }
  | { readonly status: 'rejected'; readonly problem: Problem };

/** True when the contact wrote to this number within the last 24 hours. */
export function windowOpen(conversation: ConversationRecord | undefined, now: number): boolean {
  const last = conversation?.lastInboundAt;
  return last !== undefined && now - last < SERVICE_WINDOW_MS;
}

/**
 * Admission of a validated send (spec 4.5.5), in this order: the 24-hour window
 * (non-template), the template (exists, approved, parameters match its kinds and
 * order), human ownership, quality, the contact's state, other policy.
 */
export function admit(
  config: SandboxConfig,
  state: SandboxState,
  number: NumberConfig,
  request: SendRequest,
  now: number,
): Admission {
  const reject = (p: Problem): Admission => ({ status: 'rejected', problem: p });
  const conversation = state.findConversation(number.id, request.to);
  const open = windowOpen(conversation, now);
  let template: TemplateConfig | undefined;

  if (request.type !== 'template' && !open) {
    return reject(
      problem(
        'service_window_closed',
        'No inbound message from this contact in the last 24 hours; send an approved template or wait for the customer to write.',
      ),
    );
  }
  if (request.type === 'template') {
    const { name, language } = request.template;
    const candidates = config.templates.filter(
      (t) => t.number === undefined || t.number === number.id,
    );
    template = candidates.find((t) => t.name === name && t.language === language.code);
    if (template === undefined) {
      return reject(
        problem(
          'template_not_found',
          `No template "${name}" in language "${language.code}" for this number.`,
          {
            template: name,
            language: language.code,
          },
        ),
      );
    }
    if (template.status !== 'approved') {
      return reject(
        problem(
          'template_not_approved',
          `Template "${name}" (${language.code}) is ${template.status}, not approved.`,
        ),
      );
    }
    const mismatch = compareParameters(template, request.template.components);
    if (mismatch !== undefined) return reject(mismatch);
  }
  if (conversation?.humanOwned === true) {
    return reject(
      problem(
        'conversation_owned_by_human',
        'A person owns this conversation; a teammate must select "Release to API".',
      ),
    );
  }
  const qualityProblem = checkQuality(number, template, open);
  if (qualityProblem !== undefined) return reject(qualityProblem);

  const contact = state.contact(request.to);
  switch (contact.state) {
    case 'active':
      break;
    case 'unavailable':
      return reject(problem('contact_unavailable', 'The contact was deleted or is unavailable.'));
    case 'opted_out':
      return reject(
        problem('contact_opted_out', 'The contact opted out of messages from this business.'),
      );
    case 'instance_restricted':
      return reject(
        problem('contact_instance_restricted', 'The contact restricted messages from this number.'),
      );
    case 'marketing_restricted':
      if (template?.category === 'marketing') {
        return reject(
          problem(
            'contact_marketing_restricted',
            'The contact does not accept marketing templates.',
          ),
        );
      }
      break;
    case 'not_allowed':
      return reject(
        problem('message_not_allowed', 'An admission policy blocks messages to this contact.'),
      );
  }
  return { status: 'admitted', contact, template };
}

function checkQuality(
  number: NumberConfig,
  template: TemplateConfig | undefined,
  open: boolean,
): Problem | undefined {
  if (number.quality === 'red') {
    return problem(
      'quality_blocked',
      'The sender quality rating is red; sends are blocked. Do not use another key to bypass.',
    );
  }
  if (template === undefined) return undefined;
  const businessInitiated = !open;
  if (template.quality === 'red' || (businessInitiated && template.quality === 'yellow')) {
    return problem('quality_blocked', `Template "${template.name}" quality blocks admission.`);
  }
  if (businessInitiated && number.quality === 'yellow') {
    return problem(
      'quality_blocked',
      'The sender quality rating is yellow; new business-initiated templates are blocked (an in-window reply is still allowed).',
    );
  }
  return undefined;
}

type RequestComponents = Extract<SendRequest, { type: 'template' }>['template']['components'];

function compareParameters(
  template: TemplateConfig,
  components: RequestComponents,
): Problem | undefined {
  const describe = (
    list: readonly { component: string; index?: string | undefined; kinds: readonly string[] }[],
  ) =>
    list.length === 0
      ? 'no parameters'
      : list
          .map(
            (c) =>
              `${c.component}${c.index === undefined ? '' : ` ${c.index}`} [${c.kinds.join(', ')}]`,
          )
          .join(', ');
  const expected = template.components
    .filter((c) => c.parameters.length > 0)
    .map((c) => ({
      component: c.type,
      ...(c.type === 'button' ? { index: c.index ?? '0' } : {}),
      kinds: c.parameters,
    }));
  const given = templateParameterKinds(components)
    .filter((c) => c.kinds.length > 0)
    .map((c) => ({
      component: c.component,
      ...(c.component === 'button' ? { index: c.index ?? '0' } : {}),
      kinds: c.kinds,
    }));
  if (JSON.stringify(expected) === JSON.stringify(given)) return undefined;
  return problem(
    'invalid_message',
    `Template "${template.name}" (${template.language}) expects ${describe(expected)}; got ${describe(given)}. Match the approved template's parameter kinds and order (spec 4.5.4).`,
    {
      issues: [
        {
          path: 'template.components',
          message: 'parameters do not match the approved template',
          spec: '4.5.4',
        },
      ],
    },
  );
}
