/** The Host a request names: its header, else its URL's (app.request builds http://localhost/...). */
export const hostOf = (request: Request): string | undefined => {
  const header = request.headers.get("host");
  if (header !== null) return header;
  const url = request.url;
  const start = url.indexOf("://");
  if (start < 0) return undefined; // HTTP/1.0 without Host: Bun's URL is the bare path
  const end = url.indexOf("/", start + 3);
  return url.slice(start + 3, end < 0 ? undefined : end);
};
