import { type AddressBlock, IPV4_CARRIERS, type Ipv4Carrier, REFUSED_RANGES } from "./refused-ranges.ts"

/** An address as a number, and whether it is IPv6 (128 bits) or IPv4 (32). */
interface Address {
  v6: boolean
  value: bigint
}

/** A block as numbers: its first address and how many low bits vary within it. */
interface Span<T extends AddressBlock> {
  row: T
  first: Address
  hostBits: bigint
}

/** Why an address is refused: the refused block, and the form and IPv4 address it was reached through, if any. */
export interface Refusal {
  range: AddressBlock
  via?: { form: AddressBlock; ipv4: string }
}

const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/
const DOTTED_TAIL = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/
const HEX_GROUP = /^[0-9a-f]{1,4}$/

function ipv4(text: string): bigint | undefined {
  const parts = DOTTED.exec(text)?.slice(1).map(Number)
  if (!parts?.every((part) => part <= 255)) return undefined
  return parts.reduce((value, part) => (value << 8n) | BigInt(part), 0n)
}

/** An IPv6 address's number (without brackets; `::` and a dotted IPv4 tail allowed), or undefined when it is not one. */
function ipv6(text: string): bigint | undefined {
  const tail = DOTTED_TAIL.exec(text)
  const v4 = tail ? ipv4(tail[2] as string) : undefined
  if (tail && v4 === undefined) return undefined
  const hex = tail && v4 !== undefined ? `${tail[1]}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}` : text
  const halves = hex.split("::").map((half) => (half === "" ? [] : half.split(":")))
  const [head = [], rest = []] = halves
  const missing = 8 - head.length - rest.length
  if (halves.length > 2 || (halves.length === 1 ? missing !== 0 : missing < 1)) return undefined
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest]
  if (!groups.every((group) => HEX_GROUP.test(group))) return undefined
  return groups.reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n)
}

function spanOf<T extends AddressBlock>(row: T): Span<T> {
  const [address = "", length = ""] = row.block.split("/")
  const v6 = address.includes(":")
  const value = v6 ? ipv6(address) : ipv4(address)
  if (value === undefined) throw new Error(`${row.block} is not a block`)
  return { row, first: { v6, value }, hostBits: BigInt((v6 ? 128 : 32) - Number(length)) }
}

const REFUSED = REFUSED_RANGES.map(spanOf)
const CARRIERS = IPV4_CARRIERS.map(spanOf)

const contains = (span: Span<AddressBlock>, address: Address) =>
  span.first.v6 === address.v6 && address.value >> span.hostBits === span.first.value >> span.hostBits

/** The most specific refused block holding `address` (255.255.255.255 is limited broadcast before reserved). */
function refusedBlock(address: Address): AddressBlock | undefined {
  let found: Span<AddressBlock> | undefined
  for (const span of REFUSED) if (contains(span, address) && (!found || span.hostBits < found.hostBits)) found = span
  return found?.row
}

const dotted = (value: bigint) => [24n, 16n, 8n, 0n].map((shift) => (value >> shift) & 0xffn).join(".")

/** `localhost` and its subdomains are loopback by name, whatever a resolver says. */
const LOCALHOST: AddressBlock = { block: "localhost", name: "localhost", rfc: "RFC 6761, §6.3" }

/**
 * Why a URL's hostname may not be a webhook's, by the one table of refused blocks (refused-ranges.ts):
 * the block an address literal falls in, the IPv4 address inside an IPv6 form that carries one
 * (IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64, 6to4), and `localhost`. Undefined for a
 * public address, or a DNS name (not resolved here). Takes `URL.hostname`, which has already
 * normalised IPv4 (`0x7f.1` is `127.0.0.1`) and IPv6 (`[::ffff:127.0.0.1]` is `[::ffff:7f00:1]`).
 * @example refusedAddress("169.254.169.254")?.range.block // "169.254.0.0/16"
 */
export function refusedAddress(hostname: string): Refusal | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, "")
  if (host === "localhost" || host.endsWith(".localhost")) return throughIpv4(LOCALHOST, 0x7f000001n)
  const v4 = ipv4(host)
  if (v4 !== undefined) {
    const range = refusedBlock({ v6: false, value: v4 })
    return range && { range }
  }
  if (!host.startsWith("[") || !host.endsWith("]")) return undefined
  const value = ipv6(host.slice(1, -1).replace(/%.*$/, ""))
  if (value === undefined) return undefined
  const address = { v6: true, value }
  const range = refusedBlock(address)
  if (range) return { range }
  const carrier = CARRIERS.find((span) => contains(span, address))?.row
  return carrier && throughIpv4(carrier, (value >> BigInt(carrier.shift)) & 0xffffffffn)
}

function throughIpv4(form: AddressBlock | Ipv4Carrier, value: bigint): Refusal | undefined {
  const range = refusedBlock({ v6: false, value })
  return range && { range, via: { form, ipv4: dotted(value) } }
}
