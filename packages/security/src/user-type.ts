/**
 * The app's user type, declared once by the app so `this.currentUser`, `currentUser(ctx)` and the
 * `auth` hooks are typed without casts:
 *
 *   declare module "fw-a" { interface UserRegistry { user: User } }   // or "fw-b"
 *
 * Without the declaration the current user is `unknown`, as before.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface -- filled in by the app's declaration
export interface UserRegistry {}

/** The user type an app declared in {@link UserRegistry}, else `unknown`. */
export type CurrentUser = UserRegistry extends { user: infer User } ? User : unknown;
