/**
 * Reads the repo's Dockerfile into its instructions, so a test can do what `docker build` and
 * `docker run` would do with it here, where Docker cannot run: the same install command, the
 * same files, the same environment and command. Only the forms the Dockerfile uses are read.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface Instruction {
  readonly keyword: string;
  /** The text after the keyword, continuation lines joined. */
  readonly text: string;
}

export interface Stage {
  readonly from: string;
  readonly name: string | undefined;
  readonly instructions: ReadonlyArray<Instruction>;
}

export interface Dockerfile {
  /** Defaults of the ARGs before the first FROM (the ones FROM lines may use). */
  readonly args: Readonly<Record<string, string>>;
  readonly stages: ReadonlyArray<Stage>;
}

/** Instructions grouped by stage, comments and blank lines dropped. */
export const readDockerfile = (root: string): Dockerfile => {
  const lines = readFileSync(join(root, "Dockerfile"), "utf8").split("\n");
  const joined: string[] = [];
  let pending = "";
  for (const line of lines) {
    if (line.trimStart().startsWith("#") || line.trim() === "") continue;
    pending += line.endsWith("\\") ? `${line.slice(0, -1)} ` : line;
    if (line.endsWith("\\")) continue;
    joined.push(pending.trim());
    pending = "";
  }
  const stages: Array<{ from: string; name: string | undefined; instructions: Instruction[] }> = [];
  const args: Record<string, string> = {};
  for (const line of joined) {
    const keyword = line.split(/\s+/)[0] ?? "";
    const text = line.slice(keyword.length).trim();
    if (keyword.toUpperCase() === "FROM") {
      const [image = "", as, name] = text.split(/\s+/);
      stages.push({ from: image, name: as?.toUpperCase() === "AS" ? name : undefined, instructions: [] });
    } else if (stages.length === 0 && keyword.toUpperCase() === "ARG") {
      const [name = "", value = ""] = text.split("=");
      args[name] = value;
    } else stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), text });
  }
  return { args, stages };
};

/** A FROM image with the global ARGs put in. */
export const imageOf = (dockerfile: Dockerfile, stage: Stage): string =>
  stage.from.replace(/\$\{(\w+)\}/g, (_, name: string) => dockerfile.args[name] ?? "");

/** The texts of every `keyword` instruction of a stage. */
export const textsOf = (stage: Stage, keyword: string): ReadonlyArray<string> =>
  stage.instructions.filter((instruction) => instruction.keyword === keyword).map(({ text }) => text);

/** A RUN's shell command without its `--mount=...` flags. */
export const shellOf = (run: string): string => run.replace(/^(--\S+\s+)+/, "");

/** ENV lines as a record (the `KEY=value` forms). */
export const envOf = (stage: Stage): Record<string, string> =>
  Object.fromEntries(
    textsOf(stage, "ENV").flatMap((text) =>
      text.split(/\s+/).map((pair) => pair.split("=") as [string, string]),
    ),
  );

/** Sources of the COPY instructions that take files from the build context (not `--from`). */
export const contextCopies = (stage: Stage): ReadonlyArray<string> =>
  textsOf(stage, "COPY")
    .filter((text) => !text.startsWith("--from"))
    .flatMap((text) =>
      text
        .replace(/^(--\S+\s+)+/, "")
        .split(/\s+/)
        .slice(0, -1),
    );

/** An exec-form (JSON array) CMD or HEALTHCHECK CMD. */
export const execForm = (text: string): ReadonlyArray<string> =>
  JSON.parse(text.slice(text.indexOf("["))) as ReadonlyArray<string>;
