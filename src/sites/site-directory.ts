/**
 * The hosted sites the edge routes to (src/http/edge/site-routing.ts), swapped whole when the
 * sites file changes: a request sees the old set or the new one, never half of each.
 */
import { hostName } from "../../core/host-name.ts";
import type { RoutedSite, SiteRouting } from "../http/edge/site-routing.ts";

export interface DirectoryEntry extends RoutedSite {
  /** Lower-case host names, with a port when the file gives one (routing reads the name only). */
  readonly hosts: ReadonlyArray<string>;
}

interface Snapshot {
  readonly byId: ReadonlyMap<string, DirectoryEntry>;
  /** By host name without its port: a name is one site's whatever the port it is asked on. */
  readonly byName: ReadonlyMap<string, DirectoryEntry>;
}

const snapshotOf = (entries: ReadonlyArray<DirectoryEntry>): Snapshot => {
  const byName = new Map<string, DirectoryEntry>();
  for (const entry of entries) for (const host of entry.hosts) byName.set(hostName(host), entry);
  return { byId: new Map(entries.map((entry) => [entry.id, entry])), byName };
};

export const siteDirectory = () => {
  let current = snapshotOf([]);
  const routing: SiteRouting = {
    byId: (id) => current.byId.get(id),
    // Whatever the port: a listed name asked on another port must not fall to the default site,
    // whose operator's doors (ADMIN_TOKEN, the facilitator) would answer on a host the owner runs.
    byHost: (host) => current.byName.get(hostName(host)),
    hasHosts: () => current.byName.size > 0,
    servesHost: (name) => current.byName.has(name),
  };
  return {
    routing,
    replace: (entries: ReadonlyArray<DirectoryEntry>) => {
      current = snapshotOf(entries);
    },
  };
};

export type SiteDirectory = ReturnType<typeof siteDirectory>;
