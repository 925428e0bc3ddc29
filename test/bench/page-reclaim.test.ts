import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pageReclaimNote } from '../../bench/page-reclaim.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A DAMON sysfs `kdamonds` folder with one kdamond, one context and one scheme. */
function kdamonds(state: string, action: string, ageMin = 12, aggrUs = 5_000_000): string {
  const root = mkdtempSync(join(tmpdir(), 'damon-'));
  dirs.push(root);
  const write = (path: string, value: string | number): void => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), `${value}\n`);
  };
  write('0/state', state);
  write('0/contexts/0/monitoring_attrs/intervals/aggr_us', aggrUs);
  write('0/contexts/0/schemes/0/action', action);
  write('0/contexts/0/schemes/0/access_pattern/age/min', ageMin);
  return root;
}

describe('pageReclaimNote', () => {
  it('should name a running pageout scheme and the idle time it acts after', async () => {
    expect(await pageReclaimNote(kdamonds('on', 'pageout'))).toContain(
      'kdamond 0 pages out memory untouched for 60 s',
    );
  });

  it('should say nothing when the kdamond is off, its scheme does not page out, or there is no DAMON', async () => {
    expect(await pageReclaimNote(kdamonds('off', 'pageout'))).toBeUndefined();
    expect(await pageReclaimNote(kdamonds('on', 'stat'))).toBeUndefined();
    expect(await pageReclaimNote(join(tmpdir(), 'no-such-damon-folder'))).toBeUndefined();
  });
});
