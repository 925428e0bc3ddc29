import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/metrics/create-metrics.js';

const RULES = 'ops/prometheus-alerts.yml';
const RULE_TESTS = 'ops/prometheus-alerts.test.yml';
const DASHBOARD = 'ops/grafana-dashboard.json';

/** A Prometheus duration, e.g. `5m`, `1h30m`. */
const Duration = z.string().regex(/^(\d+(ms|s|m|h|d|w|y))+$/, 'a Prometheus duration like 5m');
const Labels = z.record(z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/), z.string());

/** The rule file format of Prometheus 2.x (alerting and recording rules). */
const RuleFile = z.strictObject({
  groups: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        interval: Duration.optional(),
        limit: z.number().int().nonnegative().optional(),
        rules: z
          .array(
            z.union([
              z.strictObject({
                alert: z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/),
                expr: z.string().min(1),
                for: Duration.optional(),
                keep_firing_for: Duration.optional(),
                labels: Labels.optional(),
                annotations: z.record(z.string(), z.string()).optional(),
              }),
              z.strictObject({
                record: z.string().regex(/^[a-zA-Z_:][a-zA-Z0-9_:]*$/),
                expr: z.string().min(1),
                labels: Labels.optional(),
              }),
            ]),
          )
          .min(1),
      }),
    )
    .min(1),
});

const Target = z.object({ refId: z.string(), expr: z.string().min(1) });
const Dashboard = z.object({
  title: z.string().min(1),
  uid: z.string().min(1),
  schemaVersion: z.number().int(),
  panels: z
    .array(
      z.union([
        z.object({ id: z.number().int(), type: z.literal('row'), title: z.string() }),
        z.object({
          id: z.number().int(),
          type: z.enum(['timeseries', 'stat', 'gauge', 'table']),
          title: z.string().min(1),
          datasource: z.object({
            type: z.literal('prometheus'),
            uid: z.literal('${DS_PROMETHEUS}'),
          }),
          gridPos: z.object({ h: z.number(), w: z.number().max(24), x: z.number(), y: z.number() }),
          targets: z.array(Target).min(1),
        }),
      ]),
    )
    .min(1),
});

/** Metric names an expression uses (identifiers of our metric families). */
function metricsIn(expr: string): string[] {
  return [...expr.matchAll(/\b(?:switchboard|process|nodejs)_[a-zA-Z0-9_:]*/g)].map((m) => m[0]);
}

/** Every series name the bot's registry exports (histograms with their suffixes). */
async function exportedNames(): Promise<Set<string>> {
  const metrics = createMetrics(
    { on: () => () => undefined },
    { probeStore: () => Promise.resolve(true), oldestWaitingMs: () => Promise.resolve(0) },
  );
  const names = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${metric.name}${suffix}`);
  }
  metrics.dispose();
  return names;
}

function missing(exprs: readonly string[], names: ReadonlySet<string>): string[] {
  return [...new Set(exprs.flatMap(metricsIn))].filter((n) => !names.has(n));
}

const rules = RuleFile.parse(parse(readFileSync(RULES, 'utf8')));
const dashboard = Dashboard.parse(JSON.parse(readFileSync(DASHBOARD, 'utf8')));
const ruleExprs = rules.groups.flatMap((g) => g.rules.map((r) => r.expr));
const dashboardExprs = dashboard.panels.flatMap((p) =>
  'targets' in p ? p.targets.map((t) => t.expr) : [],
);

const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0;

describe('ops kit', () => {
  it('should alert on backlog age, error paths, 429s, store outages and send failures', () => {
    const alerts = rules.groups.flatMap((g) => g.rules.flatMap((r) => ('alert' in r ? [r] : [])));
    const byMetric = (metric: string) => alerts.filter((a) => a.expr.includes(metric));
    expect(byMetric('switchboard_backlog_oldest_age_seconds')).not.toEqual([]);
    expect(byMetric('kind="flow.error"')).not.toEqual([]);
    expect(byMetric('status="429"')).not.toEqual([]);
    expect(byMetric('switchboard_store_up')).not.toEqual([]);
    expect(byMetric('switchboard_sends_total{outcome=~"rejected|unknown"}')).not.toEqual([]);
    for (const alert of alerts) {
      expect(alert.labels?.['severity'], alert.alert).toMatch(/^(warning|critical)$/);
      expect(alert.annotations?.['summary'], alert.alert).toMatch(/\S/);
    }
  });

  it('should name only metrics the bot exports, in the rules and in the dashboard', async () => {
    const names = await exportedNames();
    expect(missing(ruleExprs, names)).toEqual([]);
    expect(missing(dashboardExprs, names)).toEqual([]);
    expect(dashboardExprs.flatMap(metricsIn).length).toBeGreaterThan(15);
  });

  it('should catch a renamed metric', async () => {
    const names = await exportedNames();
    expect(missing(['sum(rate(switchboard_send_total[5m])) > 0'], names)).toEqual([
      'switchboard_send_total',
    ]);
  });

  it('should refuse a rule file that is not of the rule format', () => {
    const bad = { groups: [{ name: 'x', rules: [{ alert: 'A', expr: 'up', for: '5 minutes' }] }] };
    const result = RuleFile.safeParse(bad);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['groups', 0, 'rules', 0, 'for']);
  });

  it('should give each dashboard panel a unique id that fits the grid', () => {
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.runIf(promtool)(
    'should pass promtool check rules and the rules unit tests (skipped when promtool is absent: apt-get install prometheus)',
    () => {
      expect(execFileSync('promtool', ['check', 'rules', RULES], { encoding: 'utf8' })).toMatch(
        /SUCCESS: \d+ rules found/,
      );
      expect(execFileSync('promtool', ['test', 'rules', RULE_TESTS], { encoding: 'utf8' })).toMatch(
        /SUCCESS/,
      );
    },
  );
});

if (!promtool)
  console.warn(
    'ops kit: promtool is not installed, the promtool test is skipped (apt-get install prometheus)',
  );
