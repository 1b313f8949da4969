import { describe, expect, test } from "bun:test";
import { isLocalUrl } from "../../src/payments/client/local-endpoints.ts";

describe("AllowLocal: which endpoints are local or private", () => {
  const local = [
    "http://localhost:4020/x",
    "http://LOCALHOST./",
    "http://api.localhost/",
    "http://printer.local/",
    "http://db.internal:5432/",
    "http://router.home.arpa/",
    "http://127.0.0.1:8899",
    "http://127.8.9.10/",
    "http://0.0.0.0/",
    "http://10.1.2.3/",
    "http://172.16.0.1/",
    "http://172.31.255.255/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data",
    "http://100.64.0.1/",
    "http://[::1]:3000/",
    "http://[::]/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:10.0.0.1]/",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://[64:ff9b::7f00:1]/",
    "http://[2002:7f00:1::]/",
    "http://[::7f00:1]/",
    "http://[fec0::1]/",
    "http://192.0.0.1/",
    "http://[::ffff:0:7f00:1]/",
    "http://198.18.0.1/",
  ];
  const publicHosts = [
    "https://api.devnet.solana.com",
    "https://example.com/premium-data",
    "http://8.8.8.8/",
    "http://172.32.0.1/",
    "http://192.169.0.1/",
    "http://[2001:4860:4860::8888]/",
    "https://localhost.example.com/",
  ];
  for (const url of local) test(`${url} is local`, () => expect(isLocalUrl(url)).toBe(true));
  for (const url of publicHosts) test(`${url} is public`, () => expect(isLocalUrl(url)).toBe(false));
});
