/**
 * A token estimate for answers the provider did not count (the extractive generator, or a
 * provider reply without `usage`): about 4 characters per token, the usual rule of thumb for
 * English text with BPE tokenizers. It is an estimate, documented as such, never billed on.
 */
const CHARS_PER_TOKEN = 4;

/** Estimated tokens of everything read (inputs) plus everything written (output). */
export const estimateTokens = (
  inputs: ReadonlyArray<string | { readonly content: string }>,
  output: string,
): number => {
  const chars = inputs.reduce(
    (sum, item) => sum + (typeof item === "string" ? item : item.content).length,
    0,
  );
  return Math.ceil((chars + output.length) / CHARS_PER_TOKEN);
};
