/** `<runtime> main.ts '<PayInput JSON>'`: prints the result of payAndFetch as one JSON line. */
import { payAndFetch } from "./pay-and-fetch.ts";

const input = JSON.parse(process.argv[process.argv.length - 1] ?? "{}");
console.log(JSON.stringify(await payAndFetch(input)));
