#!/usr/bin/env node
// Entry for `npx headcount` / the installed bin: runs the built CLI (npm run build), bundled into
// one file because it starts in about half the time (bin/build-cli-bundle.mjs).
import '../dist/main/cli/headcount.bundle.mjs';
