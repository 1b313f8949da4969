/** The docs' languages: detection, the question's language, and each language's analysis. */
import { describe, expect, test } from "bun:test";
import { analysisFor, terms } from "../../adapters/shared/text-analysis/analyze.ts";
import {
  commonWords,
  detectDocsLanguage,
  LANGUAGE_CODES,
  questionLanguage,
} from "../../adapters/shared/text-analysis/languages.ts";
import { DOCS_LANGUAGES, languageNotice, localeLanguage } from "../../core/answers/language-notice.ts";

const GERMAN_DOCS = [
  "Der Wassertank fasst 1,8 Liter. Füllen Sie ihn nur mit frischem, kaltem Wasser.",
  "Die Brühgruppe lässt sich herausnehmen; spülen Sie sie einmal pro Woche unter fließendem Wasser ab.",
  "Wenn das Display E07 zeigt, ist das Mahlwerk blockiert. Schalten Sie das Gerät aus und wenden Sie sich an den Kundendienst.",
];
const ENGLISH_DOCS = [
  "The kettle holds 1.7 litres of water and boils a full load in 4 minutes.",
  "To change a preset, long-press its button on the base for 3 seconds.",
  "`fs.readdir(path[, options], callback)` reads the contents of a directory.",
];

describe("languages", () => {
  test("the languages analysis knows are the ones settings accept and notices are written in", () => {
    expect([...LANGUAGE_CODES].sort()).toEqual([...DOCS_LANGUAGES].sort());
  });

  test("the docs' language is detected from their text; code and too little text stay English", () => {
    expect(detectDocsLanguage(GERMAN_DOCS)).toBe("de");
    expect(detectDocsLanguage(ENGLISH_DOCS)).toBe("en");
    expect(detectDocsLanguage(["fs.readdir(path, callback)", "SELECT * FROM t ON CONFLICT DO NOTHING"])).toBe(
      "en",
    );
    expect(detectDocsLanguage([])).toBe("en");
  });

  test("a question is in another language only when its own words say so", () => {
    expect(questionLanguage("Wie lange hält der Akku?", "en")).toBe("de");
    expect(questionLanguage("Combien de temps dure la batterie ?", "en")).toBe("fr");
    expect(questionLanguage("How long does the battery last?", "de")).toBe("en");
    // franc alone reads these as German or French: their stop words keep them English.
    expect(questionLanguage("What is fs.readdir?", "en")).toBe("en");
    expect(questionLanguage("ON CONFLICT DO UPDATE", "en")).toBe("en");
    expect(questionLanguage("E07", "de")).toBe("de");
    // English on German docs is English, though franc reads it as French ("en route").
    expect(questionLanguage("Does it support a proxy en route to the server?", "de")).toBe("en");
    // Ties between languages sharing stop words ("de", "la") go to franc's ranking.
    expect(questionLanguage("¿Cuánto dura la batería?", "en")).toBe("es");
    // One stop word tells no language: the docs' is assumed.
    expect(questionLanguage("Wie funktioniert NFC?", "en")).toBe("en");
  });

  test("German is read as Unicode words, its stop words dropped and its words stemmed", () => {
    const german = analysisFor("de");
    expect(german.terms("Wie lange hält der Akku?")).toEqual(["lang", "halt", "akku"]);
    expect(german.terms("Die Brühgruppe")).toEqual(["bruhgrupp"]);
    // The English analysis is the one the large corpora were calibrated on: ASCII words, Porter.
    expect(terms("Wie lange hält der Akku?")).not.toContain("halt");
    expect(analysisFor("xx")).toBe(analysisFor("en"));
  });

  test("identifiers are split in every language", () => {
    expect(analysisFor("de").terms("maxSpeicherGröße")).toEqual(
      expect.arrayContaining(["maxspeichergröße", "max", "speich"]),
    );
  });

  test("each language's common words are read from its list", () => {
    expect(commonWords("en").has("the")).toBe(true);
    expect(commonWords("de").has("und")).toBe(true);
    expect(commonWords("en").size).toBeGreaterThan(5000);
  });
});

describe("the notice for a question in another language", () => {
  test("is written in the widget's locale, else the question's language, else English", () => {
    expect(languageNotice("en", "de", undefined)).toContain(
      "Dieser Assistent beantwortet Fragen auf English",
    );
    expect(languageNotice("de", "en", "fr-CA")).toContain("Cet assistant répond aux questions en Deutsch");
    expect(languageNotice("en", "xx", "tlh")).toContain("This assistant answers questions in English");
    expect(localeLanguage("nb-NO")).toBe("no");
    expect(localeLanguage(" DE-ch ")).toBe("de");
    expect(localeLanguage(undefined)).toBeUndefined();
  });

  test("every language has its notice, and each says nothing was charged in its own words", () => {
    for (const language of DOCS_LANGUAGES) {
      const notice = languageNotice("en", language, language);
      expect(notice).toContain("English");
      expect(notice).not.toContain("{docs}");
    }
  });
});
