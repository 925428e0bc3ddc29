import { describe, expect, it } from 'vitest';
import {
  compileFlow,
  defineFlow,
  FlowError,
  type FlowDefinitionInput,
} from '../../src/flows/index.js';
import { drive, inbound, summary, tap, text } from './helpers.js';

const menuFlow: FlowDefinitionInput = {
  id: 'menu-demo',
  version: 2,
  start: 'welcome',
  triggers: [
    { keywords: ['menu'], goto: 'welcome' },
    { keywords: ['stop'], goto: 'bye' },
  ],
  stale: 'That menu is old.',
  states: {
    welcome: {
      say: 'Hi {{contact.name}}',
      menu: {
        body: 'Pick one',
        options: [
          { id: 'info', title: 'Información', keywords: ['details'], goto: 'info' },
          { id: 'bye', title: 'Bye', goto: 'bye' },
        ],
      },
      otherwise: { say: 'Please tap an option.', reprompt: 1, goto: 'human' },
      timeout: { after: '10m', goto: 'bye' },
    },
    info: { say: 'Info.', goto: 'welcome' },
    human: { say: 'Getting a person.', handoff: { resume: 'welcome', notify: 'notifyAgents' } },
    bye: { say: 'Bye {{contact.name}}', final: true },
  },
};

describe('compileFlow', () => {
  it('should wait in a pre-state and enter start on the first message without treating it as an answer', () => {
    const d = drive(menuFlow);
    expect(d.state()).toBe('_idle');
    const out = d.send(text('Bye'));
    expect(d.state()).toBe('welcome');
    expect(summary(out)).toEqual(['text:Hi Ana', 'menu:button', 'timer.start']);
    expect(out.map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('should let a trigger keyword in the first message take precedence', () => {
    const d = drive(menuFlow);
    expect(summary(d.send(text('STOP')))).toEqual(['text:Bye Ana', 'end']);
    expect(d.context().ended).toBe(true);
    expect(d.actor.getSnapshot().status).toBe('done');
  });

  it('should enter start on conversation.start', () => {
    const d = drive(menuFlow);
    d.send({ type: 'conversation.start' });
    expect(d.state()).toBe('welcome');
  });

  it('should route a tap by option id and cancel the state timer on leaving', () => {
    const d = drive(menuFlow);
    d.send(text('hi'));
    const out = d.send(tap('v2.welcome.info'));
    expect(summary(out)).toEqual([
      'timer.cancel',
      'text:Info.',
      'text:Hi Ana',
      'menu:button',
      'timer.start',
    ]);
    expect(out.find((e) => e.kind === 'timer.cancel')).toMatchObject({ name: 'welcome@3' });
    expect(d.state()).toBe('welcome');
    expect(out.map((e) => e.seq)).toEqual([4, 5, 6, 7, 8]);
  });

  it('should match typed text against titles and keywords ignoring case and accents', () => {
    const d = drive(menuFlow);
    d.send(text('hi'));
    d.send(text('  INFORMACION '));
    expect(summary(d.context().outbox)).toContain('text:Info.');
    d.send(text('Details'));
    expect(summary(d.context().outbox)).toContain('text:Info.');
  });

  it('should re-prompt unmatched input, then escalate after the re-prompt count', () => {
    const d = drive(menuFlow);
    d.send(text('hi'));
    expect(summary(d.send(text('what?')))).toEqual(['text:Please tap an option.', 'menu:button']);
    const out = d.send(text('still no'));
    expect(d.state()).toBe('human');
    expect(summary(out)).toEqual([
      'timer.cancel',
      'text:Getting a person.',
      'call',
      'handoff.request',
    ]);
  });

  it('should keep only the effects of the latest event in the outbox', () => {
    const d = drive(menuFlow);
    d.send(text('hi'));
    const out = d.send(inbound({ type: 'unsupported' }));
    expect(out[0]?.seq).toBe(4);
    expect(summary(out)).toEqual([expect.stringMatching(/^text:Sorry/), 'menu:button']);
  });

  it('should stay silent during a handoff and resume on release', () => {
    const d = drive(menuFlow);
    d.send(text('hi'));
    d.send(text('x'));
    d.send(text('y'));
    expect(d.state()).toBe('human');
    expect(d.send(text('hello?'))).toEqual([]);
    expect(d.send(text('menu'))).toEqual([]);
    d.send({ type: 'handoff.started' });
    const out = d.send({ type: 'handoff.released' });
    expect(d.state()).toBe('welcome');
    expect(summary(out)).toEqual(['text:Hi Ana', 'menu:button', 'timer.start']);
  });

  it('should follow the timer of the current state and ignore stale timer names', () => {
    const d = drive(menuFlow);
    d.send(text('hi'));
    expect(d.send({ type: 'timer.fired', name: 'welcome@99' })).toEqual([]);
    expect(d.state()).toBe('welcome');
    d.send({ type: 'timer.fired', name: 'welcome@3' });
    expect(d.state()).toBe('bye');
  });

  it('should refuse a flow with an unknown target', () => {
    const def = defineFlow({
      id: 'x',
      version: 1,
      start: 'a',
      states: { a: { say: 'a', goto: 'nowhere' } },
    });
    expect(() => compileFlow(def)).toThrow(FlowError);
    expect(() => compileFlow(def)).toThrow(/states\.a\.goto: unknown state "nowhere"/);
  });

  it('should list the handlers a flow calls', () => {
    expect(compileFlow(defineFlow(menuFlow)).handlers).toEqual(['notifyAgents']);
  });
});

const askFlow: FlowDefinitionInput = {
  id: 'ask-demo',
  version: 1,
  start: 'email',
  onError: 'oops',
  states: {
    email: {
      ask: {
        prompt: 'Email?',
        var: 'email',
        validate: { kind: 'email' },
        retry: 'Not an email.',
        maxAttempts: 2,
        goto: 'phone',
        onFail: 'oops',
      },
    },
    phone: { ask: { prompt: 'Phone?', var: 'phone', validate: { kind: 'phone' }, goto: 'count' } },
    count: {
      ask: {
        prompt: 'How many?',
        var: 'count',
        validate: { kind: 'number', min: 1, max: 5, integer: true },
        goto: 'done',
      },
    },
    done: { say: '{{email}} {{phone}} {{count}}', final: true },
    oops: { say: 'Oops: {{error.code}}', final: true },
  },
};

describe('compileFlow ask', () => {
  it('should validate answers, retry, and store typed values', () => {
    const d = drive(askFlow);
    expect(summary(d.send(text('start')))).toEqual(['text:Email?']);
    expect(summary(d.send(text('nope')))).toEqual(['text:Not an email.']);
    d.send(text(' ana@example.com '));
    expect(d.state()).toBe('phone');
    expect(summary(d.send(text('555')))).toEqual(['text:Phone?']);
    d.send(text('+1 (415) 555-0123'));
    d.send(text('7'));
    expect(d.state()).toBe('count');
    d.send(text('3'));
    expect(d.context().vars).toEqual({ email: 'ana@example.com', phone: '+14155550123', count: 3 });
    expect(summary(d.context().outbox)).toEqual(['text:ana@example.com +14155550123 3', 'end']);
  });

  it('should go to onFail after maxAttempts invalid answers', () => {
    const d = drive(askFlow);
    d.send(text('start'));
    d.send(text('a'));
    d.send(text('b'));
    expect(d.state()).toBe('oops');
  });

  it('should answer media where text is expected with the readable fallback and the prompt', () => {
    const d = drive(askFlow);
    d.send(text('start'));
    const out = d.send(inbound({ type: 'image', media: { availability: 'ready', id: 'md1' } }));
    expect(summary(out)).toEqual([
      expect.stringMatching(/^text:Sorry, I can only read text/),
      'text:Email?',
    ]);
    expect(d.context().vars).toEqual({});
  });
});

const callFlow: FlowDefinitionInput = {
  id: 'call-demo',
  version: 1,
  start: 'lookup',
  states: {
    lookup: {
      call: {
        handler: 'lookupOrder',
        input: { order: '{{order}}', fixed: 3 },
        sets: ['status'],
        outcomes: { found: 'found' },
        onError: 'failed',
        onTimeout: 'slow',
        timeout: '5s',
      },
    },
    found: { say: 'Status: {{status}}', final: true },
    failed: { say: 'Failed: {{error.code}}', final: true },
    slow: { say: 'Slow', final: true },
  },
  vars: { order: '123' },
};

describe('compileFlow call', () => {
  it('should emit a call effect and route the outcome with its vars', () => {
    const d = drive(callFlow);
    const [call] = d.send(text('hi'));
    expect(call).toEqual({
      kind: 'call',
      seq: 1,
      handler: 'lookupOrder',
      requestId: 'lookup#1',
      input: { order: '123', fixed: 3 },
      timeoutMs: 5000,
    });
    expect(
      d.send({
        type: 'handler.done',
        requestId: 'other',
        handler: 'lookupOrder',
        outcome: 'found',
      }),
    ).toEqual([]);
    expect(d.state()).toBe('lookup');
    d.send({
      type: 'handler.done',
      requestId: 'lookup#1',
      handler: 'lookupOrder',
      outcome: 'found',
      vars: { status: 'shipped' },
    });
    expect(summary(d.context().outbox)).toEqual(['text:Status: shipped', 'end']);
  });

  it('should send an unknown outcome to the error target', () => {
    const d = drive(callFlow);
    d.send(text('hi'));
    d.send({
      type: 'handler.done',
      requestId: 'lookup#1',
      handler: 'lookupOrder',
      outcome: 'weird',
    });
    expect(d.state()).toBe('failed');
    // The error path is logged by the engine (flow.error) before the error state speaks.
    expect(summary(d.context().outbox)).toEqual([
      'flow.error',
      'text:Failed: unknown_outcome',
      'end',
    ]);
    expect(d.context().outbox[0]).toMatchObject({
      kind: 'flow.error',
      state: 'lookup',
      code: 'unknown_outcome',
      target: 'failed',
    });
  });

  it('should route handler errors and timeouts to their targets', () => {
    const a = drive(callFlow);
    a.send(text('hi'));
    a.send({
      type: 'handler.error',
      requestId: 'lookup#1',
      handler: 'lookupOrder',
      reason: 'timeout',
      message: 'took 5s',
    });
    expect(a.state()).toBe('slow');
    const b = drive(callFlow);
    b.send(text('hi'));
    b.send({
      type: 'handler.error',
      requestId: 'lookup#1',
      handler: 'lookupOrder',
      reason: 'error',
      message: 'boom',
    });
    expect(b.state()).toBe('failed');
  });

  it('should ignore inbound messages while the call is pending', () => {
    const d = drive(callFlow);
    d.send(text('hi'));
    expect(d.send(text('hello?'))).toEqual([]);
    expect(d.context().pending).toBe('lookup#1');
  });
});
