#!/usr/bin/env node
// The `brain` command. Runs the TypeScript sources through tsx, so `npx brain` works from a
// fresh clone right after `npm install`, with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/index.ts');
