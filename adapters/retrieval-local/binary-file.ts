/**
 * A file of named typed arrays behind a JSON header: "DCIX", the header length (u32 LE), the
 * header, then each array 8-byte aligned. Reading makes views over the one buffer read from
 * disk, so loading copies nothing and parses no number lists; a wrong magic, a truncated file
 * or a section that runs past the end is an error, never a silent short read.
 */

const MAGIC = "DCIX";

const KINDS = {
  u8: Uint8Array,
  i8: Int8Array,
  u32: Uint32Array,
  f32: Float32Array,
} as const;
export type SectionKind = keyof typeof KINDS;
type ArrayOf<K extends SectionKind> = InstanceType<(typeof KINDS)[K]>;
export type SectionArray = Uint8Array | Int8Array | Uint32Array | Float32Array;

interface SectionEntry {
  readonly kind: SectionKind;
  readonly offset: number;
  readonly length: number;
}

const kindOf = (array: SectionArray): SectionKind =>
  array instanceof Int8Array
    ? "i8"
    : array instanceof Uint32Array
      ? "u32"
      : array instanceof Float32Array
        ? "f32"
        : "u8";

const align = (n: number) => Math.ceil(n / 8) * 8;

/** The file's bytes: the header (with the sections' places added) and the arrays. */
export const encodeSections = (
  header: Readonly<Record<string, unknown>>,
  sections: Readonly<Record<string, SectionArray>>,
): Uint8Array => {
  const entries: Record<string, SectionEntry> = {};
  let offset = 0;
  for (const [name, array] of Object.entries(sections)) {
    entries[name] = { kind: kindOf(array), offset, length: array.length };
    offset = align(offset + array.byteLength);
  }
  const headerBytes = new TextEncoder().encode(JSON.stringify({ ...header, sections: entries }));
  const start = align(8 + headerBytes.byteLength);
  const out = new Uint8Array(start + offset);
  out.set(new TextEncoder().encode(MAGIC), 0);
  new DataView(out.buffer).setUint32(4, headerBytes.byteLength, true);
  out.set(headerBytes, 8);
  for (const [name, array] of Object.entries(sections))
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), start + entries[name]!.offset);
  return out;
};

/** Reads the header and gives typed views of the sections; throws on a damaged file. */
export const decodeSections = (file: Uint8Array) => {
  // Typed views need their element alignment: copy only if the buffer is not 8-aligned.
  const bytes = file.byteOffset % 8 === 0 ? file : file.slice();
  if (bytes.byteLength < 8 || new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC)
    throw new Error("not an index file of this service (bad magic)");
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true);
  if (8 + headerLength > bytes.byteLength) throw new Error("the index file is truncated (header)");
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as Record<
    string,
    unknown
  > & { readonly sections?: Readonly<Record<string, SectionEntry>> };
  const start = align(8 + headerLength);
  const section = <K extends SectionKind>(name: string, kind: K): ArrayOf<K> => {
    const entry = header.sections?.[name];
    if (entry === undefined || entry.kind !== kind)
      throw new Error(`the index file lacks its ${name} section`);
    const Kind = KINDS[kind];
    const begin = bytes.byteOffset + start + entry.offset;
    if (start + entry.offset + entry.length * Kind.BYTES_PER_ELEMENT > bytes.byteLength)
      throw new Error(`the index file is truncated (${name})`);
    return new Kind(bytes.buffer as ArrayBuffer, begin, entry.length) as ArrayOf<K>;
  };
  return { header, section };
};

/** Strings as one UTF-8 blob and their end offsets (string i is bytes ends[i-1]..ends[i]). */
export const encodeStrings = (strings: ReadonlyArray<string>) => {
  const encoder = new TextEncoder();
  const parts = strings.map((text) => encoder.encode(text));
  const ends = new Uint32Array(parts.length);
  const blob = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  parts.forEach((part, i) => {
    blob.set(part, at);
    at += part.byteLength;
    ends[i] = at;
  });
  return { blob, ends };
};

/** Decodes string i of an encoded list on demand. */
export const stringReader = (blob: Uint8Array, ends: Uint32Array) => {
  const decoder = new TextDecoder();
  return {
    count: ends.length,
    get: (i: number): string => decoder.decode(blob.subarray(i === 0 ? 0 : ends[i - 1]!, ends[i]!)),
  };
};
