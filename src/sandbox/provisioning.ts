import { randomBytes } from 'node:crypto';
import {
  E164,
  type ContactConfig,
  type KeyConfig,
  type NumberConfig,
  type TemplateConfig,
} from './config.js';
import type { SandboxContext } from './context.js';
import { SandboxControlError } from './control-error.js';
import {
  ContactChange,
  ContactInput,
  KeyChange,
  KeyInput,
  NumberChange,
  NumberInput,
  parse,
  TemplateChange,
  TemplateInput,
  type TemplateRef,
} from './provisioning-input.js';

export type {
  ContactChange,
  ContactInput,
  KeyChange,
  KeyInput,
  NumberChange,
  NumberInput,
  TemplateChange,
  TemplateInput,
  TemplateRef,
} from './provisioning-input.js';

/**
 * Run-time provisioning: keys, numbers, templates and contacts added, changed and
 * removed while the sandbox runs. Changes apply to the effective configuration at
 * once (the next request sees them) and survive `reset()`.
 */
export interface ProvisioningControl {
  keys(): KeyConfig[];
  /** Adds a key bound to an existing number; returns it (with the generated key if none was given). */
  addKey(input: KeyInput): KeyConfig;
  /** Changes a key's scopes or state (`active`, `rotated`, `revoked`). */
  updateKey(key: string, change: KeyChange): KeyConfig;
  /** Marks the key `rotated` and adds its successor (same number and scopes); returns the successor. */
  rotateKey(key: string, replacement?: string): KeyConfig;
  /** Removes a key: it then answers 401 invalid_api_key like any unknown key. */
  removeKey(key: string): void;
  numbers(): NumberConfig[];
  addNumber(input: NumberInput): NumberConfig;
  updateNumber(numberId: string, change: NumberChange): NumberConfig;
  /** Removes a number that no key or template refers to. */
  removeNumber(numberId: string): void;
  templates(): TemplateConfig[];
  addTemplate(input: TemplateInput): TemplateConfig;
  updateTemplate(ref: TemplateRef, change: TemplateChange): TemplateConfig;
  removeTemplate(ref: TemplateRef): void;
  /** Provisioned contacts with their current state (a `setContactState` shows here until reset). */
  contacts(): ContactConfig[];
  /** Creates or replaces a contact. */
  putContact(input: ContactInput): ContactConfig;
  updateContact(phoneNumber: string, change: ContactChange): ContactConfig;
  /** Forgets a contact: a later send or inbound message meets it as a new, active contact. */
  removeContact(phoneNumber: string): void;
}

/** Builds the provisioning operations over a sandbox context. */
export function createProvisioning(ctx: SandboxContext): ProvisioningControl {
  const { config, state } = ctx;

  const keyOf = (key: string): KeyConfig => {
    const found = config.keys.find((k) => k.key === key);
    if (found === undefined) throw new SandboxControlError('not_found', 'no such key');
    return found;
  };
  const numberOf = (id: string): NumberConfig => {
    const found = config.numbers.find((n) => n.id === id);
    if (found === undefined) throw new SandboxControlError('not_found', `no number "${id}"`);
    return found;
  };
  const templateIndex = (ref: TemplateRef): number => {
    const matches = config.templates
      .map((t, i) => ({ t, i }))
      .filter(
        ({ t }) =>
          t.name === ref.name &&
          t.language === ref.language &&
          (ref.number === undefined || t.number === ref.number),
      );
    const [first, second] = matches;
    if (first === undefined) {
      throw new SandboxControlError(
        'not_found',
        `no template "${ref.name}" (${ref.language})${ref.number === undefined ? '' : ` for number "${ref.number}"`}`,
      );
    }
    if (second !== undefined) {
      throw new SandboxControlError(
        'invalid_request',
        `several templates "${ref.name}" (${ref.language}); name the number`,
      );
    }
    return first.i;
  };
  const addKeyConfig = (input: KeyInput): KeyConfig => {
    const key = parse(KeyInput, input, 'key');
    numberOf(key.number);
    const value = key.key ?? `sk_sandbox_${randomBytes(18).toString('base64url')}`;
    if (config.keys.some((k) => k.key === value))
      throw new SandboxControlError('conflict', 'this key already exists');
    const created: KeyConfig = { ...key, key: value };
    config.keys.push(created);
    return { ...created };
  };

  return {
    keys: () => config.keys.map((k) => ({ ...k, scopes: [...k.scopes] })),
    addKey: addKeyConfig,
    updateKey(key, change) {
      const target = keyOf(key);
      Object.assign(target, defined(parse(KeyChange, change, 'key change')));
      return { ...target };
    },
    rotateKey(key, replacement) {
      const target = keyOf(key);
      if (target.state !== 'active')
        throw new SandboxControlError('invalid_request', `the key is ${target.state}, not active`);
      const successor = addKeyConfig({
        number: target.number,
        scopes: [...target.scopes],
        ...(replacement === undefined ? {} : { key: replacement }),
      });
      target.state = 'rotated';
      return successor;
    },
    removeKey(key) {
      const target = keyOf(key);
      config.keys.splice(config.keys.indexOf(target), 1);
    },

    numbers: () => config.numbers.map((n) => ({ ...n })),
    addNumber(input) {
      const number = parse(NumberInput, input, 'number');
      if (config.numbers.some((n) => n.id === number.id))
        throw new SandboxControlError('conflict', `number "${number.id}" already exists`);
      if (config.numbers.some((n) => n.phoneNumber === number.phoneNumber)) {
        throw new SandboxControlError(
          'conflict',
          `phone number ${number.phoneNumber} already belongs to a number`,
        );
      }
      config.numbers.push(number);
      return { ...number };
    },
    updateNumber(numberId, change) {
      const target = numberOf(numberId);
      Object.assign(target, defined(parse(NumberChange, change, 'number change')));
      return { ...target };
    },
    removeNumber(numberId) {
      const target = numberOf(numberId);
      const keys = config.keys.filter((k) => k.number === numberId).length;
      const templates = config.templates.filter((t) => t.number === numberId).length;
      if (keys > 0 || templates > 0) {
        throw new SandboxControlError(
          'conflict',
          `number "${numberId}" is used by ${keys} key(s) and ${templates} template(s); remove them first`,
        );
      }
      config.numbers.splice(config.numbers.indexOf(target), 1);
    },

    templates: () => config.templates.map((t) => structuredClone(t)),
    addTemplate(input) {
      const template = parse(TemplateInput, input, 'template');
      if (template.number !== undefined) numberOf(template.number);
      const clash = config.templates.some(
        (t) =>
          t.name === template.name &&
          t.language === template.language &&
          (t.number === undefined || template.number === undefined || t.number === template.number),
      );
      if (clash) {
        throw new SandboxControlError(
          'conflict',
          `template "${template.name}" (${template.language}) already exists for this number`,
        );
      }
      config.templates.push(template);
      return structuredClone(template);
    },
    updateTemplate(ref, change) {
      const target = config.templates[templateIndex(ref)];
      if (target === undefined) throw new SandboxControlError('not_found', 'no such template');
      Object.assign(target, defined(parse(TemplateChange, change, 'template change')));
      return structuredClone(target);
    },
    removeTemplate(ref) {
      config.templates.splice(templateIndex(ref), 1);
    },

    contacts() {
      return config.contacts.map((c) => {
        const live = state.contacts.get(c.phoneNumber);
        return live === undefined
          ? { ...c }
          : {
              phoneNumber: c.phoneNumber,
              name: live.name,
              state: live.state,
              reads: live.reads,
              ...(live.failureCode === undefined ? {} : { failureCode: live.failureCode }),
            };
      });
    },
    putContact(input) {
      const contact = parse(ContactInput, input, 'contact');
      const index = config.contacts.findIndex((c) => c.phoneNumber === contact.phoneNumber);
      if (index >= 0) config.contacts[index] = contact;
      else config.contacts.push(contact);
      state.provisionContact(contact);
      return { ...contact };
    },
    updateContact(phoneNumber, change) {
      const phone = parse(E164, phoneNumber, 'phone number');
      const parsed = parse(ContactChange, change, 'contact change');
      const index = config.contacts.findIndex((c) => c.phoneNumber === phone);
      const current = config.contacts[index];
      if (current === undefined)
        throw new SandboxControlError('not_found', `no provisioned contact ${phone}`);
      const { failureCode, ...rest } = defined(parsed);
      const next: ContactConfig = { ...current, ...rest };
      if (failureCode === null) delete next.failureCode;
      else if (failureCode !== undefined) next.failureCode = failureCode;
      config.contacts[index] = next;
      state.provisionContact(next);
      return { ...next };
    },
    removeContact(phoneNumber) {
      const phone = parse(E164, phoneNumber, 'phone number');
      const index = config.contacts.findIndex((c) => c.phoneNumber === phone);
      if (index < 0 && !state.contacts.has(phone))
        throw new SandboxControlError('not_found', `no contact ${phone}`);
      if (index >= 0) config.contacts.splice(index, 1);
      state.contacts.delete(phone);
    },
  };
}

/** The entries whose value is not undefined (for Object.assign under exactOptionalPropertyTypes). */
function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
