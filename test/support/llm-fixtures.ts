import * as Effect from "effect/Effect";
import type * as Layer from "effect/Layer";
import { Generator } from "../../core/ports/generator.ts";
import type { RetrievedChunk } from "../../core/ports/retrieval.ts";

/** Builds the generator layer and runs `use` with the generator. */
export const withGenerator = <A, E>(
  layer: Layer.Layer<Generator>,
  use: (generator: Generator["Service"]) => Effect.Effect<A, E>,
) =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* use(yield* Generator);
    }).pipe(Effect.provide(layer)),
  );

/** Builds a retrieved chunk with defaults for the fields a test does not care about. */
export const chunk = (
  fields: Partial<RetrievedChunk> & Pick<RetrievedChunk, "text">,
  index = 0,
): RetrievedChunk => ({
  id: `chunk-${index}`,
  title: `Doc ${index + 1}`,
  heading: "",
  source: `doc-${index + 1}.md`,
  url: "",
  score: 1 - index / 10,
  ...fields,
});

/** Five passages about Node's fs module, in retrieval order. */
export const FS_CHUNKS: ReadonlyArray<RetrievedChunk> = [
  chunk(
    {
      title: "File system",
      heading: "Promises API > fsPromises.writeFile(file, data[, options])",
      url: "https://nodejs.org/api/fs.html#fspromiseswritefilefile-data-options",
      text: [
        "Asynchronously writes data to a file, replacing the file if it already exists.",
        "The encoding option is ignored if data is a buffer.",
        "",
        "```js",
        "import { writeFile } from 'node:fs/promises';",
        "await writeFile('message.txt', 'Hello Node.js');",
        "```",
      ].join("\n"),
    },
    0,
  ),
  chunk(
    {
      title: "File system",
      heading: "Promises API > fsPromises.readFile(path[, options])",
      url: "https://nodejs.org/api/fs.html#fspromisesreadfilepath-options",
      text: "Asynchronously reads the entire contents of a file. If no encoding is specified, the data is returned as a Buffer object. Otherwise, the data will be a string.",
    },
    1,
  ),
  chunk(
    {
      title: "File system",
      heading: "Promises API > fsPromises.unlink(path)",
      url: "https://nodejs.org/api/fs.html#fspromisesunlinkpath",
      text: "If path refers to a symbolic link, then the link is removed without affecting the file or directory to which that link refers. Use fsPromises.rmdir() to remove a directory.",
    },
    2,
  ),
  chunk(
    {
      title: "Path",
      heading: "path.join([...paths])",
      url: "https://nodejs.org/api/path.html#pathjoinpaths",
      text: "The path.join() method joins all given path segments together using the platform-specific separator as a delimiter, then normalizes the resulting path. Zero-length path segments are ignored.",
    },
    3,
  ),
  chunk(
    {
      title: "Process",
      heading: "process.env",
      url: "https://nodejs.org/api/process.html#processenv",
      text: "The process.env property returns an object containing the user environment. Assigning a property on process.env will implicitly convert the value to a string.",
    },
    4,
  ),
];
