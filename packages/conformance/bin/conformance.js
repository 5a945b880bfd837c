#!/usr/bin/env node
// `conformance <framework>`: runs the shared routing suite against a framework's adapter.
// Loaded through the package's own "./cli" export, so `--conditions=source` runs the TypeScript.
import { main } from "@fwkit/conformance/cli";

await main(process.argv.slice(2));
