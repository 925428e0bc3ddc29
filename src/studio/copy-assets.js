/* global URL */
// Runs after `npm run build` (the `postbuild` script): the studio's page (HTML, browser
// modules, CSS) and its module hooks are plain files that tsc does not emit; the compiled
// studio (dist/studio) serves and registers them from beside itself.
import { cpSync, mkdirSync } from 'node:fs';

const from = new URL('./', import.meta.url);
const to = new URL('../../dist/studio/', import.meta.url);
mkdirSync(to, { recursive: true });
cpSync(new URL('web/', from), new URL('web/', to), { recursive: true });
cpSync(new URL('fresh-import-hooks.js', from), new URL('fresh-import-hooks.js', to));
