#!/usr/bin/env node
// The fw-b command line (built: run `tsc -p tsconfig.build.json` in packages/fw-b first).
import "../dist/cli/main.js";
