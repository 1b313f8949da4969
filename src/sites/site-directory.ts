/**
 * The hosted sites the edge routes to (src/http/edge/site-routing.ts), swapped whole when the
 * sites file changes: a request sees the old set or the new one, never half of each.
 */
import { hostName } from "../../core/host-name.ts";
import type { RoutedSite, SiteRouting } from "../http/edge/site-routing.ts";

export interface DirectoryEntry extends RoutedSite {
  /** Lower-case host names, with a port when the file gives one. */
  readonly hosts: ReadonlyArray<string>;
}

interface Snapshot {
  readonly byId: ReadonlyMap<string, DirectoryEntry>;
  readonly byHost: ReadonlyMap<string, DirectoryEntry>;
  readonly names: ReadonlySet<string>;
}

const snapshotOf = (entries: ReadonlyArray<DirectoryEntry>): Snapshot => {
  const byHost = new Map<string, DirectoryEntry>();
  for (const entry of entries) for (const host of entry.hosts) byHost.set(host, entry);
  return {
    byId: new Map(entries.map((entry) => [entry.id, entry])),
    byHost,
    names: new Set([...byHost.keys()].map(hostName)),
  };
};

export const siteDirectory = () => {
  let current = snapshotOf([]);
  const routing: SiteRouting = {
    byId: (id) => current.byId.get(id),
    // A host listed with its port matches only that port; a bare name matches any port.
    byHost: (host) => current.byHost.get(host) ?? current.byHost.get(hostName(host)),
    hasHosts: () => current.byHost.size > 0,
    servesHost: (name) => current.names.has(name),
  };
  return {
    routing,
    replace: (entries: ReadonlyArray<DirectoryEntry>) => {
      current = snapshotOf(entries);
    },
  };
};

export type SiteDirectory = ReturnType<typeof siteDirectory>;
