/**
 * Plaintext base URLs and whether the loopback rule lets them through, decided
 * by the Python client's rule (`localhost`, `::1`, `127.0.0.0/8`, judged after
 * URL normalisation). `test/parity/loopback.test.ts` checks every row against
 * the released Python client when its virtual environment is present.
 */
export interface LoopbackCase {
  /** The base URL as a user would write it. */
  readonly url: string;
  /** True when plaintext `http://` is allowed to it without an opt-in. */
  readonly loopback: boolean;
  /** Why, in a few words. */
  readonly why: string;
}

export const LOOPBACK_CASES: readonly LoopbackCase[] = [
  { url: "http://localhost:8000", loopback: true, why: "localhost" },
  { url: "http://LOCALHOST:8000", loopback: true, why: "host names are case-insensitive" },
  {
    url: "http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54",
    loopback: true,
    why: "full-width letters map to localhost",
  },
  { url: "http://%6cocalhost", loopback: true, why: "a percent-encoded host decodes to localhost" },
  { url: "http://local\thost", loopback: true, why: "the URL parser removes tabs" },
  { url: "http://localhost.:8000", loopback: false, why: "trailing dot: an absolute DNS name, /etc/hosts is skipped" },
  { url: "http://LocalHost.:8000", loopback: false, why: "trailing dot, any case" },
  { url: "http://localhost..:8000", loopback: false, why: "two trailing dots" },
  { url: "http://localhost%2e", loopback: false, why: "a percent-encoded trailing dot" },
  { url: "http://localhost\u3002", loopback: false, why: "an ideographic full stop becomes a trailing dot" },
  { url: "http://localhost.localdomain", loopback: false, why: "resolves through DNS or /etc/hosts, not by rule" },
  { url: "http://sub.localhost", loopback: false, why: "a subdomain of localhost is a DNS name" },
  { url: "http://localhost6", loopback: false, why: "a hosts-file alias" },
  { url: "http://127.0.0.1.nip.io", loopback: false, why: "a public DNS name" },
  { url: "http://127.0.0.1:8000", loopback: true, why: "127.0.0.0/8" },
  { url: "http://127.255.255.254", loopback: true, why: "127.0.0.0/8" },
  { url: "http://127.0.0.1.:8000", loopback: true, why: "an IPv4 address drops its trailing dot when parsed" },
  { url: "http://127.1", loopback: true, why: "short IPv4 form of 127.0.0.1" },
  { url: "http://2130706433", loopback: true, why: "decimal IPv4 form of 127.0.0.1" },
  { url: "http://0x7f000001", loopback: true, why: "hexadecimal IPv4 form of 127.0.0.1" },
  { url: "http://0x7F.1", loopback: true, why: "mixed hexadecimal IPv4 form of 127.0.0.1" },
  { url: "http://0177.0.0.1", loopback: true, why: "octal IPv4 form of 127.0.0.1" },
  { url: "http://127.000.000.001", loopback: true, why: "zero-padded (octal) octets of 127.0.0.1" },
  { url: "http://127.0.0.%31", loopback: true, why: "a percent-encoded digit" },
  { url: "http://\uff11\uff12\uff17.0.0.1", loopback: true, why: "full-width digits" },
  { url: "http://0.0.0.0", loopback: false, why: "the unspecified address is not loopback" },
  { url: "http://0", loopback: false, why: "short form of 0.0.0.0" },
  { url: "http://128.0.0.1", loopback: false, why: "outside 127.0.0.0/8" },
  { url: "http://126.255.255.255", loopback: false, why: "outside 127.0.0.0/8" },
  { url: "http://1.0.0.127", loopback: false, why: "127 in the wrong octet" },
  { url: "http://[::1]:8000", loopback: true, why: "IPv6 loopback" },
  { url: "http://[0:0:0:0:0:0:0:1]", loopback: true, why: "IPv6 loopback written in full" },
  { url: "http://[0000::0001]", loopback: true, why: "IPv6 loopback with zero padding" },
  { url: "http://[::0.0.0.1]", loopback: true, why: "IPv6 loopback with an embedded IPv4 tail" },
  { url: "http://[::ffff:127.0.0.1]", loopback: false, why: "IPv4-mapped IPv6 is not ::1" },
  { url: "http://[::ffff:7f00:1]", loopback: false, why: "IPv4-mapped IPv6 in hexadecimal" },
  { url: "http://[::127.0.0.1]", loopback: false, why: "IPv4-compatible IPv6 is not ::1" },
  { url: "http://[::]", loopback: false, why: "the unspecified IPv6 address" },
  { url: "http://[::2]", loopback: false, why: "not ::1" },
];
