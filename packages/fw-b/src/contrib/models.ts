import { defineModel, type BaseRow, type Knex, type Model, type SoftDeleteRow } from "@fwkit/data";
import { bindModels } from "@fwkit/data/battery";

/** A user account of `contrib.auth` (table `fwb_users`). */
export interface UserRow extends BaseRow, SoftDeleteRow {
  id: number;
  /** Lowercase letters, digits, `.`, `_`, `-`; unique. */
  username: string;
  /** Lowercase; unique. */
  email: string;
  name: string;
  /** bcrypt or argon2id; null for accounts made by OAuth until a password is set. */
  password_hash: string | null;
  role: string;
  /** False once an admin deactivates the account (1/0 in SQLite). */
  active: boolean | number;
  email_verified_at: Date | null;
  /** The language the user picked, or null (the browser's then). */
  locale: string | null;
  last_login_at: Date | null;
}

/** A single-use link token (password reset, email confirmation); only its SHA-256 is stored. */
export interface TokenRow extends BaseRow {
  id: number;
  user_id: number;
  kind: "reset" | "verify";
  token_hash: string;
  /** The address being confirmed (a new address on an email change). */
  email: string | null;
  expires_at: Date;
  used_at: Date | null;
}

/** An account at an OAuth provider linked to a user. */
export interface OAuthAccountRow extends BaseRow {
  id: number;
  user_id: number;
  provider: string;
  subject: string;
  email: string | null;
}

/** A message sent through the contact form. */
export interface ContactMessageRow extends BaseRow {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  user_id: number | null;
  read_at: Date | null;
}

/** The contrib models of one app (made per app, so two apps in one process keep their databases). */
export interface ContribModels {
  readonly users: Model<UserRow>;
  readonly tokens: Model<TokenRow>;
  readonly oauthAccounts: Model<OAuthAccountRow>;
  readonly contactMessages: Model<ContactMessageRow>;
}

/** The table names, for migrations and checks. */
export const CONTRIB_TABLES = Object.freeze({
  users: "fwb_users",
  tokens: "fwb_tokens",
  oauthAccounts: "fwb_oauth_accounts",
  contactMessages: "fwb_contact_messages",
  settings: "fwb_settings",
});

/** The contrib models of one app before start-up: `bind(knex)` connects them to its database. */
export type BindableContribModels = ContribModels & { bind(knex: Knex): void };

/** Makes the contrib models of one app; `bind(knex)` connects them. */
export function createContribModels(): BindableContribModels {
  const models = {
    users: defineModel<UserRow>(CONTRIB_TABLES.users, { softDelete: true }),
    tokens: defineModel<TokenRow>(CONTRIB_TABLES.tokens),
    oauthAccounts: defineModel<OAuthAccountRow>(CONTRIB_TABLES.oauthAccounts),
    contactMessages: defineModel<ContactMessageRow>(CONTRIB_TABLES.contactMessages),
  };
  return { ...models, bind: (knex: Knex) => void bindModels(knex, models) };
}

/** True when a user may log in: active and not deleted. */
export function isActive(user: Pick<UserRow, "active" | "deleted_at">): boolean {
  return Boolean(user.active) && !user.deleted_at;
}

/** The user with this id when it may log in (the login manager's `loadUser`), else undefined. */
export async function findActiveUser(models: ContribModels, id: string): Promise<UserRow | undefined> {
  const user = await models.users.find(id);
  return user && isActive(user) ? user : undefined;
}
