/** An IPv4 block as its first address (a 32-bit number) and prefix length, with the name of its kind. */
type Block = readonly [first: number, prefix: number, kind: string]

const v4 = (text: string) => text.split(".").reduce((acc, part) => acc * 256 + Number(part), 0)

// Blocks a webhook must not reach: this host, its network's neighbours, the cloud's metadata service.
const V4_BLOCKS: readonly Block[] = [
  [v4("0.0.0.0"), 8, "unspecified"],
  [v4("10.0.0.0"), 8, "private"],
  [v4("100.64.0.0"), 10, "shared (carrier-grade NAT)"],
  [v4("127.0.0.0"), 8, "loopback"],
  [v4("169.254.0.0"), 16, "link-local"],
  [v4("172.16.0.0"), 12, "private"],
  [v4("192.168.0.0"), 16, "private"],
]

const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

function v4Kind(address: number): string | undefined {
  const within = ([first, prefix]: Block) => Math.floor(address / 2 ** (32 - prefix)) === first / 2 ** (32 - prefix)
  return V4_BLOCKS.find(within)?.[2]
}

/** The eight 16-bit groups of an IPv6 address (without brackets), or undefined when it is not one. */
function v6Groups(text: string): number[] | undefined {
  let address = text
  const dotted = DOTTED.exec(address.slice(address.lastIndexOf(":") + 1))
  if (dotted) {
    const n = v4(dotted.slice(1).join("."))
    address = `${address.slice(0, address.lastIndexOf(":") + 1)}${Math.floor(n / 65_536).toString(16)}:${(n % 65_536).toString(16)}`
  }
  const halves = address.split("::")
  if (halves.length > 2) return undefined
  const parse = (half: string) => (half === "" ? [] : half.split(":").map((group) => Number.parseInt(group, 16)))
  const head = parse(halves[0] ?? "")
  const tail = halves.length === 2 ? parse(halves[1] ?? "") : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail]
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined
}

function v6Kind(groups: number[]): string | undefined {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups
  const embedded = g6 * 65_536 + g7
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0
  if (upperZero && g5 === 0 && embedded === 0) return "unspecified"
  if (upperZero && g5 === 0 && embedded === 1) return "loopback"
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) reach the IPv4 inside.
  if (upperZero && (g5 === 0xffff || g5 === 0)) return v4Kind(embedded)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4Kind(embedded)
  if ((g0 & 0xfe00) === 0xfc00) return "unique-local"
  if ((g0 & 0xffc0) === 0xfe80) return "link-local"
  if ((g0 & 0xffc0) === 0xfec0) return "site-local"
  return undefined
}

/**
 * The kind of non-public address a URL's hostname names literally ("loopback", "private",
 * "link-local", "unique-local", ...), or undefined for a public address or a DNS name other
 * than localhost. Takes `URL.hostname`, which has already normalised IPv4 (`0x7f.1` is
 * `127.0.0.1`) and IPv6 (`[::ffff:127.0.0.1]` is `[::ffff:7f00:1]`).
 * @example privateAddressKind(new URL("https://169.254.169.254/").hostname) // "link-local"
 */
export function privateAddressKind(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, "")
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback"
  const dotted = DOTTED.exec(host)
  if (dotted) return dotted.slice(1).every((part) => Number(part) <= 255) ? v4Kind(v4(host)) : undefined
  if (!host.startsWith("[") || !host.endsWith("]")) return undefined
  const groups = v6Groups(host.slice(1, -1).replace(/%.*$/, ""))
  return groups ? v6Kind(groups) : undefined
}
