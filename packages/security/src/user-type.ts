/**
 * The app's user type, declared once by the app so `this.currentUser`, `currentUser(ctx)` and the
 * `auth` hooks are typed without casts:
 *
 *   declare module "fw-a" { interface UserRegistry { user: User } }   // or "fw-b"
 *
 * Without the declaration the current user is `unknown`, as before.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by module augmentation, which a type alias cannot take.
export interface UserRegistry {}

/** The user type an app declared in {@link UserRegistry}, else `unknown`. */
export type CurrentUser = UserRegistry extends { user: infer User } ? User : unknown;
