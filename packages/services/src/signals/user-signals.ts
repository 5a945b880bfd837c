import type { Context } from "koa";
import { SIGNALS, type UserSignalPayload } from "./names.js";
import { defaultRegistry, type SignalRegistry } from "./signal.js";

/** Login-manager hooks (the shape the security package's `securityPlugin` takes). */
export interface LoginHooks<User = unknown> {
  onLogin?(user: User, ctx: Context, id: string): void | Promise<void>;
  onLogout?(id: string | undefined, ctx: Context): void | Promise<void>;
}

/**
 * Login-manager hooks that send `user.logged_in` and `user.logged_out`, then call the app's own
 * hooks. Both frameworks pass them to the security plugin, so the signals fire in either.
 */
export function userSignalHooks<User>(
  app: LoginHooks<User> = {},
  registry: SignalRegistry = defaultRegistry(),
): Required<LoginHooks<User>> {
  const loggedIn = registry.get<UserSignalPayload>(SIGNALS.userLoggedIn);
  const loggedOut = registry.get<UserSignalPayload>(SIGNALS.userLoggedOut);
  return {
    async onLogin(user, ctx, id) {
      await loggedIn.send({ userId: id });
      await app.onLogin?.(user, ctx, id);
    },
    async onLogout(id, ctx) {
      if (id !== undefined) await loggedOut.send({ userId: id });
      await app.onLogout?.(id, ctx);
    },
  };
}
