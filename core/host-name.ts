/**
 * The name part of a Host value: "docs.acme.dev:8443" -> "docs.acme.dev", "[::1]:80" -> "[::1]",
 * and without the trailing dot of a fully qualified name ("docs.acme.dev." is the same name to
 * DNS, so it must find the same site and pass the same allow-list).
 */
export const hostName = (host: string): string => {
  const end = host.startsWith("[") ? host.indexOf("]") + 1 : host.indexOf(":");
  const name = end > 0 ? host.slice(0, end) : host;
  return name.endsWith(".") ? name.slice(0, -1) : name;
};
