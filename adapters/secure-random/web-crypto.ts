/** SecureRandom over `crypto.getRandomValues`, the generator the stores' ids come from too. */
import * as Layer from "effect/Layer";
import { SecureRandom } from "../../core/ports/secure-random.ts";
import { randomBase58 } from "../shared/random-ids.ts";

export const layer = Layer.succeed(SecureRandom)({ base58: randomBase58 });
