// The process time zone is set before anything else runs: timestamps must still be UTC.
import "./support/new-york-time.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import { requireServer, serverSkip } from "@fwkit/test-servers";
import { connect } from "../src/index.js";
import { modelSuite } from "./model.case.js";

const dir = mkdtempSync(join(tmpdir(), "data-models-"));
after(() => rmSync(dir, { recursive: true, force: true }));

modelSuite("SQLite", () => connect("sqlite:app.db", { root: dir }));
modelSuite("PostgreSQL", async () => connect(await requireServer("postgres")), { skip: serverSkip });
modelSuite("MariaDB", async () => connect(await requireServer("mysql")), { skip: serverSkip });
