import { describe, expect, it } from 'vitest';
import { defineFlow, flowToMermaid } from '../../src/flows/index.js';

describe('flowToMermaid', () => {
  it('should draw states, option titles, timeouts, handoff and window edges', () => {
    const flow = defineFlow({
      id: 'graph-demo',
      version: 4,
      start: 'welcome',
      triggers: [{ keywords: ['menu'], goto: 'welcome' }],
      states: {
        welcome: {
          menu: {
            body: 'Pick',
            options: [
              { id: 'human', title: 'Talk to us', goto: 'handoff' },
              { id: 'late', title: 'Later', goto: 'reminder' },
            ],
          },
          timeout: { after: '10m', goto: 'bye' },
        },
        handoff: { handoff: { resume: 'welcome' } },
        reminder: { say: { text: 'Hi', window: { onClosed: 'goto', goto: 'bye' } }, goto: 'bye' },
        bye: { say: 'Bye', final: true },
      },
    });
    expect(flowToMermaid(flow)).toBe(
      [
        'stateDiagram-v2',
        '  %% graph-demo v4',
        '  welcome : buttons menu',
        '  handoff : handoff',
        '  reminder : say',
        '  bye : final',
        '  [*] --> welcome',
        '  welcome --> handoff : Talk to us',
        '  welcome --> reminder : Later',
        '  welcome --> bye : no reply 10m',
        '  handoff --> welcome : released',
        '  reminder --> bye : window closed',
        '  reminder --> bye',
        '  bye --> [*]',
        '  state "any state" as anyState',
        '  anyState --> welcome : menu',
        '',
      ].join('\n'),
    );
  });

  it('should give hyphenated state names a safe id', () => {
    const flow = defineFlow({
      id: 'h',
      version: 1,
      start: 'say-hi',
      states: { 'say-hi': { say: 'hi', final: true } },
    });
    expect(flowToMermaid(flow)).toContain('state "say-hi" as say_hi');
  });
});
