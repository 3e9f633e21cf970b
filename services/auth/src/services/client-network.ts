import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network a client address belongs to, as the login throttle counts it: the /24 of an IPv4
 * address, the /56 of an IPv6 one (a home or office line is usually given a /56 or /48, and a device
 * picks new addresses inside it at will). An IPv4-mapped IPv6 address counts as its IPv4 address; a
 * missing or unreadable address is one network of its own, `unknown`.
 */
export function clientNetwork(ip: string | null | undefined): string {
  // An IPv6 zone (`fe80::1%eth0`) names the host's interface, not the network.
  const address = (ip ?? '').trim().split('%')[0]!;
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(address)) return 'unknown';
  const groups = ipv6Groups(address);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return clientNetwork([groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.'));
  // 56 bits: three groups and the high byte of the fourth.
  const prefix = [...groups.slice(0, 3), groups[3]! & 0xff00].map((g) => g.toString(16));
  return `${prefix.join(':')}::/56`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = text.lastIndexOf(':');
  if (text.includes('.', dotted)) {
    const v4 = text.slice(dotted + 1).split('.').map(Number);
    text = `${text.slice(0, dotted + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array.from({ length: 8 - front.length - back.length }, () => 0), ...back];
}
