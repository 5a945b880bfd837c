/**
 * @module fw-b/contrib
 * fw-b's contrib modules, each switched on per app in config (`contrib: { auth: true, admin: true,
 * contact: { recipients: [...] }, errors: true, maintenance: true, captcha: true, i18n: {...},
 * oauth: { providers: {...} } }`): auth pages, the admin area, contact form, error pages,
 * maintenance switch, captcha, translations and OAuth sign-in. Their views are mounted by
 * config; their Pug templates live under `templates/contrib/**` (an app file at the same path
 * wins); their tables come with their migrations (`fw-b :migrate`).
 */
export { admin, type AdminOptions, type AdminTag } from "./admin/decorator.js";
export { AdminHome, AdminMaintenance } from "./admin/home-views.js";
export { adminNavigation } from "./admin/nav.js";
export { AdminUsers } from "./admin/users-views.js";
export { AuthAccount } from "./auth/account-views.js";
export { AuthLogin, AuthLogout, AuthSignup } from "./auth/login-views.js";
export { AuthLostPassword, AuthResetPassword, AuthVerifyEmail } from "./auth/password-views.js";
export { consumeToken, issueToken, peekToken, revokeTokens } from "./auth/tokens.js";
export { CAPTCHA_FIELD, CAPTCHA_SESSION_KEY, svgCaptchaVerifier } from "./captcha/svg.js";
export type { CaptchaVerifier } from "./captcha/verifier.js";
export {
  contribSettings,
  type AuthContribOptions,
  type AuthSettings,
  type CaptchaContribOptions,
  type ContactContribOptions,
  type ContribConfig,
  type ContribSettings,
  type I18nContribOptions,
  type MaintenanceContribOptions,
  type OAuthContribOptions,
  type OAuthProviderOptions,
} from "./config.js";
export { AdminMessages, ContactForm } from "./contact/views.js";
export { checkForm, fields } from "./forms.js";
export { EN } from "./i18n/en.js";
export { acceptedLanguages, createI18n, SHIPPED, type I18n, type Translate } from "./i18n/i18n.js";
export { MaintenanceFlag, setMaintenance } from "./maintenance/flag.js";
export { contribMigrations, migrateAll } from "./migrations.js";
export {
  CONTRIB_TABLES,
  createContribModels,
  findActiveUser,
  isActive,
  type BindableContribModels,
  type ContactMessageRow,
  type ContribModels,
  type OAuthAccountRow,
  type TokenRow,
  type UserRow,
} from "./models.js";
export { contribViewModules } from "./modules.js";
export { OAuthLogin } from "./oauth/views.js";
export { fwbPlugin, type FwbPlugin, type FwbPluginOptions } from "./plugin.js";
export {
  ADMIN_TAG,
  DEFAULT_ROLES,
  requireAdmin,
  requireRole,
  ROLE_TAG,
  roleLevel,
  type RoleRequirement,
} from "./roles.js";
export { contribOf, translatorOf, type AdminNavItem, type ContribRuntime } from "./runtime.js";
// The contrib modules' error codes, for an app that branches on one (docs/errors.md).
export {
  E_CONTRIB_CONFIG,
  E_CONTRIB_DRIVER_MISSING,
  E_CONTRIB_NOT_MIGRATED,
  E_CONTRIB_NOT_SET_UP,
  E_CONTRIB_SESSION_MISSING,
  E_MAINTENANCE,
  E_MAINTENANCE_ARGUMENT,
  E_OAUTH_FAILED,
  E_OAUTH_UNAVAILABLE,
  E_ROLE_WITHOUT_AUTH,
  E_USER_COMMAND,
} from "../errors.js";
