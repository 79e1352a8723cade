package net.hopwise.voip.relay;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * UDP ports the tests bind explicitly (SIPp's, a relay's phone sockets), free when asked for.
 *
 * <p>They come from a band below the kernel's ephemeral range, not from bind(0) nor from a fixed
 * start inside that range: a port there is in the pool every other socket on the machine draws from,
 * and in CI another module's test took one between the check and the bind (SIPp exited 254 before its
 * first call; a check that a test's ports were free again found 44000 taken). Below the ephemeral
 * range only an explicit bind can take a port. The relays in these tests hold fixed ports from 30000
 * up, so the band ends below them; each JVM starts at its own place in the band so two suites side by
 * side do not walk the same ports.
 */
final class LoopbackPorts {
    private static final int BAND_LOW = 12000;
    private static final int BAND_HIGH = Math.min(30000, ephemeralLow());
    private static final AtomicInteger NEXT =
            new AtomicInteger((int) (ProcessHandle.current().pid() * 4 % Math.max(4, BAND_HIGH - BAND_LOW)));

    private LoopbackPorts() {}

    /**
     * The first of {@code n} consecutive UDP ports on {@code address}, all free now; even, as an RTP
     * port is (its RTCP port the odd one above).
     */
    static int freeBlock(InetAddress address, int n) {
        int span = (BAND_HIGH - BAND_LOW - n) & ~1;
        if (span < 100) {
            throw new IllegalStateException("the kernel's ephemeral ports start at " + BAND_HIGH
                    + ": no band below them for the tests' ports");
        }
        int step = Math.max(4, n + (n & 1));
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = BAND_LOW + Math.floorMod(NEXT.getAndAdd(step), span);
            if (allFree(address, port, n)) {
                return port;
            }
        }
        throw new IllegalStateException("no " + n + " free UDP ports in a row in " + BAND_LOW + "-" + BAND_HIGH
                + " on " + address + " in 200 attempts");
    }

    /** Whether ports {@code first} to {@code first + n - 1} on {@code address} can all be bound now. */
    static boolean allFree(InetAddress address, int first, int n) {
        for (int p = first; p < first + n; p++) {
            try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(address, p))) {
                // bound, so free; closed again at once
            } catch (SocketException taken) {
                return false;
            }
        }
        return true;
    }

    private static int ephemeralLow() {
        try {
            // read as a stream: the file's size reads as 0, and Files.readString of it returned "3"
            String[] range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim()
                    .split("\\s+");
            return Integer.parseInt(range[0]);
        } catch (java.io.IOException | RuntimeException unreadable) {
            return 32768; // Linux's default
        }
    }
}
