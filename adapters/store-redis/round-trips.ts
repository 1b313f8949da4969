/**
 * Counts the round trips a connection makes to Redis (store_round_trips_total, by command):
 * each command is one (sent alone or written with others by auto-pipelining: its caller waits for
 * its reply either way), a MULTI block is one (ioredis writes it at once; counted at its EXEC),
 * and the commands a script runs inside Redis are none. A request's
 * cost on Redis is mostly its round trips (docs/performance.md), so this is the figure to watch.
 * A cluster client has the same door: a redirected command goes to the node's own, not back
 * through the cluster's, so it is still counted once.
 */
import type { Command } from "ioredis";
import type { StoreClient } from "./store-client.ts";

/** Called once per round trip with the command's name ("evalsha", "get", "multi"). */
export type OnRoundTrip = (command: string) => void;

/** Connections already counted: the hosted sites' stores share one (shared-connection.ts). */
const counted = new WeakSet<StoreClient>();

/** Wraps the connection's one door for commands (once per connection); every command ioredis sends passes it. */
export const countRoundTrips = (client: StoreClient, onRoundTrip: OnRoundTrip): void => {
  if (counted.has(client)) return;
  counted.add(client);
  // One Redis's door is (command, stream), a cluster's (command, stream, node): both pass on the rest.
  const door = client as unknown as { sendCommand: (command: Command, ...rest: unknown[]) => unknown };
  const send = door.sendCommand.bind(door);
  door.sendCommand = (command, ...rest) => {
    // A MULTI block (its MULTI and queued commands are marked inTransaction) is counted once, at
    // its EXEC. Commands the connection's auto-pipelining writes together (redis-client.ts) are
    // each a round trip of their own caller, which waits for its reply as for one sent alone.
    if (command.name === "exec") onRoundTrip("multi");
    else if (!command.inTransaction) onRoundTrip(command.name);
    return send(command, ...rest);
  };
};
