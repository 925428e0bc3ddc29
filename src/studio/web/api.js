/* global fetch */
/** JSON calls to the studio server (`/api`); errors carry the server's message. */

export async function getJSON(path) {
  const res = await fetch(`/api${path}`, { headers: { Accept: 'application/json' } });
  return answer(res);
}

export async function postJSON(path, body) {
  const res = await fetch(`/api${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  return answer(res);
}

async function answer(res) {
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error ?? `${res.status} ${res.statusText}`);
  return body;
}

/** "2h 5m", "45s", "3d 1h" */
export function formatDuration(ms) {
  if (ms === null || ms === undefined) return '–';
  const s = Math.floor(Math.abs(ms) / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${s % 60 === 0 ? '' : ` ${s % 60}s`}`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h${m % 60 === 0 ? '' : ` ${m % 60}m`}`;
  const d = Math.floor(h / 24);
  return `${d}d${h % 24 === 0 ? '' : ` ${h % 24}h`}`;
}

/** "14:05" on the studio clock. */
export function formatTime(ms) {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}
