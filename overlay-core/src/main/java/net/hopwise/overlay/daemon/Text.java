package net.hopwise.overlay.daemon;

import java.net.Inet6Address;
import java.net.InetSocketAddress;

/** How the daemon writes addresses and times in its log lines. */
final class Text {
    private Text() {}

    /** {@code 192.0.2.7:8100} or {@code [2001:db8::3]:8100}, without InetSocketAddress's host-name prefix. */
    static String address(InetSocketAddress a) {
        if (a.getAddress() == null) {
            return a.getHostString() + ":" + a.getPort();
        }
        String host = a.getAddress().getHostAddress();
        return (a.getAddress() instanceof Inet6Address ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    /** Nanoseconds as milliseconds with two decimals. */
    static String millis(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.2f ms", nanos / 1e6);
    }

    /** A rate in [0, 1] as a percentage with one decimal. */
    static String percent(double rate) {
        return String.format(java.util.Locale.ROOT, "%.1f%%", 100 * rate);
    }
}
