//! The address guard (pure classification): which destinations a fetch may connect to.
//!
//! citecheck fetches URLs that came from a model's output or an API client. Without a guard the
//! service would be a proxy into the network it runs in (cloud metadata endpoints, admin panels
//! on loopback, the office LAN). Every address a connection would use is classified here; the
//! fetcher applies the verdict on every redirect hop and to the resolved addresses it actually
//! connects to, so a name that resolves to a private address (DNS rebinding) is refused too.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// What kind of destination an IP address is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressClass {
    Public,
    Loopback,
    Private,
    LinkLocal,
    /// Carrier-grade NAT, 100.64.0.0/10.
    SharedCgnat,
    Unspecified,
    Multicast,
    /// Cloud instance metadata and platform endpoints.
    CloudMetadata,
    /// Documentation, benchmarking, reserved and other never-public ranges.
    Reserved,
}

impl AddressClass {
    pub fn is_public(self) -> bool {
        self == AddressClass::Public
    }
}

/// Classifies an address, looking through IPv4-mapped, IPv4-compatible, NAT64 and 6to4 forms to
/// the IPv4 address they carry.
pub fn classify(ip: IpAddr) -> AddressClass {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

fn classify_v4(ip: Ipv4Addr) -> AddressClass {
    let [a, b, c, d] = ip.octets();
    // Azure's wire server and the metadata addresses of AWS/GCP/Azure/OpenStack (169.254.169.254),
    // Alibaba (100.100.100.200), Oracle (192.0.0.192).
    if (a, b, c, d) == (168, 63, 129, 16)
        || (a, b, c, d) == (169, 254, 169, 254)
        || (a, b, c, d) == (100, 100, 100, 200)
        || (a, b, c, d) == (192, 0, 0, 192)
    {
        return AddressClass::CloudMetadata;
    }
    match (a, b) {
        (0, _) => AddressClass::Unspecified,
        (127, _) => AddressClass::Loopback,
        (10, _) | (192, 168) => AddressClass::Private,
        (172, 16..=31) => AddressClass::Private,
        (169, 254) => AddressClass::LinkLocal,
        (100, 64..=127) => AddressClass::SharedCgnat,
        (224..=239, _) => AddressClass::Multicast,
        (240..=255, _) => AddressClass::Reserved,
        (198, 18..=19) => AddressClass::Reserved,
        (192, 0) if c == 0 || c == 2 => AddressClass::Reserved,
        (198, 51) if c == 100 => AddressClass::Reserved,
        (203, 0) if c == 113 => AddressClass::Reserved,
        _ => AddressClass::Public,
    }
}

fn classify_v6(ip: Ipv6Addr) -> AddressClass {
    if ip.is_unspecified() {
        return AddressClass::Unspecified;
    }
    if ip.is_loopback() {
        return AddressClass::Loopback;
    }
    if let Some(v4) = embedded_v4(ip) {
        return classify_v4(v4);
    }
    let s = ip.segments();
    // AWS's IPv6 metadata endpoint sits inside the unique-local range; name it for clarity.
    if s == [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254] {
        return AddressClass::CloudMetadata;
    }
    match s[0] {
        0xfc00..=0xfdff => AddressClass::Private,
        0xfe80..=0xfebf => AddressClass::LinkLocal,
        // Site-local (deprecated) behaves as private where it still exists.
        0xfec0..=0xfeff => AddressClass::Private,
        0xff00..=0xffff => AddressClass::Multicast,
        // Documentation (2001:db8::/32) and Teredo (2001::/32, which hides an IPv4 address).
        0x2001 if s[1] == 0x0db8 || s[1] == 0 => AddressClass::Reserved,
        // Discard-only prefix 100::/64.
        0x0100 if s[1..4] == [0, 0, 0] => AddressClass::Reserved,
        // Everything else outside global unicast 2000::/3 is reserved.
        first if !(0x2000..=0x3fff).contains(&first) => AddressClass::Reserved,
        _ => AddressClass::Public,
    }
}

/// The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`),
/// NAT64 (`64:ff9b::a.b.c.d`) or 6to4 (`2002:aabb:ccdd::`) address.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let tail = || Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    if s[..5] == [0, 0, 0, 0, 0] && (s[5] == 0xffff || s[5] == 0) {
        return Some(tail());
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return Some(tail());
    }
    if s[0] == 0x2002 {
        return Some(Ipv4Addr::new(
            (s[1] >> 8) as u8,
            s[1] as u8,
            (s[2] >> 8) as u8,
            s[2] as u8,
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(text: &str) -> AddressClass {
        classify(text.parse().expect("test addresses parse"))
    }

    #[test]
    fn every_private_range_is_refused_and_public_addresses_pass() {
        use AddressClass::*;
        let table = [
            ("127.0.0.1", Loopback),
            ("127.255.0.9", Loopback),
            ("10.1.2.3", Private),
            ("172.16.0.1", Private),
            ("172.31.255.255", Private),
            ("192.168.1.1", Private),
            ("169.254.1.1", LinkLocal),
            ("169.254.169.254", CloudMetadata),
            ("168.63.129.16", CloudMetadata),
            ("100.100.100.200", CloudMetadata),
            ("100.64.0.1", SharedCgnat),
            ("100.127.255.254", SharedCgnat),
            ("0.0.0.0", Unspecified),
            ("0.1.2.3", Unspecified),
            ("224.0.0.1", Multicast),
            ("239.255.255.250", Multicast),
            ("255.255.255.255", Reserved),
            ("192.0.2.10", Reserved),
            ("198.18.0.1", Reserved),
            ("::", Unspecified),
            ("::1", Loopback),
            ("fe80::1", LinkLocal),
            ("fc00::1", Private),
            ("fd12:3456::1", Private),
            ("fd00:ec2::254", CloudMetadata),
            ("ff02::1", Multicast),
            ("2001:db8::1", Reserved),
            ("2001:0:4136:e378::1", Reserved),
            ("::ffff:127.0.0.1", Loopback),
            ("::ffff:10.0.0.1", Private),
            ("::ffff:169.254.169.254", CloudMetadata),
            ("::127.0.0.1", Loopback),
            ("64:ff9b::192.168.0.1", Private),
            ("2002:c0a8:0101::1", Private),
            ("93.184.216.34", Public),
            ("8.8.8.8", Public),
            ("172.32.0.1", Public),
            ("100.128.0.1", Public),
            ("2606:2800:220:1:248:1893:25c8:1946", Public),
            ("::ffff:93.184.216.34", Public),
        ];
        for (text, expected) in table {
            assert_eq!(class(text), expected, "{text}");
        }
    }
}
