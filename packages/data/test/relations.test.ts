// Relations on every dialect: each kind, preloading (nested, constrained, counted in queries),
// lazy relation queries, pivot writes in transactions, cascade rules, soft deletes, hidden columns.
import { serverSkip } from "@fwkit/test-servers";
import { relationSuite } from "./relations.case.js";

relationSuite("SQLite", "sqlite");
relationSuite("PostgreSQL", "postgres", serverSkip);
relationSuite("MariaDB", "mysql", serverSkip);
