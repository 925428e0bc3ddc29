import type { StateFigures } from './state-analytics.js';
import type { StudioBotState } from './studio.js';
import { studioDiagram } from './studio-bot.js';

/**
 * The bot as the studio page's flow panel shows it: name, flows with their diagrams and
 * states, and each flow's per-state figures from `analyticsOf` (the sandbox session's
 * recorder, or an attached store's conversations).
 */
export function botView(
  state: StudioBotState,
  analyticsOf: (flowId: string) => Record<string, StateFigures>,
) {
  return {
    name: state.bot.name,
    source: state.bot.resolved.source,
    entry: state.bot.resolved.entry ?? state.bot.resolved.flows[0]?.id,
    error: state.error ?? null,
    generation: state.generation,
    lastReload: state.lastReload ?? null,
    flows: state.bot.flows.map((f) => ({
      id: f.id,
      version: f.version,
      file: f.file ?? null,
      mermaid: studioDiagram(f) ?? null,
      states: f.definition === undefined ? [] : Object.keys(f.definition.states),
      warnings: f.warnings,
      analytics: analyticsOf(f.id),
    })),
  };
}
