import type { Context } from "koa";
import { flash } from "@fwkit/data";
import { HTTPError } from "@fwkit/koa-host";
import type * as client from "openid-client";
import { login } from "@fwkit/security";
import { safeNextUrl } from "@fwkit/security/plugin";
import { FwB } from "../../base.js";
import { route } from "../../decorators/route.js";
import { E_CONTRIB_SESSION_MISSING, E_OAUTH_FAILED, E_OAUTH_UNAVAILABLE } from "../../errors.js";
import { freeUsername } from "../auth/accounts.js";
import { absoluteUrl } from "../mail.js";
import { isActive, type OAuthAccountRow, type UserRow } from "../models.js";
import { contribOf, translatorOf } from "../runtime.js";
import {
  isOidc,
  OAuthClients,
  openidClient,
  profileOf,
  providerUnavailable,
  scopeOf,
  type OAuthProfile,
} from "./providers.js";

/** The session key of a sign-in in progress. */
const SESSION_KEY = "fwbOAuth";
const MAX_AGE_MS = 10 * 60 * 1000;

interface Pending {
  readonly provider: string;
  readonly state: string;
  readonly verifier: string;
  readonly nonce?: string;
  readonly next: string;
  readonly at: number;
}

const clientsByRuntime = new WeakMap<object, OAuthClients>();

function clientsOf(ctx: Context): OAuthClients {
  const runtime = contribOf(ctx);
  let clients = clientsByRuntime.get(runtime);
  if (!clients) {
    clients = new OAuthClients(runtime.settings.oauth?.providers ?? {});
    clientsByRuntime.set(runtime, clients);
  }
  return clients;
}

function sessionOf(ctx: Context): Record<string, unknown> {
  const session = (ctx as { session?: Record<string, unknown> | null }).session;
  if (!session) throw new E_CONTRIB_SESSION_MISSING("OAuth sign-in");
  return session;
}

/** Finds or makes the account of a provider's profile: linked before, or linked now by verified email. */
async function accountFor(ctx: Context, provider: string, profile: OAuthProfile): Promise<UserRow> {
  const runtime = contribOf(ctx);
  const t = translatorOf(ctx);
  const { users, oauthAccounts } = runtime.models;
  const linked = await oauthAccounts.findBy({ provider, subject: profile.subject } as Partial<OAuthAccountRow>);
  if (linked) {
    const user = await users.find(linked.user_id);
    if (!user || !isActive(user)) throw new E_OAUTH_FAILED(provider, t("auth.login.inactive"));
    return user;
  }
  if (!profile.email || !profile.emailVerified) throw new E_OAUTH_FAILED(provider, t("oauth.unverified"));
  let user = await users.withTrashed().findBy({ email: profile.email } as Partial<UserRow>);
  if (user && !isActive(user)) throw new E_OAUTH_FAILED(provider, t("auth.login.inactive"));
  if (!user) {
    if (runtime.settings.oauth?.signup === false || !runtime.settings.auth?.signup)
      throw new E_OAUTH_FAILED(provider, t("oauth.noAccount"));
    user = await users.create({
      username: await freeUsername(ctx, profile.email),
      email: profile.email,
      name: (profile.name ?? "").replace(/[<>\u0000-\u001f\u007f]/g, "").slice(0, 100),
      password_hash: null,
      role: runtime.settings.auth.defaultRole,
      active: true,
      email_verified_at: new Date(),
      locale: null,
      last_login_at: null,
      deleted_at: null,
    });
  } else if (!user.email_verified_at) {
    user = await users.update(user.id, { email_verified_at: new Date() });
  }
  await oauthAccounts.create({ user_id: user.id, provider, subject: profile.subject, email: profile.email });
  return user;
}

/**
 * Sign-in with OAuth / OpenID Connect providers (`contrib.oauth.providers`): `GET /oauth/:provider`
 * sends the browser to the provider (PKCE, state, and a nonce for OpenID Connect, kept in the
 * session); `GET /oauth/:provider/callback` checks the answer, links the account (before, or now
 * by a verified email address, or a new account) and logs in.
 */
@route("/oauth")
export class OAuthLogin extends FwB {
  @route("/:provider") async start(provider: string) {
    const ctx = this.ctx;
    const options = clientsOf(ctx).options(provider);
    if (!options) throw HTTPError.NotFound(translatorOf(ctx)("oauth.unknown"));
    // Loaded before the provider is asked, so a missing package is not reported as an unreachable provider.
    const oidc = await openidClient();
    let config: client.Configuration;
    try {
      config = await clientsOf(ctx).configuration(provider);
    } catch (error) {
      // Whatever failed (network, server error, an unusable discovery document), the visitor did nothing wrong.
      ctx.log.warn({ err: error, provider }, "fw-b oauth: the provider could not be reached");
      throw new E_OAUTH_UNAVAILABLE(options.title ?? provider, translatorOf(ctx)("oauth.unreachable"));
    }
    const verifier = oidc.randomPKCECodeVerifier();
    const pending: Pending = {
      provider,
      state: oidc.randomState(),
      verifier,
      ...(isOidc(options) ? { nonce: oidc.randomNonce() } : {}),
      next: safeNextUrl(ctx.query["next"], contribOf(ctx).settings.auth!.afterLogin),
      at: Date.now(),
    };
    sessionOf(ctx)[SESSION_KEY] = pending;
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: absoluteUrl(ctx, `/oauth/${provider}/callback`),
      scope: scopeOf(options),
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state: pending.state,
      ...(pending.nonce ? { nonce: pending.nonce } : {}),
    });
    return this.redirect(url.href, 303);
  }

  @route("/:provider/callback") async callback(provider: string) {
    const ctx = this.ctx;
    const t = translatorOf(ctx);
    const options = clientsOf(ctx).options(provider);
    if (!options) throw HTTPError.NotFound(t("oauth.unknown"));
    const session = sessionOf(ctx);
    const pending = session[SESSION_KEY] as Pending | undefined;
    delete session[SESSION_KEY];
    if (!pending || pending.provider !== provider || Date.now() - pending.at > MAX_AGE_MS)
      throw new E_OAUTH_FAILED(provider, t("oauth.expired"));
    if (typeof ctx.query["error"] === "string") throw new E_OAUTH_FAILED(provider, t("oauth.refused"));
    const oidc = await openidClient();
    let profile: OAuthProfile;
    try {
      const config = await clientsOf(ctx).configuration(provider);
      const current = new URL(ctx.originalUrl, absoluteUrl(ctx, "/"));
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        ...(pending.nonce ? { expectedNonce: pending.nonce } : {}),
        idTokenExpected: isOidc(options),
      });
      profile = await profileOf(options, config, tokens);
    } catch (error) {
      if (providerUnavailable(error)) {
        ctx.log.warn({ err: error, provider }, "fw-b oauth: the provider could not be reached");
        throw new E_OAUTH_UNAVAILABLE(options.title ?? provider, t("oauth.unreachable"));
      }
      ctx.log.warn({ err: error, provider }, "fw-b oauth: the sign-in answer was refused");
      throw new E_OAUTH_FAILED(provider, t("oauth.badAnswer"));
    }
    const user = await accountFor(ctx, provider, profile);
    await login(ctx, user);
    await contribOf(ctx).models.users.update(user.id, { last_login_at: new Date() });
    // In the logged-in user's language (`t` is the visitor's), the language of the page it lands on.
    flash(ctx, "success", translatorOf(ctx)("auth.login.welcome", { name: user.name || user.username }));
    return this.redirect(pending.next, 303);
  }
}
