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
    // Linux's pids are below 2^22, so four times one fits an int; the band takes it modulo its width.
    private static final Band BAND = new Band(12000, Math.min(30000, ephemeralLow()),
            (int) (ProcessHandle.current().pid() * 4));

    private LoopbackPorts() {}

    /**
     * The first of {@code n} consecutive UDP ports on {@code address}, all free now; even, as an RTP
     * port is (its RTCP port the odd one above).
     */
    static int freeBlock(InetAddress address, int n) {
        return BAND.freeBlock(address, n);
    }

    /**
     * A band of ports handed out in turn, each block right after the one before and the band's start
     * after its end, so that the blocks a JVM takes never overlap until it has gone round the whole
     * band. The check that a port is free cannot see a port its taker binds later (SIPp binds its
     * media ports after it starts), so blocks must not overlap by construction: one modulus for every
     * size (a modulus per size put a one-port block inside the three-port block before it once the
     * band wrapped, and SIPp's main socket found its port taken by the callee's media).
     */
    static final class Band {
        private final int low;
        private final int span;
        private final AtomicInteger next;

        Band(int low, int high, int start) {
            if (low % 2 != 0) {
                throw new IllegalArgumentException("a band starts on an even port, got " + low);
            }
            this.low = low;
            this.span = (high - low) & ~1;
            if (span < 100) {
                throw new IllegalStateException("the kernel's ephemeral ports start at " + high
                        + ": no band below them for the tests' ports");
            }
            this.next = new AtomicInteger(Math.floorMod(start, span) & ~1);
        }

        /** The next block of {@code n} ports in turn (even, within the band), free or not. */
        int nextBlock(int n) {
            int step = Math.max(4, n + (n & 1));
            while (true) {
                int offset = Math.floorMod(next.getAndAdd(step), span);
                if (offset + n <= span) {
                    return low + offset;
                }
            }
        }

        int freeBlock(InetAddress address, int n) {
            for (int attempt = 0; attempt < 200; attempt++) {
                int port = nextBlock(n);
                if (allFree(address, port, n)) {
                    return port;
                }
            }
            throw new IllegalStateException("no " + n + " free UDP ports in a row in " + low + "-" + (low + span)
                    + " on " + address + " in 200 attempts");
        }
    }

    /** Whether ports {@code first} to {@code first + n - 1} on {@code address} can all be bound now. */
    static boolean allFree(InetAddress address, int first, int n) {
        return taken(address, first, n).isEmpty();
    }

    /** The ports of {@code first} to {@code first + n - 1} on {@code address} that cannot be bound now. */
    static java.util.List<Integer> taken(InetAddress address, int first, int n) {
        java.util.List<Integer> taken = new java.util.ArrayList<>();
        for (int p = first; p < first + n; p++) {
            try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(address, p))) {
                // bound, so free; closed again at once
            } catch (SocketException bound) {
                taken.add(p);
            }
        }
        return taken;
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
