import type { ContribSettings } from "../config.js";

/**
 * Whether the contrib layout offers a language switcher (`POST /language`): when a page module
 * (auth, admin, contact) is on and the app offers more than one language.
 */
export function languageSwitchOn(settings: ContribSettings): boolean {
  return Boolean(settings.auth || settings.admin || settings.contact) && (settings.i18n.languages?.length ?? 2) > 1;
}
