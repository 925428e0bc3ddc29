/**
 * Summarises a V8 `.cpuprofile` (written by `node --cpu-prof`): self time grouped by
 * where the code lives (a package of node_modules, a folder of src/, Node's internals,
 * the garbage collector), and the top functions by self time.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

const CpuProfile = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      children: z.array(z.number()).optional(),
      callFrame: z.object({
        functionName: z.string(),
        url: z.string(),
        lineNumber: z.number(),
      }),
    }),
  ),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});

/** One line of a summary: a group or function and its share of sampled time. */
export interface ProfileLine {
  readonly name: string;
  readonly ms: number;
  readonly share: number;
}

/** What {@link summariseProfile} found. */
export interface ProfileSummary {
  readonly totalMs: number;
  /** Sampled time not idle (the event loop waiting is left out of every share). */
  readonly busyMs: number;
  readonly groups: readonly ProfileLine[];
  readonly functions: readonly ProfileLine[];
}

/** The group a script URL belongs to. */
export function groupOf(url: string, functionName: string): string {
  if (url === '') {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(program)') return 'V8/native (program)';
    return 'native';
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg !== null) return `npm: ${pkg[1] ?? '?'}`;
  const src = /\/(src|bench)\/([^/]+)\//.exec(url);
  if (src !== null) return `${src[1] ?? ''}/${src[2] ?? ''}`;
  const node = /^node:(?:internal\/)?([^/]+)/.exec(url);
  if (node !== null) return `node: ${node[1] ?? '?'}`;
  return url;
}

/** Reads and summarises one profile file. */
export async function summariseProfile(path: string, top = 15): Promise<ProfileSummary> {
  const profile = CpuProfile.parse(JSON.parse(await readFile(path, 'utf8')));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Native frames (a socket write, a hash) count for the JavaScript that called them.
  const caller = (id: number): string | undefined => {
    for (let p = parent.get(id); p !== undefined; p = parent.get(p)) {
      const frame = byId.get(p)?.callFrame;
      if (frame !== undefined && frame.url !== '') return groupOf(frame.url, frame.functionName);
    }
    return undefined;
  };
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const [id, ms] of self) {
    const node = byId.get(id);
    if (node === undefined) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    let group = groupOf(url, functionName);
    if (group === 'native') group = caller(id) ?? group;
    totalMs += ms;
    if (group === '(idle)') {
      idleMs += ms;
      continue;
    }
    groups.set(group, (groups.get(group) ?? 0) + ms);
    const short = url.replace(/^.*\/(node_modules|src|bench)\//, '$1/');
    const fn = `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
  }
  const busyMs = totalMs - idleMs;
  const lines = (m: Map<string, number>): ProfileLine[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms, share: busyMs > 0 ? ms / busyMs : 0 }));
  return { totalMs, busyMs, groups: lines(groups), functions: lines(functions) };
}
