/**
 * The widget's settings: the service address from `window.CHATBOT_API_URL` (default: the origin
 * the script came from) and the look from the script tag's data- attributes.
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
    apiUrl: serviceRoot(window.CHATBOT_API_URL, new URL(scriptUrl).origin),
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
