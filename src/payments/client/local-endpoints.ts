/**
 * AllowLocal: a client refuses to pay a resource, or to send through an RPC, on a local or
 * private address unless allowed, so a page or a redirect cannot make it pay into (or reveal
 * its wallet to) something inside the network it runs in. Only the URL's literal host is
 * judged: a browser cannot resolve names, so a public name that resolves privately is not caught.
 * The ranges are the crawler's too (core/ip.ts), so both refuse the same spellings.
 */
import { isPublicIp, parseIp } from "../../../core/ip.ts";

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|home\.arpa)\.?$/i;

/** Whether `url` names a loopback, private, link-local or local-only host. */
export const isLocalUrl = (url: string | URL): boolean => {
  const host = new URL(url).hostname;
  const ip = parseIp(host);
  if (ip === undefined) return LOCAL_NAMES.test(host);
  return !isPublicIp(ip);
};
