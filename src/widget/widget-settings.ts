/**
 * The widget's settings: the service address from `window.CHATBOT_API_URL` (default: the origin
 * the script came from), the site it asks for from `data-site` (a service hosting several docs
 * sites serves each under `/sites/<id>/`), and the look from the script tag's data- attributes.
 */

declare global {
  interface Window {
    CHATBOT_API_URL?: string;
    CHATBOT_DISABLED?: boolean;
  }
}

export type Theme = "auto" | "light" | "dark";

export interface WidgetConfig {
  /** The service root, without a trailing slash. */
  readonly apiUrl: string;
  /** Where widget.js came from: the pay bundle is loaded beside it. */
  readonly scriptUrl: string;
  readonly title: string;
  readonly placeholder: string;
  readonly theme: Theme;
  readonly position: "right" | "left";
  /** A CSS colour the browser accepts, or undefined for the default. */
  readonly accent: string | undefined;
  readonly welcome: string;
  readonly examples: ReadonlyArray<string>;
}

/** A hosted site's id, as the service accepts it (core/config/config-site.ts). */
const SITE_ID = /^[a-z0-9-]{1,40}$/;

/** The service root, under `/sites/<id>` when the tag names a site; an invalid id is ignored. */
const siteRoot = (root: string, site: string | undefined): string => {
  const id = site?.trim();
  return id !== undefined && SITE_ID.test(id) ? `${root}/sites/${id}` : root;
};

const DEFAULT_WELCOME = "Hi! Ask me anything about these docs. Answers cite their sources.";

const serviceRoot = (value: unknown, fallback: string): string => {
  if (typeof value !== "string" || value.trim() === "") return fallback;
  try {
    const url = new URL(value.trim(), location.href);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href.replace(/\/+$/, "") : fallback;
  } catch {
    return fallback;
  }
};

/** Reads the settings; `script` is the widget's own script tag (null when injected without one). */
export const readConfig = (script: HTMLScriptElement | null): WidgetConfig => {
  const scriptUrl = script?.src || location.href;
  const data = script?.dataset ?? {};
  const accent = data.accent?.trim();
  const theme = data.theme === "light" || data.theme === "dark" ? data.theme : "auto";
  return {
    apiUrl: siteRoot(serviceRoot(window.CHATBOT_API_URL, new URL(scriptUrl).origin), data.site),
    scriptUrl,
    title: data.title?.trim() || "Ask the docs",
    placeholder: data.placeholder?.trim() || "Ask a question about the docs…",
    theme,
    position: data.position === "left" ? "left" : "right",
    accent: accent !== undefined && CSS.supports("color", accent) ? accent : undefined,
    welcome: data.welcome?.trim() || DEFAULT_WELCOME,
    examples: (data.examples ?? "")
      .split("|")
      .map((example) => example.trim())
      .filter((example) => example !== "")
      .slice(0, 4),
  };
};
