/**
 * widget.js: `<script src=".../widget.js" defer data-title="..."></script>` adds the assistant to
 * a page. Nothing happens when `window.CHATBOT_DISABLED` is true.
 */

import { defineWidget, WIDGET_TAG } from "./widget.ts";
import { readConfig } from "./widget-settings.ts";

const script = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;

const start = () => {
  if (window.CHATBOT_DISABLED === true || document.querySelector(WIDGET_TAG) !== null) return;
  defineWidget(readConfig(script));
  document.body.append(document.createElement(WIDGET_TAG));
};

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
else start();
