import assert from "node:assert/strict";
import type { SuiteContext } from "../suite.js";

/** Asserts that `build` rejects with `code` and a message matching every pattern. */
async function expectStartupError(build: Promise<unknown>, code: string, patterns: readonly RegExp[]): Promise<void> {
  await assert.rejects(build, (error: unknown) => {
    const { code: actual, message } = error as { code?: unknown; message?: unknown };
    assert.equal(
      actual,
      code,
      `expected a start-up error with code ${code}, got ${String(actual)}: ${String(message)}`,
    );
    for (const pattern of patterns) assert.match(String(message), pattern);
    return true;
  });
}

/** Conflicts and unreadable parameters are refused when the app is built. */
export function conflictCases(s: SuiteContext): void {
  const { Base, decorators: d } = s.adapter;
  s.checks("start-up errors", (declare) => {
    declare("two handlers for the same verb and path are refused at build, naming both", async () => {
      class Clash extends Base {
        index() {
          return "a";
        }
        get() {
          return "b";
        }
      }
      await expectStartupError(
        s.adapter.build([{ name: "conformance/conflicts", exports: { Clash } }]),
        "E_ROUTE_CONFLICT",
        [/Clash\.index/, /Clash\.get/],
      );
    });

    declare("a route decorator that repeats a generated path is a conflict", async () => {
      class Posts extends Base {
        show(id: string) {
          return id;
        }
        @d.route(s.adapter.trailingSlash ? "/show/:slug/" : "/show/:slug")
        bySlug(slug: string) {
          return slug;
        }
      }
      await expectStartupError(
        s.adapter.build([{ name: "conformance/conflicts", exports: { Posts } }]),
        "E_ROUTE_CONFLICT",
        [/Posts\.show/, /Posts\.bySlug/],
      );
    });

    declare("a rest parameter is refused at build, naming the method", async () => {
      class Rest extends Base {
        many(...ids: string[]) {
          return ids.join();
        }
      }
      await expectStartupError(
        s.adapter.build([{ name: "conformance/conflicts", exports: { Rest } }]),
        "E_UNSUPPORTED_PARAMETER",
        [/Rest\.many/],
      );
    });

    declare("the same path with different verbs is not a conflict", async () => {
      class Fine extends Base {
        index() {
          return "get";
        }
        post() {
          return "post";
        }
      }
      await s.adapter.build([{ name: "conformance/conflicts", exports: { Fine } }]);
    });
  });
}
