/**
 * Whether the kernel reclaims memory that has sat untouched, as some virtual machines have
 * it do (DAMON's `pageout` scheme, run by a kdamond): there a file's clean pages leave the
 * page cache a minute or so after their last use whatever memory is free, so a large state
 * file is read from disk again and the growth row's 1M tail measures the disk. Read from
 * /sys/kernel/mm/damon/admin (absent: none).
 */
import { readdir, readFile } from 'node:fs/promises';

const read = (path: string): Promise<string | undefined> =>
  readFile(path, 'utf8').then(
    (s) => s.trim(),
    () => undefined,
  );

const entries = (path: string): Promise<string[]> => readdir(path).catch(() => []);

/**
 * A sentence naming each running pageout scheme and the age it acts at; undefined: none.
 * `admin`: the kdamonds folder of DAMON's sysfs interface (a test passes its own).
 */
export async function pageReclaimNote(
  admin = '/sys/kernel/mm/damon/admin/kdamonds',
): Promise<string | undefined> {
  const found: string[] = [];
  for (const k of await entries(admin)) {
    if ((await read(`${admin}/${k}/state`)) !== 'on') continue;
    for (const c of await entries(`${admin}/${k}/contexts`)) {
      const context = `${admin}/${k}/contexts/${c}`;
      const aggrUs = Number(await read(`${context}/monitoring_attrs/intervals/aggr_us`));
      for (const s of await entries(`${context}/schemes`)) {
        const scheme = `${context}/schemes/${s}`;
        if ((await read(`${scheme}/action`)) !== 'pageout') continue;
        const ageMin = Number(await read(`${scheme}/access_pattern/age/min`));
        const after =
          Number.isFinite(aggrUs) && Number.isFinite(ageMin)
            ? ` untouched for ${Math.round((ageMin * aggrUs) / 1e6)} s`
            : ' untouched';
        found.push(`kdamond ${k} pages out memory${after}`);
      }
    }
  }
  return found.length === 0
    ? undefined
    : `this machine's kernel reclaims idle page cache (${found.join('; ')}): at 1M most of the state file is read from disk`;
}
