// The page that explains fair deals: its words, in the page's language.

import { fillStatic, t } from "./i18n.js";

fillStatic();
document.title = t("fair_title");
