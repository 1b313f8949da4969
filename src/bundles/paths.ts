/** Where the widget bundles are written and served from (dist/ is git-ignored). */
import { fileURLToPath } from "node:url";

export const WIDGET_DIST = fileURLToPath(new URL("../../dist/widget/", import.meta.url));
