// The rules of the daily duplicate: every sentence is in the catalog, in the page's language.

import { t, fillStatic } from "./i18n.js";

fillStatic();
document.title = t("rules_title");
