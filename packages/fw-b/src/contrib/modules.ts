import type { ViewModule } from "routing-kernel";
import { AdminHome, AdminMaintenance } from "./admin/home-views.js";
import { AdminUsers } from "./admin/users-views.js";
import { AuthAccount } from "./auth/account-views.js";
import { AuthLogin, AuthLogout, AuthSignup } from "./auth/login-views.js";
import { AuthLostPassword, AuthResetPassword, AuthVerifyEmail } from "./auth/password-views.js";
import type { ContribSettings } from "./config.js";
import { AdminMessages, ContactForm } from "./contact/views.js";
import { languageSwitchOn } from "./i18n/switch.js";
import { LanguageChoice } from "./i18n/views.js";
import { OAuthLogin } from "./oauth/views.js";

/**
 * The view modules of the enabled contrib modules, mounted beside the app's own. Their templates
 * are `contrib/<module>/<Class>/<method>.pug`: fw-b's, unless the app has a file at that path.
 */
export function contribViewModules(settings: ContribSettings): ViewModule[] {
  const modules: ViewModule[] = [];
  if (settings.auth) {
    modules.push({
      name: "contrib/auth",
      exports: { AuthLogin, AuthLogout, AuthSignup, AuthLostPassword, AuthResetPassword, AuthVerifyEmail, AuthAccount },
    });
  }
  if (settings.admin) {
    modules.push({
      name: "contrib/admin",
      exports: { AdminHome, AdminUsers, ...(settings.maintenance ? { AdminMaintenance } : {}) },
    });
  }
  if (settings.contact)
    modules.push({ name: "contrib/contact", exports: { ContactForm, ...(settings.admin ? { AdminMessages } : {}) } });
  if (settings.oauth) modules.push({ name: "contrib/oauth", exports: { OAuthLogin } });
  if (languageSwitchOn(settings)) modules.push({ name: "contrib/i18n", exports: { LanguageChoice } });
  return modules;
}
