/**
 * The addresses the guarded fetch refuses (infra/guarded-fetch.ts, issue 27 finding 7): every IANA
 * special-purpose range, IPv4 and IPv6, in every form a URL or a resolver gives them, and the
 * machine's own interface addresses, whatever range they are in.
 */
import type os from 'node:os';
import { describe, expect, it } from 'vitest';
import { addressBytes, addressRefusal, isRefusedAddress } from './guarded-fetch';

const REFUSED: [string, string][] = [
  // IPv4, by range
  ['0.0.0.0', '"this network"'],
  ['0.1.2.3', '"this network"'],
  ['10.0.0.1', 'private-use'],
  ['10.255.255.255', 'private-use'],
  ['100.64.0.1', 'CGNAT'],
  ['100.127.255.254', 'CGNAT'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.1', 'private-use'],
  ['172.31.255.255', 'private-use'],
  ['192.0.0.1', 'IETF protocol assignments'],
  ['192.0.0.170', 'IETF protocol assignments'],
  ['192.0.2.1', 'TEST-NET-1'],
  ['192.0.2.255', 'TEST-NET-1'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['192.168.1.1', 'private-use'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'TEST-NET-2'],
  ['203.0.113.9', 'TEST-NET-3'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  // IPv4 in the forms the URL parser and inet_aton read (all 127.0.0.1 or 0.0.0.0)
  ['0x7f000001', 'loopback'],
  ['2130706433', 'loopback'],
  ['127.1', 'loopback'],
  ['0177.0.0.1', 'loopback'],
  ['017700000001', 'loopback'],
  ['0x7f.1', 'loopback'],
  ['127.0.0.1.', 'loopback'],
  ['0', '"this network"'],
  // IPv6
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::ffff:127.0.0.1', 'IPv4-mapped of loopback'],
  ['[::ffff:7f00:1]', 'IPv4-mapped of loopback'],
  ['::ffff:10.0.0.1', 'IPv4-mapped of private-use'],
  ['::ffff:169.254.169.254', 'IPv4-mapped of link-local'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated of loopback'],
  ['::127.0.0.1', 'IPv4-compatible'],
  ['::8.8.8.8', 'IPv4-compatible'],
  ['64:ff9b::127.0.0.1', 'NAT64) of loopback'],
  ['64:ff9b::a9fe:a9fe', 'NAT64) of link-local'],
  ['64:ff9b:1::8.8.8.8', 'local-use IPv4/IPv6 translation'],
  ['100::1', 'discard-only'],
  ['2001::1', 'Teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['2001:2::1', 'benchmarking'],
  ['2001:db8::1', 'documentation'],
  ['[2001:db8:85a3::8a2e:370:7334]', 'documentation'],
  ['2002:7f00:1::1', '6to4 of loopback'],
  ['2002:c0a8:101::1', '6to4 of private-use'],
  ['2002:a9fe:a9fe::', '6to4 of link-local'],
  ['3fff::1', 'documentation'],
  ['5f00::1', 'segment routing'],
  ['fc00::1', 'unique local'],
  ['fd00::2', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['ff05::1:3', 'multicast'],
  ['4000::1', 'outside global unicast'],
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '9.255.255.255',
  '11.0.0.1',
  '100.63.255.255',
  '100.128.0.1',
  '172.15.255.255',
  '172.32.0.1',
  '192.0.1.1',
  '192.0.3.1',
  '192.167.255.255',
  '192.169.0.1',
  '198.17.255.255',
  '198.20.0.1',
  '198.51.99.1',
  '198.51.101.1',
  '203.0.112.1',
  '203.0.114.1',
  '223.255.255.254',
  '2606:4700:4700::1111',
  '[2a00:1450:4001:80b::200e]',
  '2001:4860:4860::8888',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
  'example.com',
  'localhost',
  'feed.test',
];

describe('addresses the guarded fetch refuses', () => {
  it.each(REFUSED)('%s is refused (%s)', (address, why) => {
    const refusal = addressRefusal(address, { interfaces: () => ({}) });
    expect(refusal).not.toBeNull();
    expect(refusal!.toLowerCase()).toContain(why.toLowerCase());
  });

  it.each(PUBLIC)('%s is not refused by its address (a name is checked when resolved)', (address) => {
    expect(addressRefusal(address, { interfaces: () => ({}) })).toBeNull();
  });

  it("reads the forms Node's URL parser normalises as the address fetch connects to", () => {
    for (const host of ['0x7f000001', '2130706433', '127.1', '0177.0.0.1', '[::ffff:127.0.0.1]', '[0:0:0:0:0:ffff:127.0.0.1]']) {
      const { hostname } = new URL(`http://${host}:8080/calendar.ics`);
      expect(isRefusedAddress(hostname, { interfaces: () => ({}) }), `${host} -> ${hostname}`).toBe(true);
      expect(addressBytes(hostname), host).toEqual(addressBytes(host));
    }
    expect(new URL('http://0x7f000001/').hostname).toBe('127.0.0.1');
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
  });

  it("refuses the machine's own interface addresses, public ones included, in any form", () => {
    const interfaces = (): NodeJS.Dict<os.NetworkInterfaceInfo[]> => ({
      eth0: [
        { address: '8.8.4.4', netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:01', internal: false, cidr: '8.8.4.4/24' },
        {
          address: '2a01:4f8:c0c:1234::1',
          netmask: 'ffff:ffff:ffff:ffff::',
          family: 'IPv6',
          mac: '02:00:00:00:00:01',
          internal: false,
          cidr: '2a01:4f8:c0c:1234::1/64',
          scopeid: 0,
        },
      ],
    });
    for (const address of ['8.8.4.4', '::ffff:8.8.4.4', '64:ff9b::808:404', '2002:808:404::1', '2a01:4f8:c0c:1234::1', '[2a01:4f8:c0c:1234:0:0:0:1]'])
      expect(addressRefusal(address, { interfaces }), address).toBe("this machine's own address");
    // Its neighbours on the internet are not the machine.
    for (const address of ['8.8.4.5', '2a01:4f8:c0c:1234::2']) expect(addressRefusal(address, { interfaces })).toBeNull();
    // By default the interfaces are the machine's, read at each check.
    expect(addressRefusal('127.0.0.1')).not.toBeNull();
  });

  it('lets the install allow everything, or a test allow a few addresses', () => {
    expect(addressRefusal('127.0.0.1', { privateAddresses: true })).toBeNull();
    expect(addressRefusal('169.254.169.254', { privateAddresses: true })).toBeNull();
    expect(addressRefusal('127.0.0.1', { allow: ['127.0.0.1'] })).toBeNull();
    expect(addressRefusal('::ffff:127.0.0.1', { allow: ['127.0.0.1'] })).toBeNull();
    expect(addressRefusal('127.0.0.2', { allow: ['127.0.0.1'] })).toBe('loopback');
    expect(addressRefusal('10.1.2.3', { allow: ['10.1.0.0/16'] })).toBeNull();
    expect(addressRefusal('10.2.0.1', { allow: ['10.1.0.0/16'] })).toBe('private-use');
  });
});
