/**
 * Where this console is mounted: "" for the operator's, `/sites/<id>` for a hosted site's, as
 * the page's script tag says (`data-base`), so its calls and links stay on its own console.
 */
export const consoleBase = (): string =>
  document.querySelector<HTMLScriptElement>("script[data-base]")?.dataset.base ?? "";
