import assert from "node:assert/strict";
import type { SuiteContext } from "../suite.js";
import { expectStatus, expectText } from "../suite.js";

/**
 * A class route is inherited like any class attribute (Flask-Classful's `route_base`):
 * a subclass is served under its ancestor's class route, with its parameter binding, unless it
 * sets a class route of its own.
 */
export function inheritanceCases(s: SuiteContext): void {
  const { Base, decorators: d } = s.adapter;

  @d.route("/account/:accountId")
  class Account extends Base {
    index(accountId: string) {
      return `account ${accountId}`;
    }
    orders(accountId: string, orderId: string) {
      return `account ${accountId} order ${orderId}`;
    }
  }

  class SubAccount extends Account {
    invoices(accountId: string) {
      return `invoices of ${accountId}`;
    }
  }

  @d.route("/team/:accountId")
  class TeamAccount extends Account {}

  class SubTeam extends TeamAccount {
    members(accountId: string) {
      return `members of ${accountId}`;
    }
  }

  // Account itself is not mounted: its subclasses share its routes' paths (see the conflict check).
  const modules = () => [{ name: "conformance/inheritance", exports: { SubAccount, SubTeam } }];

  s.group("class routes are inherited", modules, (test) => {
    test("a subclass is served under its parent's class route, binding its :param", async (http) => {
      expectText(await http.get(s.p("/account/7")), "account 7", "SubAccount.index (inherited)");
      expectText(await http.get(s.p("/account/7/orders/9")), "account 7 order 9", "SubAccount.orders (inherited)");
      expectText(await http.get(s.p("/account/7/invoices")), "invoices of 7", "SubAccount.invoices (its own method)");
      expectStatus(await http.get(s.p("/sub-account/7")), 404, "no generated prefix for a subclass of a class route");
    });

    test("a subclass's own class route overrides the inherited one, and is inherited in turn", async (http) => {
      expectText(
        await http.get(s.p("/team/3/orders/4")),
        "account 3 order 4",
        "SubTeam.orders under TeamAccount's route",
      );
      expectText(await http.get(s.p("/team/3/members")), "members of 3", "SubTeam.members");
      expectStatus(await http.get(s.p("/sub-team/3")), 404, "no generated prefix for SubTeam");
    });
  });

  s.checks("class routes are inherited: start-up errors", (declare) => {
    declare("parent and subclass sharing a class route are a conflict naming both handlers", async () => {
      await assert.rejects(
        s.adapter.build([{ name: "conformance/inheritance", exports: { Account, SubAccount } }]),
        (error: unknown) => {
          const { code, message } = error as { code?: unknown; message?: unknown };
          assert.equal(code, "E_ROUTE_CONFLICT", String(message));
          assert.match(String(message), /Account\.index\(\)/);
          assert.match(
            String(message),
            /SubAccount\.index\(\) in views\/conformance\/inheritance \(inherited from Account; served under the class route of Account/,
          );
          return true;
        },
      );
    });
  });
}
