#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx, so `npm install` needs no build step
// and bots written in TypeScript can be loaded by `switchboard dev|run <bot>`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
