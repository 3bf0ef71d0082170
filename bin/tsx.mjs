#!/usr/bin/env node
// Runs a TypeScript script of this repository (benchmarks, tools): node bin/tsx.mjs file.ts [args]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const [script] = process.argv.splice(2, 1);
if (!script) {
  console.error('usage: node bin/tsx.mjs <file.ts> [args]');
  process.exit(2);
}
await import(pathToFileURL(resolve(script)).href);
