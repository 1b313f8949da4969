/** The name part of a Host value, as written: "docs.acme.dev:8443" -> "docs.acme.dev", "[::1]:80" -> "[::1]". */
export const hostName = (host: string): string => {
  const end = host.startsWith("[") ? host.indexOf("]") + 1 : host.indexOf(":");
  return end > 0 ? host.slice(0, end) : host;
};
