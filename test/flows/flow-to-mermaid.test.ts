import { describe, expect, it } from 'vitest';
import {
  defineFlow,
  flowToMermaid,
  mermaidStateId,
  stateIdOfMermaid,
} from '../../src/flows/index.js';

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
        '  state "welcome" as s_welcome',
        '  s_welcome : buttons menu',
        '  state "handoff" as s_handoff',
        '  s_handoff : handoff',
        '  state "reminder" as s_reminder',
        '  s_reminder : say',
        '  state "bye" as s_bye',
        '  s_bye : final',
        '  [*] --> s_welcome',
        '  s_welcome --> s_handoff : Talk to us',
        '  s_welcome --> s_reminder : Later',
        '  s_welcome --> s_bye : no reply 10m',
        '  s_handoff --> s_welcome : released',
        '  s_reminder --> s_bye : window closed',
        '  s_reminder --> s_bye',
        '  s_bye --> [*]',
        '  state "any state" as anyState',
        '  anyState --> s_welcome : menu',
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
    expect(flowToMermaid(flow)).toContain('state "say-hi" as s_say_hhi');
  });

  it('should keep Mermaid keywords and ids that differ only by - and _ distinct, labelled as written', () => {
    const names = [
      'end',
      'default',
      'note',
      'class',
      'style',
      'state',
      'a-b',
      'a_b',
      'a__b',
      'a_hb',
      'direction',
    ];
    const flow = defineFlow({
      id: 'k',
      version: 1,
      start: 'end',
      states: Object.fromEntries(
        names.map((n, i) => [
          n,
          i === names.length - 1 ? { say: 'x', final: true } : { goto: names[i + 1] ?? 'end' },
        ]),
      ),
    });
    const text = flowToMermaid(flow);
    const ids = names.map(mermaidStateId);
    expect(new Set(ids).size).toBe(names.length);
    for (const [i, n] of names.entries()) {
      expect(ids[i]).toMatch(/^s_[A-Za-z0-9_]+$/);
      expect(text).toContain(`state "${n}" as ${ids[i] ?? ''}\n`);
      expect(stateIdOfMermaid(ids[i] ?? '')).toBe(n);
    }
    // No line uses a keyword as a node id.
    for (const line of text.split('\n').slice(2))
      expect(line).not.toMatch(/^ {2}(end|default|note|class|style) /);
    expect(text).toContain('[*] --> s_end');
  });
});
