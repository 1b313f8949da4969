/**
 * The Host names a hosted site's owner controls, where the site's console must not take the
 * operator's ADMIN_TOKEN (it opens every site, and the owner runs these names' DNS and TLS, so
 * could read it): the site's own `hosts`, and any other hosted site's (another owner's), at any
 * port and with or without the trailing dot of a fully qualified name (the same name to DNS).
 */
import { hostName } from "../../core/host-name.ts";

// hostName drops the port and the trailing dot of a fully qualified name.
const bareName = (host: string) => hostName(host.toLowerCase());

/** `hosts`: the site's own (as in the sites file); `hostedName`: whether a name (no port) is any hosted site's now. */
export const ownerHosts = (
  hosts: ReadonlyArray<string>,
  hostedName: (name: string) => boolean = () => false,
) => {
  const own = new Set(hosts.map(bareName));
  return (host: string | undefined): boolean => {
    if (host === undefined) return false;
    const name = bareName(host);
    return own.has(name) || hostedName(name);
  };
};
