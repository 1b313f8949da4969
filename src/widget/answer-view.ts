/** One answer in the log: its markdown, the sources its [n] link to, and the feedback thumbs. */

import { h, ICONS, icon } from "../browser/dom.ts";
import { safeHref } from "../browser/safe-url.ts";
import type { Api } from "./chat-api.ts";
import type { StoredMessage } from "./conversation.ts";
import { renderMarkdown } from "./markdown-dom.ts";

let answers = 0;

export interface AnswerView {
  readonly element: HTMLElement;
  /** Redraws the body from the message (called as text streams in). */
  readonly update: (streaming: boolean) => void;
}

const copyText = (text: string) => navigator.clipboard.writeText(text);

export const answerView = (message: StoredMessage, api: Api, save: () => void): AnswerView => {
  const prefix = `dc-a${++answers}`;
  const sourceId = (n: number) => `${prefix}-s${n}`;
  const body = h("div", { class: "body" });
  const sources = h("ol", { class: "sources", "aria-label": "Sources" });
  const feedback = h("div", { class: "feedback", role: "group", "aria-label": "Was this answer helpful?" });
  const element = h("article", { class: "msg bot", "aria-label": "Answer" }, body, sources, feedback);

  const citation = (n: number) => {
    const source = message.sources?.find((candidate) => candidate.number === n);
    return source === undefined
      ? undefined
      : { href: `#${sourceId(n)}`, label: `Source ${n}: ${source.title}` };
  };

  // Citation links scroll to their source inside the shadow root (a page #hash cannot reach it).
  element.addEventListener("click", (event) => {
    const link = (event.target as Element).closest("a.cite");
    if (link === null) return;
    event.preventDefault();
    const target = element.querySelector<HTMLElement>(
      `#${CSS.escape(link.getAttribute("href")?.slice(1) ?? "")}`,
    );
    if (target === null) return;
    target.scrollIntoView({ block: "nearest" });
    target.focus();
    target.classList.add("flash");
    setTimeout(() => target.classList.remove("flash"), 1200);
  });

  const drawSources = () => {
    sources.replaceChildren(
      ...(message.sources ?? []).map((source) => {
        const href = safeHref(source.url);
        const title = href
          ? h("a", { href, target: "_blank", rel: "noopener noreferrer" }, source.title)
          : h("span", {}, source.title);
        // Headings are paths that start with the page title ("Guide > Install"): show the rest.
        const heading = source.heading?.startsWith(`${source.title} > `)
          ? source.heading.slice(source.title.length + 3)
          : source.heading;
        const where = heading && heading !== source.title ? heading : source.source;
        return h(
          "li",
          { id: sourceId(source.number), tabindex: "-1" },
          h("span", { class: "n" }, `[${source.number}]`),
          h("span", {}, title, h("span", { class: "where" }, ` · ${where}`)),
        );
      }),
    );
    sources.hidden = sources.childElementCount === 0;
  };

  const drawFeedback = () => {
    const answerId = message.answerId;
    feedback.hidden = answerId === undefined;
    if (answerId === undefined) return;
    const status = h("span", { role: "status" });
    const thumb = (vote: "up" | "down", label: string) => {
      const button = h(
        "button",
        { type: "button", "aria-label": label, "aria-pressed": String(message.vote === vote) },
        icon(vote === "up" ? ICONS.up : ICONS.down),
      );
      button.addEventListener("click", async () => {
        const sent = await api.feedback(answerId, vote);
        status.textContent = sent ? "Thanks for the feedback" : "Feedback could not be sent";
        if (!sent) return;
        message.vote = vote;
        save();
        for (const other of feedback.querySelectorAll("button"))
          other.setAttribute("aria-pressed", String(other === button));
      });
      return button;
    };
    feedback.replaceChildren(thumb("up", "Helpful"), thumb("down", "Not helpful"), status);
  };

  const update = (streaming: boolean) => {
    body.replaceChildren(renderMarkdown(message.text, { citation, copy: copyText }));
    if (message.stopped) body.append(h("p", { class: "stopped" }, "Stopped."));
    body.classList.toggle("typing", streaming);
    element.setAttribute("aria-busy", String(streaming));
    drawSources();
    drawFeedback();
  };
  update(false);
  return { element, update };
};
