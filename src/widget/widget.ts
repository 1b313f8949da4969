/**
 * The <docs-chat-widget> element: a launcher and a chat dialog in an open shadow root (styles
 * cannot leak either way; tests and assistive tools can still reach inside). Ctrl/Cmd+K opens,
 * Esc closes, focus is trapped in the dialog and given back where it was.
 */

import { h, ICONS, icon } from "../browser/dom.ts";
import { makeApi, type PaymentInfo, type RateLimit } from "./chat-api.ts";
import { chatView } from "./chat-view.ts";
import { conversationStore } from "./conversation.ts";
import type { PayModule } from "./pay/pay-bundle.ts";
import { paymentPanel } from "./payment-panel.ts";
import { quotaText } from "./quota-text.ts";
import { signInPanel } from "./sign-in/sign-in-panel.ts";
import { sessionStore, shortWallet } from "./sign-in/wallet-session.ts";
import { STYLES } from "./styles.ts";
import { followTheme } from "./theme.ts";
import type { WidgetConfig } from "./widget-settings.ts";

export const WIDGET_TAG = "docs-chat-widget";

const FOCUSABLE = "button, [href], input, textarea, select, [tabindex]:not([tabindex='-1'])";

const mount = (host: HTMLElement, config: WidgetConfig) => {
  const root = host.attachShadow({ mode: "open" });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(STYLES);
  root.adoptedStyleSheets = [sheet];
  host.setAttribute("position", config.position);
  if (config.accent !== undefined) {
    host.style.setProperty("--accent", config.accent);
    host.setAttribute("accented", "");
  }
  followTheme(host, config.theme);

  const sessions = sessionStore(config.apiUrl);
  const api = makeApi(config.apiUrl, sessions);
  const isMac = /Mac|iPhone|iPad/.test(navigator.platform);
  const launcher = h(
    "button",
    {
      type: "button",
      class: "launcher",
      "aria-haspopup": "dialog",
      "aria-expanded": "false",
      "aria-controls": "dc-dialog",
    },
    icon(ICONS.chat),
    config.title,
    h("kbd", { "aria-hidden": "true" }, isMac ? "⌘K" : "Ctrl K"),
  );
  const quota = h("span", { class: "quota", "aria-live": "polite" });
  const walletLine = h("span", { class: "wallet-line" });
  const clear = h(
    "button",
    { type: "button", class: "icon", "aria-label": "Clear conversation", title: "Clear conversation" },
    icon(ICONS.clear),
  );
  const close = h(
    "button",
    { type: "button", class: "icon", "aria-label": "Close", title: "Close (Esc)" },
    icon(ICONS.close),
  );
  const log = h("div", { class: "log", tabindex: "-1" });
  const announcer = h("div", { class: "sr-only", "aria-live": "polite", role: "status" });
  const input = h("textarea", {
    rows: "1",
    "aria-label": "Your question",
    placeholder: config.placeholder,
    maxlength: "2000",
  });
  const send = h("button", { type: "submit", class: "primary" }, "Send");
  const stop = h("button", { type: "button", class: "primary", hidden: true }, "Stop");
  const form = h("form", {}, input, send, stop);
  const panel = h(
    "section",
    {
      class: "panel",
      id: "dc-dialog",
      role: "dialog",
      "aria-modal": "true",
      "aria-labelledby": "dc-title",
      hidden: true,
    },
    h(
      "header",
      {},
      h("div", { class: "heading" }, h("h2", { id: "dc-title" }, config.title), quota, walletLine),
      clear,
      close,
    ),
    log,
    announcer,
    form,
    h("p", { class: "footnote" }, "Answers come from the docs and can be wrong: check the sources."),
  );
  root.append(launcher, panel);

  let signInOpen: ReturnType<typeof signInPanel> | undefined;
  /** The wallet line: its paid questions and sign out, or the offer to sign in with one. */
  const showWallet = (rateLimit: RateLimit) => {
    const held = sessions.read();
    if (held === undefined) {
      const useCredits = h("button", { type: "button", class: "link" }, "Use my credits");
      useCredits.addEventListener("click", () => {
        signInOpen?.close();
        signInOpen = signInPanel({ api, loadPay, onSignedIn: (standing) => showQuota(standing.rateLimit) });
        log.append(signInOpen.element);
        chat.scrollDown();
      });
      walletLine.replaceChildren(useCredits);
      return;
    }
    const signOut = h("button", { type: "button", class: "link" }, "Sign out");
    signOut.addEventListener("click", async () => {
      await api.signOut();
      const standing = await api.status();
      if (standing !== undefined) showQuota(standing.rateLimit);
    });
    walletLine.replaceChildren(
      `Paid questions: ${rateLimit.paid ?? 0} (wallet ${shortWallet(held.wallet)}) `,
      signOut,
    );
  };
  const showQuota = (rateLimit: RateLimit) => {
    const text = quotaText(rateLimit);
    quota.replaceChildren(h("strong", {}, text.short), ` · ${text.detail}`);
    quota.title = text.title;
    showWallet(rateLimit);
  };
  let pay: Promise<PayModule> | undefined;
  const loadPay = () => {
    pay ??= import(new URL("widget-pay.js", config.scriptUrl).href) as Promise<PayModule>;
    pay.catch(() => {
      pay = undefined; // a failed load can be retried
    });
    return pay;
  };
  let openPanel: ReturnType<typeof paymentPanel> | undefined;
  const onPaymentRequired = (question: string, payment: PaymentInfo) => {
    openPanel?.close();
    openPanel = paymentPanel({
      api,
      payment,
      question,
      loadPay,
      onPaid: (_granted, rateLimit) => {
        showQuota(rateLimit);
        setTimeout(() => void chat.ask(question), 600);
      },
    });
    log.append(openPanel.element);
    chat.scrollDown();
    openPanel.focus();
  };
  const chat = chatView({
    log,
    config,
    api,
    store: conversationStore(config.apiUrl),
    announce: (text) => {
      announcer.textContent = text;
    },
    onBusy: (busy) => {
      send.hidden = busy;
      stop.hidden = !busy;
      if (!busy && root.activeElement === stop) input.focus();
    },
    onRateLimit: showQuota,
    onPaymentRequired,
  });

  let returnFocus: HTMLElement | null = null;
  const isOpen = () => !panel.hidden;
  const open = () => {
    if (isOpen()) return;
    const active = document.activeElement;
    returnFocus = active === host ? launcher : active instanceof HTMLElement ? active : launcher;
    panel.hidden = false;
    launcher.hidden = true;
    host.setAttribute("open", "");
    launcher.setAttribute("aria-expanded", "true");
    input.focus();
    chat.scrollDown();
    void api.status().then((standing) => standing && showQuota(standing.rateLimit));
  };
  const shut = () => {
    if (!isOpen()) return;
    panel.hidden = true;
    launcher.hidden = false;
    host.removeAttribute("open");
    launcher.setAttribute("aria-expanded", "false");
    (returnFocus === null || !returnFocus.isConnected ? launcher : returnFocus).focus();
  };

  launcher.addEventListener("click", open);
  close.addEventListener("click", shut);
  clear.addEventListener("click", () => {
    openPanel?.close();
    chat.clear();
    input.focus();
  });
  stop.addEventListener("click", () => chat.stop());
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const question = input.value;
    if (question.trim() === "" || chat.busy()) return;
    input.value = "";
    void chat.ask(question);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") {
      event.preventDefault();
      if (isOpen()) shut();
      else open();
    }
  });
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      shut();
    } else if (event.key === "Tab") {
      const focusable = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (node) => !(node as HTMLButtonElement).disabled && node.getClientRects().length > 0,
      );
      const first = focusable[0];
      const last = focusable.at(-1);
      const active = root.activeElement;
      if (event.shiftKey && (active === first || active === log)) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first?.focus();
      }
    }
  });
};

/** Registers the element class; a class is what the platform needs for a custom element. */
export const defineWidget = (config: WidgetConfig) => {
  if (customElements.get(WIDGET_TAG) !== undefined) return;
  customElements.define(
    WIDGET_TAG,
    class extends HTMLElement {
      connectedCallback() {
        if (this.shadowRoot === null) mount(this, config);
      }
    },
  );
};
