import type { Context } from "koa";
import { absoluteUrl, sendContribMail } from "../mail.js";
import type { UserRow } from "../models.js";
import { contribOf } from "../runtime.js";
import { issueToken } from "./tokens.js";

/** The account whose username or email is `identifier` (case-insensitive), deleted ones excluded. */
export async function findByLogin(ctx: Context, identifier: string): Promise<UserRow | undefined> {
  const value = identifier.trim().toLowerCase();
  if (value === "" || value.length > 254) return undefined;
  const { users } = contribOf(ctx).models;
  return (
    (await users.findBy({ email: value } as Partial<UserRow>)) ??
    (await users.findBy({ username: value } as Partial<UserRow>))
  );
}

/** Mails a confirmation link for `email` (the account's address, or a new one on an email change). */
export async function sendVerification(ctx: Context, user: UserRow, email = user.email): Promise<boolean> {
  const runtime = contribOf(ctx);
  const auth = runtime.settings.auth!;
  const token = await issueToken(runtime.models, user.id, "verify", auth.verifyTokenTtl, email);
  const link = absoluteUrl(ctx, `/verify-email/${token}`);
  const hours = Math.round(auth.verifyTokenTtl / 3600);
  return sendContribMail(ctx, email, "auth/verify", { user, link, hours, change: email !== user.email });
}

/** Mails a password-reset link (single use, expiring after `resetTokenTtl`). */
export async function sendReset(ctx: Context, user: UserRow): Promise<boolean> {
  const runtime = contribOf(ctx);
  const auth = runtime.settings.auth!;
  const token = await issueToken(runtime.models, user.id, "reset", auth.resetTokenTtl);
  const link = absoluteUrl(ctx, `/reset-password/${token}`);
  const minutes = Math.round(auth.resetTokenTtl / 60);
  return sendContribMail(ctx, user.email, "auth/reset", { user, link, minutes });
}

/** Tells the owner of an address that someone tried to sign up (or move an account) with it. */
export async function sendAddressInUse(ctx: Context, email: string): Promise<boolean> {
  return sendContribMail(ctx, email, "auth/address-in-use", {
    login: absoluteUrl(ctx, "/login"),
    reset: absoluteUrl(ctx, "/lost-password"),
  });
}

/** A username free in the table, made from an email's local part (for OAuth sign-ups). */
export async function freeUsername(ctx: Context, email: string): Promise<string> {
  const base =
    (email.split("@")[0] ?? "user")
      .toLowerCase()
      .replace(/[^a-z0-9_.-]/g, "")
      .replace(/^[^a-z0-9]+/, "")
      .slice(0, 24) || "user";
  const stem = base.length >= 3 ? base : `${base}user`;
  const { users } = contribOf(ctx).models;
  for (let i = 0; i < 50; i++) {
    const candidate = i === 0 ? stem : `${stem}${i + 1}`;
    if (!(await users.withTrashed().findBy({ username: candidate } as Partial<UserRow>))) return candidate;
  }
  return `${stem}${Date.now().toString(36)}`;
}
