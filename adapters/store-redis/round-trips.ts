/**
 * Counts the round trips a connection makes to Redis (store_round_trips_total, by command):
 * each command is one (sent alone or written with others by auto-pipelining: its caller waits for
 * its reply either way), a MULTI block is one (ioredis writes it at once; counted at its EXEC),
 * and the commands a script runs inside Redis are none. A request's
 * cost on Redis is mostly its round trips (docs/performance.md), so this is the figure to watch.
 */
import type { Redis } from "ioredis";

/** Called once per round trip with the command's name ("evalsha", "get", "multi"). */
export type OnRoundTrip = (command: string) => void;

/** Connections already counted: the hosted sites' stores share one (shared-connection.ts). */
const counted = new WeakSet<Redis>();

/** Wraps the connection's one door for commands (once per connection); every command ioredis sends passes it. */
export const countRoundTrips = (client: Redis, onRoundTrip: OnRoundTrip): void => {
  if (counted.has(client)) return;
  counted.add(client);
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command, stream) => {
    // A MULTI block (its MULTI and queued commands are marked inTransaction) is counted once, at
    // its EXEC. Commands the connection's auto-pipelining writes together (redis-client.ts) are
    // each a round trip of their own caller, which waits for its reply as for one sent alone.
    if (command.name === "exec") onRoundTrip("multi");
    else if (!command.inTransaction) onRoundTrip(command.name);
    return send(command, stream);
  };
};
