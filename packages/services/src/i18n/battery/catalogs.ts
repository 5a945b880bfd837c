/**
 * The strings the shared batteries put on a page, in the languages both frameworks ship:
 * pagination labels, the titles of error pages by status (in English the standard reason phrases,
 * which the built-in error page has always shown) and a refused form's summary (in English the
 * data battery's own wording). An app's
 * `locales/<language>.json` overrides any of them (same keys). A test keeps the four in step.
 */
import type { Catalog } from "../catalogs.js";

const EN: Catalog = {
  "pagination.prev": "« Previous",
  "pagination.next": "Next »",
  "pagination.page": "Page {{page}} of {{pages}}",
  "form.invalid": "Please correct the fields marked below.",
  "form.failed": "Validation failed for {{fields}}.",
  "errors.home": "Home page",
  "errors.status.400": "Bad Request",
  "errors.status.401": "Unauthorized",
  "errors.status.403": "Forbidden",
  "errors.status.404": "Not Found",
  "errors.status.405": "Method Not Allowed",
  "errors.status.409": "Conflict",
  "errors.status.410": "Gone",
  "errors.status.413": "Payload Too Large",
  "errors.status.415": "Unsupported Media Type",
  "errors.status.422": "Unprocessable Entity",
  "errors.status.429": "Too Many Requests",
  "errors.status.500": "Internal Server Error",
  "errors.status.502": "Bad Gateway",
  "errors.status.503": "Service Unavailable",
  "errors.message.E_PATH_NOT_SERVED": "Nothing is served at {{path}}.",
  "errors.message.E_METHOD_NOT_ALLOWED": "{{method}} is not allowed here; use {{allow}}.",
  "errors.message.E_CSRF_TOKEN_MISSING":
    '{{method}} requests need a CSRF token: send the form field "_csrf_token" or the header "X-CSRF-Token" with the value of csrf_token() from the page. Reload the form and try again.',
  "errors.message.E_CSRF_TOKEN_INVALID":
    "The CSRF token is invalid or belongs to another session (the session may have expired or you logged out). Reload the form and try again.",
};

const FR: Catalog = {
  "pagination.prev": "« Précédent",
  "pagination.next": "Suivant »",
  "pagination.page": "Page {{page}} sur {{pages}}",
  "form.invalid": "Veuillez corriger les champs signalés ci-dessous.",
  "form.failed": "Vérifiez ces champs : {{fields}}.",
  "errors.home": "Page d'accueil",
  "errors.status.400": "Requête invalide",
  "errors.status.401": "Veuillez vous connecter",
  "errors.status.403": "Accès refusé",
  "errors.status.404": "Page introuvable",
  "errors.status.405": "Méthode non autorisée",
  "errors.status.409": "Conflit",
  "errors.status.410": "Disparu",
  "errors.status.413": "Trop volumineux",
  "errors.status.415": "Type de fichier non pris en charge",
  "errors.status.422": "Vérifiez le formulaire",
  "errors.status.429": "Trop de requêtes",
  "errors.status.500": "Une erreur s'est produite",
  "errors.status.502": "Un service n'a pas répondu",
  "errors.status.503": "Temporairement indisponible",
  "errors.message.E_PATH_NOT_SERVED": "Rien n’est servi à l’adresse {{path}}.",
  "errors.message.E_METHOD_NOT_ALLOWED": "{{method}} n’est pas autorisé ici ; utilisez {{allow}}.",
  "errors.message.E_CSRF_TOKEN_MISSING":
    "Les requêtes {{method}} ont besoin d’un jeton CSRF. Rechargez le formulaire et réessayez.",
  "errors.message.E_CSRF_TOKEN_INVALID":
    "Le jeton CSRF est invalide ou appartient à une autre session (la session a peut-être expiré, ou vous vous êtes déconnecté). Rechargez le formulaire et réessayez.",
};

const ES: Catalog = {
  "pagination.prev": "« Anterior",
  "pagination.next": "Siguiente »",
  "pagination.page": "Página {{page}} de {{pages}}",
  "form.invalid": "Corrige los campos marcados abajo.",
  "form.failed": "Revisa estos campos: {{fields}}.",
  "errors.home": "Página de inicio",
  "errors.status.400": "Solicitud incorrecta",
  "errors.status.401": "Inicia sesión",
  "errors.status.403": "No permitido",
  "errors.status.404": "Página no encontrada",
  "errors.status.405": "Método no permitido",
  "errors.status.409": "Conflicto",
  "errors.status.410": "Ya no existe",
  "errors.status.413": "Demasiado grande",
  "errors.status.415": "Tipo de archivo no admitido",
  "errors.status.422": "Revisa el formulario",
  "errors.status.429": "Demasiadas solicitudes",
  "errors.status.500": "Algo ha fallado",
  "errors.status.502": "Un servicio no ha respondido",
  "errors.status.503": "No disponible temporalmente",
  "errors.message.E_PATH_NOT_SERVED": "No hay nada en {{path}}.",
  "errors.message.E_METHOD_NOT_ALLOWED": "{{method}} no está permitido aquí; use {{allow}}.",
  "errors.message.E_CSRF_TOKEN_MISSING":
    "Las peticiones {{method}} necesitan un token CSRF. Recargue el formulario e inténtelo de nuevo.",
  "errors.message.E_CSRF_TOKEN_INVALID":
    "El token CSRF no es válido o pertenece a otra sesión (puede que la sesión haya caducado o que haya cerrado la sesión). Recargue el formulario e inténtelo de nuevo.",
};

const DE: Catalog = {
  "pagination.prev": "« Zurück",
  "pagination.next": "Weiter »",
  "pagination.page": "Seite {{page}} von {{pages}}",
  "form.invalid": "Bitte korrigieren Sie die unten markierten Felder.",
  "form.failed": "Bitte prüfen Sie diese Felder: {{fields}}.",
  "errors.home": "Startseite",
  "errors.status.400": "Ungültige Anfrage",
  "errors.status.401": "Bitte melden Sie sich an",
  "errors.status.403": "Nicht erlaubt",
  "errors.status.404": "Seite nicht gefunden",
  "errors.status.405": "Methode nicht erlaubt",
  "errors.status.409": "Konflikt",
  "errors.status.410": "Nicht mehr vorhanden",
  "errors.status.413": "Zu groß",
  "errors.status.415": "Dateityp nicht unterstützt",
  "errors.status.422": "Prüfen Sie das Formular",
  "errors.status.429": "Zu viele Anfragen",
  "errors.status.500": "Etwas ist schiefgegangen",
  "errors.status.502": "Ein Dienst hat nicht geantwortet",
  "errors.status.503": "Vorübergehend nicht verfügbar",
  "errors.message.E_PATH_NOT_SERVED": "Unter {{path}} gibt es nichts.",
  "errors.message.E_METHOD_NOT_ALLOWED": "{{method}} ist hier nicht erlaubt; verwenden Sie {{allow}}.",
  "errors.message.E_CSRF_TOKEN_MISSING":
    "{{method}}-Anfragen brauchen ein CSRF-Token. Laden Sie das Formular neu und versuchen Sie es noch einmal.",
  "errors.message.E_CSRF_TOKEN_INVALID":
    "Das CSRF-Token ist ungültig oder gehört zu einer anderen Sitzung (die Sitzung ist vielleicht abgelaufen, oder Sie haben sich abgemeldet). Laden Sie das Formular neu und versuchen Sie es noch einmal.",
};

/** The batteries' strings by language: English, French, Spanish, German. */
export const BATTERY_CATALOGS: Readonly<Record<string, Catalog>> = Object.freeze({ en: EN, fr: FR, es: ES, de: DE });
