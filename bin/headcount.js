#!/usr/bin/env node
// Entry for `npx headcount` / the installed bin: runs the built CLI (npm run build).
import '../dist/main/cli/index.js';
