/** A validated client address: IPv4 dotted-quad, or IPv6 as 8 groups. IPv4-mapped and NAT64 IPv6 are IPv4. */
export type ClientIp =
  | { readonly version: 4; readonly address: string; readonly octets: readonly number[] }
  | { readonly version: 6; readonly address: string; readonly groups: readonly number[] };
