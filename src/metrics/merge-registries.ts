import type { Registry } from 'prom-client';

/**
 * Renders several registries as one Prometheus text page: each metric family once (its
 * HELP and TYPE), with the samples of every registry that has it. The registries of a
 * deployment's numbers carry the same metric names, told apart by their `number` label
 * (`registry.setDefaultLabels({ number })`); prom-client's own merge refuses duplicates.
 * @example
 * res.type('text/plain; version=0.0.4').send(await renderMerged([ops, ...numberRegistries]));
 */
export async function renderMerged(registries: readonly Registry[]): Promise<string> {
  const families = new Map<string, { head: string[]; samples: string[] }>();
  for (const registry of registries) {
    const text = await registry.metrics();
    let current: { head: string[]; samples: string[] } | undefined;
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const meta = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (meta !== null) {
        const name = meta[2] ?? '';
        let family = families.get(name);
        if (family === undefined) {
          family = { head: [], samples: [] };
          families.set(name, family);
        }
        if (!family.head.some((h) => h.startsWith(`# ${meta[1] ?? ''} `))) family.head.push(line);
        current = family;
      } else current?.samples.push(line);
    }
  }
  const out: string[] = [];
  for (const { head, samples } of families.values()) out.push(...head, ...samples);
  return `${out.join('\n')}\n`;
}
