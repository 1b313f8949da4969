/**
 * AllowLocal: a client refuses to pay a resource, or to send through an RPC, on a local or
 * private address unless allowed, so a page or a redirect cannot make it pay into (or reveal
 * its wallet to) something inside the network it runs in. Only the URL's literal host is
 * judged: a browser cannot resolve names, so a public name that resolves privately is not caught.
 */
import { inCidr, parseIp } from "../../../core/ip.ts";

const LOCAL_RANGES = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "::/128",
  "::1/128",
  "fc00::/7",
  "fe80::/10",
];

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|home\.arpa)\.?$/i;

/** Whether `url` names a loopback, private, link-local or local-only host. */
export const isLocalUrl = (url: string | URL): boolean => {
  const host = new URL(url).hostname;
  const ip = parseIp(host);
  if (ip === undefined) return LOCAL_NAMES.test(host);
  return LOCAL_RANGES.some((range) => inCidr(ip, range));
};
