/** The conversation log and the asking of questions: streaming, stop, clear, and the 402 hand-off. */

import { h } from "../browser/dom.ts";
import { answerView } from "./answer-view.ts";
import type { Api, PaymentInfo, RateLimit, ServiceError } from "./chat-api.ts";
import type { Conversation, conversationStore, StoredMessage } from "./conversation.ts";
import type { WidgetConfig } from "./widget-settings.ts";

export interface ChatViewDeps {
  readonly log: HTMLElement;
  readonly config: WidgetConfig;
  readonly api: Api;
  readonly store: ReturnType<typeof conversationStore>;
  /** Polite live region: each finished answer is read out once, not token by token. */
  readonly announce: (text: string) => void;
  readonly onBusy: (busy: boolean) => void;
  readonly onRateLimit: (rateLimit: RateLimit) => void;
  /** The question that got a 402, with what the panel needs. */
  readonly onPaymentRequired: (question: string, payment: PaymentInfo, rateLimit: RateLimit) => void;
}

const CHAT_ERRORS: Readonly<Record<string, string>> = {
  PAID_DAILY_CAP_REACHED: "You reached today's limit of paid questions. Your credits stay for tomorrow.",
  RATE_LIMITED: "Too many questions at once. Wait a second and ask again.",
  EMPTY_MESSAGE: "Type a question first.",
};

export const chatView = (deps: ChatViewDeps) => {
  const { log, api, store } = deps;
  let conversation: Conversation = store.load();
  let controller: AbortController | undefined;
  const save = () => store.save(conversation);

  const scrollDown = () => {
    log.scrollTop = log.scrollHeight;
  };
  const userBubble = (text: string) => h("div", { class: "msg user" }, text);

  const welcome = () => {
    const examples = deps.config.examples.map((example) => {
      const button = h("button", { type: "button" }, example);
      button.addEventListener("click", () => void ask(example));
      return button;
    });
    return h(
      "div",
      { class: "welcome" },
      h("p", {}, deps.config.welcome),
      examples.length > 0 &&
        h("div", { class: "examples", role: "group", "aria-label": "Example questions" }, ...examples),
    );
  };

  const render = () => {
    log.replaceChildren(welcome());
    for (const message of conversation.messages)
      log.append(message.role === "user" ? userBubble(message.text) : answerView(message, api, save).element);
    scrollDown();
  };

  const showError = (text: string) => {
    log.append(h("div", { class: "error", role: "alert" }, text));
    scrollDown();
  };

  const failure = (error: ServiceError) =>
    CHAT_ERRORS[error.code] ??
    (error.status === 503
      ? "The assistant is briefly unavailable; no question was charged. Try again in a moment."
      : error.error);

  /** Asks `question`; resolves when the answer ended, failed, or was stopped. */
  const ask = async (question: string) => {
    const text = question.trim();
    if (text === "" || controller !== undefined) return;
    controller = new AbortController();
    deps.onBusy(true);
    log.append(userBubble(text));
    scrollDown();
    const message: StoredMessage = { role: "assistant", text: "", sources: [] };
    const view = answerView(message, api, save);
    let shown = false;
    let frame = 0;
    const show = () => {
      if (!shown) {
        conversation.messages.push({ role: "user", text }, message);
        log.append(view.element);
        shown = true;
      }
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        view.update(controller !== undefined);
        scrollDown();
      });
    };
    await api.chat(
      text,
      conversation.id,
      {
        sources: (sources) => {
          message.sources = sources;
          show();
        },
        delta: (delta) => {
          message.text += delta;
          show();
        },
        done: ({ answerId, rateLimit }) => {
          message.answerId = answerId;
          if (rateLimit !== undefined) deps.onRateLimit(rateLimit);
        },
        failed: (error) => showError(failure(error)),
        paymentRequired: (payment, rateLimit) => {
          log.lastElementChild?.remove(); // the question is shown again once it is paid for
          deps.onRateLimit(rateLimit);
          deps.onPaymentRequired(text, payment, rateLimit);
        },
      },
      controller.signal,
    );
    if (controller.signal.aborted) message.stopped = true;
    controller = undefined;
    cancelAnimationFrame(frame);
    if (shown) {
      view.update(false);
      deps.announce(message.text);
      save();
    }
    deps.onBusy(false);
    scrollDown();
  };

  render();
  return {
    ask,
    busy: () => controller !== undefined,
    stop: () => controller?.abort(),
    clear: () => {
      controller?.abort();
      conversation = store.clear();
      render();
    },
    showError,
    scrollDown,
  };
};

export type ChatView = ReturnType<typeof chatView>;
