/**
 * What a visitor reads when they ask in another language than the docs' and no language model
 * is configured to translate: the assistant answers in the docs' language. Written in the
 * visitor's language where we know it (the widget's locale, else the language the question is
 * written in), naming the docs' language by its own name. Such a question is not charged and
 * is not a docs gap. Languages are the ones the docs can be analysed in (ISO 639-1).
 */

/** Each language's name for itself. */
export const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  en: "English",
  de: "Deutsch",
  fr: "français",
  es: "español",
  it: "italiano",
  pt: "português",
  nl: "Nederlands",
  sv: "svenska",
  da: "dansk",
  no: "norsk",
  fi: "suomi",
};

/** The languages docs can be written in (ISO 639-1): `language` in the sites file, DOCS_LANGUAGE. */
export const DOCS_LANGUAGES: ReadonlyArray<string> = Object.keys(LANGUAGE_NAMES);

/** The notice in each language; `{docs}` is the docs' language's own name. */
const NOTICES: Readonly<Record<string, string>> = {
  en: "This assistant answers questions in {docs}, the language of these docs. Please ask your question in {docs}. No question was charged.",
  de: "Dieser Assistent beantwortet Fragen auf {docs}, in der Sprache dieser Dokumentation. Bitte stellen Sie Ihre Frage auf {docs}. Es wurde keine Frage berechnet.",
  fr: "Cet assistant répond aux questions en {docs}, la langue de cette documentation. Veuillez poser votre question en {docs}. Aucune question n'a été facturée.",
  es: "Este asistente responde preguntas en {docs}, el idioma de esta documentación. Por favor, haga su pregunta en {docs}. No se ha cobrado ninguna pregunta.",
  it: "Questo assistente risponde alle domande in {docs}, la lingua di questa documentazione. Per favore, fai la tua domanda in {docs}. Nessuna domanda è stata addebitata.",
  pt: "Este assistente responde a perguntas em {docs}, o idioma desta documentação. Por favor, faça a sua pergunta em {docs}. Nenhuma pergunta foi cobrada.",
  nl: "Deze assistent beantwoordt vragen in het {docs}, de taal van deze documentatie. Stel uw vraag in het {docs}. Er is geen vraag in rekening gebracht.",
  sv: "Den här assistenten svarar på frågor på {docs}, språket i den här dokumentationen. Ställ din fråga på {docs}. Ingen fråga har debiterats.",
  da: "Denne assistent besvarer spørgsmål på {docs}, sproget i denne dokumentation. Stil dit spørgsmål på {docs}. Der er ikke trukket noget spørgsmål.",
  no: "Denne assistenten svarer på spørsmål på {docs}, språket i denne dokumentasjonen. Still spørsmålet ditt på {docs}. Ingen spørsmål ble belastet.",
  fi: "Tämä avustaja vastaa kysymyksiin kielellä {docs}, tämän dokumentaation kielellä. Esitä kysymyksesi kielellä {docs}. Kysymystä ei veloitettu.",
};

/** The primary language of a locale ("de-CH" -> "de"; Norwegian Bokmål and Nynorsk -> "no"), if we write it. */
export const localeLanguage = (locale: string | undefined): string | undefined => {
  const primary = locale?.trim().toLowerCase().split(/[-_]/)[0];
  const language = primary === "nb" || primary === "nn" ? "no" : primary;
  return language !== undefined && Object.hasOwn(NOTICES, language) ? language : undefined;
};

/**
 * The notice for a question in `asked` about docs in `docs`, in the locale's language when it is
 * one we write, else in the question's, else in English.
 */
export const languageNotice = (docs: string, asked: string, locale: string | undefined): string => {
  const language = localeLanguage(locale) ?? localeLanguage(asked) ?? "en";
  return NOTICES[language]!.replaceAll("{docs}", LANGUAGE_NAMES[docs] ?? docs);
};
