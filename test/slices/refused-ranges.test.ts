import { describe, expect, it } from "vitest"
import { IPV4_CARRIERS, REFUSED_RANGES } from "../../src/slices/billing/refused-ranges.ts"
import { webhookUrlProblem } from "../../src/slices/billing/webhook-url.ts"

/** A deployed Worker: no SLOTWISE_LOCAL, so nothing private is let through. */
const DEPLOYED = { SLOTWISE_LOCAL: undefined }

/** The block the rule cites for `host` and the IPv4 address it says the host reaches, or null when the host is accepted. */
function verdict(host: string): string | null {
  const problem = webhookUrlProblem(`https://${host}/usage`, DEPLOYED)
  if (problem === undefined) return null
  const cited = /^must not name (\S+?)(?:, which reaches (\S+) \([^)]*\))?, in (\S+) \(/.exec(problem)
  if (!cited) throw new Error(`not a refused address: ${problem}`)
  return cited[2] ? `${cited[3]} via ${cited[2]}` : (cited[3] as string)
}

const MAX5 = "ffff:ffff:ffff:ffff:ffff"
const MAX6 = `ffff:${MAX5}`

/** A neighbour of a row: accepted (a host), or refused by the neighbouring row named ([host, block]). */
type Neighbour = string | [host: string, refusedBy: string]

/** Each row of the table, by hand: its first and last address (refused citing it), the addresses just below and above it. */
const EDGES: [block: string, first: string, last: string, below: Neighbour | null, above: Neighbour | null][] = [
  ["0.0.0.0/8", "0.0.0.0", "0.255.255.255", null, "1.0.0.0"],
  ["10.0.0.0/8", "10.0.0.0", "10.255.255.255", "9.255.255.255", "11.0.0.0"],
  ["100.64.0.0/10", "100.64.0.0", "100.127.255.255", "100.63.255.255", "100.128.0.0"],
  ["127.0.0.0/8", "127.0.0.0", "127.255.255.255", "126.255.255.255", "128.0.0.0"],
  ["169.254.0.0/16", "169.254.0.0", "169.254.255.255", "169.253.255.255", "169.255.0.0"],
  ["172.16.0.0/12", "172.16.0.0", "172.31.255.255", "172.15.255.255", "172.32.0.0"],
  ["192.0.0.0/24", "192.0.0.0", "192.0.0.255", "191.255.255.255", "192.0.1.0"],
  ["192.0.2.0/24", "192.0.2.0", "192.0.2.255", "192.0.1.255", "192.0.3.0"],
  ["192.31.196.0/24", "192.31.196.0", "192.31.196.255", "192.31.195.255", "192.31.197.0"],
  ["192.52.193.0/24", "192.52.193.0", "192.52.193.255", "192.52.192.255", "192.52.194.0"],
  ["192.88.99.0/24", "192.88.99.0", "192.88.99.255", "192.88.98.255", "192.88.100.0"],
  ["192.168.0.0/16", "192.168.0.0", "192.168.255.255", "192.167.255.255", "192.169.0.0"],
  ["192.175.48.0/24", "192.175.48.0", "192.175.48.255", "192.175.47.255", "192.175.49.0"],
  ["198.18.0.0/15", "198.18.0.0", "198.19.255.255", "198.17.255.255", "198.20.0.0"],
  ["198.51.100.0/24", "198.51.100.0", "198.51.100.255", "198.51.99.255", "198.51.101.0"],
  ["203.0.113.0/24", "203.0.113.0", "203.0.113.255", "203.0.112.255", "203.0.114.0"],
  ["224.0.0.0/4", "224.0.0.0", "239.255.255.255", "223.255.255.255", ["240.0.0.0", "240.0.0.0/4"]],
  // Its last address is limited broadcast, the more specific row.
  ["240.0.0.0/4", "240.0.0.0", "255.255.255.254", ["239.255.255.255", "224.0.0.0/4"], null],
  ["255.255.255.255/32", "255.255.255.255", "255.255.255.255", ["255.255.255.254", "240.0.0.0/4"], null],
  ["::/128", "[::]", "[::]", null, ["[::1]", "::1/128"]],
  // Above ::1, an IPv4-compatible address: 0.0.0.2.
  ["::1/128", "[::1]", "[::1]", ["[::]", "::/128"], ["[::2]", "0.0.0.0/8 via 0.0.0.2"]],
  ["64:ff9b:1::/48", "[64:ff9b:1::]", `[64:ff9b:1:${MAX5}]`, `[64:ff9b:0:${MAX5}]`, "[64:ff9b:2::]"],
  ["100::/64", "[100::]", "[100::ffff:ffff:ffff:ffff]", `[ff:ffff:${MAX6}]`, ["[100:0:0:1::]", "100:0:0:1::/64"]],
  [
    "100:0:0:1::/64",
    "[100:0:0:1::]",
    "[100::1:ffff:ffff:ffff:ffff]",
    ["[100::ffff:ffff:ffff:ffff]", "100::/64"],
    "[100:0:0:2::]",
  ],
  ["2001::/23", "[2001::]", `[2001:1ff:${MAX6}]`, `[2000:ffff:${MAX6}]`, "[2001:200::]"],
  ["2001:db8::/32", "[2001:db8::]", `[2001:db8:${MAX6}]`, `[2001:db7:${MAX6}]`, "[2001:db9::]"],
  ["2620:4f:8000::/48", "[2620:4f:8000::]", `[2620:4f:8000:${MAX5}]`, `[2620:4f:7fff:${MAX5}]`, "[2620:4f:8001::]"],
  ["3fff::/20", "[3fff::]", `[3fff:fff:${MAX6}]`, `[3ffe:ffff:${MAX6}]`, "[3fff:1000::]"],
  ["5f00::/16", "[5f00::]", `[5f00:ffff:${MAX6}]`, `[5eff:ffff:${MAX6}]`, "[5f01::]"],
  ["fc00::/7", "[fc00::]", `[fdff:ffff:${MAX6}]`, `[fbff:ffff:${MAX6}]`, "[fe00::]"],
  ["fe80::/10", "[fe80::]", `[febf:ffff:${MAX6}]`, `[fe7f:ffff:${MAX6}]`, ["[fec0::]", "fec0::/10"]],
  ["fec0::/10", "[fec0::]", `[feff:ffff:${MAX6}]`, [`[febf:ffff:${MAX6}]`, "fe80::/10"], ["[ff00::]", "ff00::/8"]],
  ["ff00::/8", "[ff00::]", `[ffff:ffff:${MAX6}]`, [`[feff:ffff:${MAX6}]`, "fec0::/10"], null],
]

/**
 * Each IPv6 form that carries an IPv4 address: its first and last address (the IPv4 addresses
 * 0.0.0.0 and 255.255.255.255 inside, both refused), a private and a public IPv4 address inside,
 * and the addresses just outside the form (accepted).
 */
const CARRIED: [block: string, probes: [host: string, expected: string | null][]][] = [
  [
    "::ffff:0:0/96",
    [
      ["[::ffff:0:0]", "0.0.0.0/8 via 0.0.0.0"],
      ["[::ffff:ffff:ffff]", "255.255.255.255/32 via 255.255.255.255"],
      ["[::ffff:a9fe:a9fe]", "169.254.0.0/16 via 169.254.169.254"],
      ["[::ffff:808:808]", null],
      ["[::fffe:ffff:ffff]", null],
      ["[::1:0:0:0]", null],
    ],
  ],
  [
    "::ffff:0:0:0/96",
    [
      ["[::ffff:0:0:0]", "0.0.0.0/8 via 0.0.0.0"],
      ["[::ffff:0:ffff:ffff]", "255.255.255.255/32 via 255.255.255.255"],
      ["[::ffff:0:a00:1]", "10.0.0.0/8 via 10.0.0.1"],
      ["[::ffff:0:808:808]", null],
      ["[::fffe:ffff:ffff:ffff]", null],
      ["[::ffff:1:0:0]", null],
    ],
  ],
  [
    "::/96",
    [
      ["[::]", "::/128"],
      ["[::ffff:ffff]", "255.255.255.255/32 via 255.255.255.255"],
      ["[::a00:1]", "10.0.0.0/8 via 10.0.0.1"],
      ["[::808:808]", null],
      ["[::1:0:0]", null],
    ],
  ],
  [
    "64:ff9b::/96",
    [
      ["[64:ff9b::]", "0.0.0.0/8 via 0.0.0.0"],
      ["[64:ff9b::ffff:ffff]", "255.255.255.255/32 via 255.255.255.255"],
      ["[64:ff9b::a9fe:a9fe]", "169.254.0.0/16 via 169.254.169.254"],
      ["[64:ff9b::808:808]", null],
      [`[64:ff9a:${MAX6}]`, null],
      ["[64:ff9b::1:0:0]", null],
    ],
  ],
  [
    "2002::/16",
    [
      ["[2002::]", "0.0.0.0/8 via 0.0.0.0"],
      [`[2002:${MAX6}:ffff]`, "255.255.255.255/32 via 255.255.255.255"],
      ["[2002:c0a8:101::1]", "192.168.0.0/16 via 192.168.1.1"],
      ["[2002:a9fe:a9fe::]", "169.254.0.0/16 via 169.254.169.254"],
      ["[2002:808:808::1]", null],
      [`[2001:ffff:${MAX6}]`, null],
      ["[2003::]", null],
    ],
  ],
]

describe("the webhook url rule: one table of refused blocks (IANA's special-purpose registries, RFC 6890)", () => {
  it("has a test of its edges for every row, and of every IPv6 form that carries an IPv4 address", () => {
    expect(EDGES.map(([block]) => block)).toEqual(REFUSED_RANGES.map((row) => row.block))
    expect(CARRIED.map(([block]) => block)).toEqual(IPV4_CARRIERS.map((row) => row.block))
  })

  it.each(EDGES)("%s: its first and last address are refused citing it, its neighbours are not", (block, ...edges) => {
    const [first, last, below, above] = edges
    const neighbours = [below, above].flatMap((n) => (n === null ? [] : [typeof n === "string" ? [n, null] : n]))
    const probes = [[first, block], [last, block], ...neighbours]
    expect(probes.map(([host]) => [host, verdict(host as string)])).toEqual(probes)
  })

  it.each(CARRIED)("%s: judged by the IPv4 address it carries", (_block, probes) => {
    expect(probes.map(([host]) => [host, verdict(host)])).toEqual(probes)
  })

  it("names the row and the RFC, and the form an IPv4 address was reached through", () => {
    expect(webhookUrlProblem("https://[64:ff9b::a9fe:a9fe]/", DEPLOYED)).toBe(
      "must not name [64:ff9b::a9fe:a9fe], which reaches 169.254.169.254 (NAT64 well-known prefix, RFC 6052, §2.1), in 169.254.0.0/16 (link-local, RFC 3927); only a public host (127.0.0.1 only when running locally, SLOTWISE_LOCAL=1)",
    )
    expect(webhookUrlProblem("https://198.18.0.1/", DEPLOYED)).toBe(
      "must not name 198.18.0.1, in 198.18.0.0/15 (benchmarking, RFC 2544); only a public host (127.0.0.1 only when running locally, SLOTWISE_LOCAL=1)",
    )
  })

  it("refuses localhost and its subdomains as loopback by name (RFC 6761), and resolves no other name", () => {
    expect(
      ["localhost", "api.localhost", "LOCALHOST.", "10.example.com", "localhost.example.com"].map(verdict),
    ).toEqual(["127.0.0.0/8 via 127.0.0.1", "127.0.0.0/8 via 127.0.0.1", "127.0.0.0/8 via 127.0.0.1", null, null])
  })
})
