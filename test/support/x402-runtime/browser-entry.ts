/** The browser bundle's entry: the pay-and-fetch function on `window`, for the page to call. */
import { payAndFetch } from "./pay-and-fetch.ts";

(globalThis as { payAndFetch?: typeof payAndFetch }).payAndFetch = payAndFetch;
