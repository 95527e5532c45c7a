#!/usr/bin/env node
// The `tierwise` command: the compiled CLI (npm run -w @tierwise/sdk build).
import '../dist/cli/main.js';
