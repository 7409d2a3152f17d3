/** A block of addresses (CIDR), what its registry calls it, and the RFC that sets it aside. */
export interface AddressBlock {
  readonly block: string
  readonly name: string
  readonly rfc: string
}

/**
 * Every block a webhook may not name: all of IANA's IPv4 and IPv6 Special-Purpose Address
 * Registries (RFC 6890), plus multicast and the deprecated site-local block, which have
 * registries of their own. A row nested in a wider one is listed only when its own name says
 * more; the wider row refuses the rest (192.0.0.0/24 holds DS-Lite, the PCP and TURN anycasts and
 * NAT64 discovery; 2001::/23 holds Teredo, benchmarking, AMT, AS112-v6, ORCHID and DETs). The
 * IPv6 forms that carry an IPv4 address are not here but in IPV4_CARRIERS: they are judged by the
 * IPv4 address inside.
 */
export const REFUSED_RANGES: readonly AddressBlock[] = [
  { block: "0.0.0.0/8", name: '"this network"', rfc: "RFC 791, §3.2" },
  { block: "10.0.0.0/8", name: "private-use", rfc: "RFC 1918" },
  { block: "100.64.0.0/10", name: "shared address space", rfc: "RFC 6598" },
  { block: "127.0.0.0/8", name: "loopback", rfc: "RFC 1122, §3.2.1.3" },
  { block: "169.254.0.0/16", name: "link-local", rfc: "RFC 3927" },
  { block: "172.16.0.0/12", name: "private-use", rfc: "RFC 1918" },
  { block: "192.0.0.0/24", name: "IETF protocol assignments", rfc: "RFC 6890, §2.1" },
  { block: "192.0.2.0/24", name: "documentation (TEST-NET-1)", rfc: "RFC 5737" },
  { block: "192.31.196.0/24", name: "AS112-v4", rfc: "RFC 7535" },
  { block: "192.52.193.0/24", name: "AMT", rfc: "RFC 7450" },
  { block: "192.88.99.0/24", name: "deprecated 6to4 relay anycast", rfc: "RFC 7526" },
  { block: "192.168.0.0/16", name: "private-use", rfc: "RFC 1918" },
  { block: "192.175.48.0/24", name: "direct delegation AS112 service", rfc: "RFC 7534" },
  { block: "198.18.0.0/15", name: "benchmarking", rfc: "RFC 2544" },
  { block: "198.51.100.0/24", name: "documentation (TEST-NET-2)", rfc: "RFC 5737" },
  { block: "203.0.113.0/24", name: "documentation (TEST-NET-3)", rfc: "RFC 5737" },
  // IANA's IPv4 Multicast Address Space Registry.
  { block: "224.0.0.0/4", name: "multicast", rfc: "RFC 5771" },
  { block: "240.0.0.0/4", name: "reserved", rfc: "RFC 1112, §4" },
  { block: "255.255.255.255/32", name: "limited broadcast", rfc: "RFC 919, §7; RFC 8190" },
  { block: "::/128", name: "unspecified", rfc: "RFC 4291" },
  { block: "::1/128", name: "loopback", rfc: "RFC 4291" },
  { block: "64:ff9b:1::/48", name: "local-use IPv4/IPv6 translation", rfc: "RFC 8215" },
  { block: "100::/64", name: "discard-only", rfc: "RFC 6666" },
  { block: "100:0:0:1::/64", name: "dummy IPv6 prefix", rfc: "RFC 9780" },
  { block: "2001::/23", name: "IETF protocol assignments", rfc: "RFC 2928" },
  { block: "2001:db8::/32", name: "documentation", rfc: "RFC 3849" },
  { block: "2620:4f:8000::/48", name: "direct delegation AS112 service", rfc: "RFC 7534" },
  { block: "3fff::/20", name: "documentation", rfc: "RFC 9637" },
  { block: "5f00::/16", name: "segment routing (SRv6) SIDs", rfc: "RFC 9602" },
  { block: "fc00::/7", name: "unique-local", rfc: "RFC 4193" },
  { block: "fe80::/10", name: "link-local", rfc: "RFC 4291" },
  // Deprecated, in no special-purpose registry; still reaches a site's own network where it lingers.
  { block: "fec0::/10", name: "deprecated site-local", rfc: "RFC 3879" },
  // IANA's IPv6 Multicast Address Space Registry.
  { block: "ff00::/8", name: "multicast", rfc: "RFC 4291, §2.7" },
]

/** An IPv6 form that carries an IPv4 address: its block, and how far right of the last bit the IPv4 address ends. */
export interface Ipv4Carrier extends AddressBlock {
  readonly shift: number
}

/**
 * The IPv6 forms an IPv4 address travels in, judged by that address (a refused row above wins
 * first: `::` and `::1` are not IPv4-compatible addresses). The local-use NAT64 prefix
 * (64:ff9b:1::/48) and Teredo (2001::/32) are refused whole above, whatever they carry.
 */
export const IPV4_CARRIERS: readonly Ipv4Carrier[] = [
  { block: "::ffff:0:0/96", name: "IPv4-mapped", rfc: "RFC 4291, §2.5.5.2", shift: 0 },
  { block: "::ffff:0:0:0/96", name: "IPv4-translated", rfc: "RFC 2765, §2.1", shift: 0 },
  { block: "::/96", name: "deprecated IPv4-compatible", rfc: "RFC 4291, §2.5.5.1", shift: 0 },
  { block: "64:ff9b::/96", name: "NAT64 well-known prefix", rfc: "RFC 6052, §2.1", shift: 0 },
  { block: "2002::/16", name: "6to4", rfc: "RFC 3056, §2", shift: 80 },
]
