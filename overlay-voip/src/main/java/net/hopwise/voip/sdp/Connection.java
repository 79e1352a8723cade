package net.hopwise.voip.sdp;

/**
 * A c= value or the address part of an o= or a=rtcp: network type, address type and address
 * (any {@code /ttl/count} suffix of a multicast address kept as written in {@code address}).
 */
public record Connection(String netType, String addrType, String address) {
    public static Connection ip4(String address) {
        return new Connection("IN", "IP4", address);
    }

    public static Connection ip6(String address) {
        return new Connection("IN", "IP6", address);
    }

    /** The RFC 2543 hold address 0.0.0.0 (and its IPv6 counterpart ::), still sent by older phones. */
    public boolean isUnspecified() {
        String host = host();
        return host.equals("0.0.0.0") || host.equals("::") || host.equals("0:0:0:0:0:0:0:0");
    }

    /** The address without a multicast {@code /ttl/count} suffix. */
    public String host() {
        int slash = address.indexOf('/');
        return slash < 0 ? address : address.substring(0, slash);
    }

    @Override
    public String toString() {
        return netType + " " + addrType + " " + address;
    }
}
