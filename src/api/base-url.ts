/**
 * The API root of a base URL given with or without a trailing `/v1` (the client's paths
 * start with `/v1`): `https://api.example.com/v1/` → `https://api.example.com`.
 * @example
 * apiRoot('http://127.0.0.1:4010/v1'); // 'http://127.0.0.1:4010'
 */
export function apiRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/i, '');
}
