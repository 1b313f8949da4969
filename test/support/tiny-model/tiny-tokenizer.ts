/**
 * The WordPiece tokenizer files of the tiny test model (tokenizer.json in the Hugging Face
 * tokenizers format, tokenizer_config.json), with a vocabulary in which every lower-case word
 * splits into known pieces.
 */

const SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
const LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789".split("");
const WORDS = "the how do to a file read write stream http server buffer process directory hello world".split(
  " ",
);
/** Every lower-case word splits into known pieces, so only odd symbols become [UNK]. */
export const TINY_VOCABULARY = [...SPECIAL, ...LETTERS, ...LETTERS.map((c) => `##${c}`), ...WORDS];

/** tokenizer.json: BERT normaliser and pre-tokenizer, [CLS] A [SEP] template, WordPiece model. */
export const tokenizerJson = (maxLength: number) => {
  const special = (token: string) => ({ SpecialToken: { id: token, type_id: 0 } });
  const ids = (token: string) => ({ id: token, ids: [TINY_VOCABULARY.indexOf(token)], tokens: [token] });
  return {
    version: "1.0",
    truncation: { direction: "Right", max_length: maxLength, strategy: "LongestFirst", stride: 0 },
    padding: null,
    added_tokens: SPECIAL.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [special("[CLS]"), { Sequence: { id: "A", type_id: 0 } }, special("[SEP]")],
      pair: [
        special("[CLS]"),
        { Sequence: { id: "A", type_id: 0 } },
        special("[SEP]"),
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: { "[CLS]": ids("[CLS]"), "[SEP]": ids("[SEP]") },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(TINY_VOCABULARY.map((token, id) => [token, id])),
    },
  };
};

/** tokenizer_config.json for a BERT tokenizer that truncates at `maxLength` tokens. */
export const tokenizerConfig = (maxLength: number) => ({
  tokenizer_class: "BertTokenizer",
  do_lower_case: true,
  model_max_length: maxLength,
  cls_token: "[CLS]",
  sep_token: "[SEP]",
  pad_token: "[PAD]",
  unk_token: "[UNK]",
  mask_token: "[MASK]",
});
