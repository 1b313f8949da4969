/**
 * The owner's console names its site in the page's title and header, on the login form too: a
 * hosted site by its title (with its id) or its id alone; the default site by its docs' title,
 * as /llms.txt is headed (the front page's title). A title is text, never markup.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildSitesApp, docsFolder, siteDefinition } from "../support/sites-app.ts";

const OPERATOR = "operator-token-0123456789abcdef";
const bearer = { headers: { Authorization: `Bearer ${OPERATOR}` } };

const docs = {
  default: docsFolder({ "index.md": "# Service guide\n\nThe service answers questions about its setup.\n" }),
  alpha: docsFolder({
    "zorblax.md": "# Zorblax frobnicator\n\nThe frobnicator takes a level from one to nine.\n",
  }),
  beta: docsFolder({ "quuxly.md": "# Quuxly sharding\n\nQuuxly shards every table by tenant.\n" }),
};

/** The page's <title> and <h1>, markup as served. */
const named = (html: string) => ({
  title: /<title>(.*)<\/title>/.exec(html)?.[1],
  header: /<h1>(.*)<\/h1>/.exec(html)?.[1],
});

describe("the console's name", () => {
  let service: Awaited<ReturnType<typeof buildSitesApp>>;
  beforeAll(async () => {
    service = await buildSitesApp({
      defaultDocs: docs.default,
      adminToken: OPERATOR,
      sites: [
        {
          definition: siteDefinition("alpha", {
            title: "Zorblax <docs> & co",
            docs: { kind: "folder", path: docs.alpha },
          }),
          folder: docs.alpha,
        },
        {
          definition: siteDefinition("beta", { docs: { kind: "folder", path: docs.beta } }),
          folder: docs.beta,
        },
      ],
    });
  });
  afterAll(() => service?.dispose());

  test("the default site: its docs' front page title, on the console and on the login form", async () => {
    const page = named(await (await service.call("/admin", bearer)).text());
    expect(page.title).toBe("Service guide · Docs chat insights");
    expect(page.header).toBe('Docs chat insights <span class="site">· Service guide</span>');
    const login = named(await (await service.call("/admin")).text());
    expect(login.title).toBe("Sign in · Service guide · Docs chat insights");
  });

  test("a hosted site with a title: its title (escaped) and its id", async () => {
    const page = named(await (await service.call("/sites/alpha/admin", bearer)).text());
    expect(page.title).toBe("Zorblax &#60;docs&#62; &#38; co · Docs chat insights");
    expect(page.header).toBe(
      'Docs chat insights <span class="site">· Zorblax &#60;docs&#62; &#38; co <small>(alpha)</small></span>',
    );
  });

  test("a hosted site without a title: its id", async () => {
    const page = named(await (await service.call("/sites/beta/admin", bearer)).text());
    expect(page.title).toBe("beta · Docs chat insights");
    expect(page.header).toBe('Docs chat insights <span class="site">· beta</span>');
  });
});
