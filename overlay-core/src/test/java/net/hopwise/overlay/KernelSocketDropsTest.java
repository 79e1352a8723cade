package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.hopwise.overlay.testing.HeldLoop;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.Test;

/**
 * Datagrams the kernel drops because a node's receive buffer is full are counted as the node's drops
 * ({@code socket_buffer}), so that a host too busy to read in time shows loss where operators look.
 */
class KernelSocketDropsTest {
    private static final List<String> UDP = List.of(
            "   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops",
            "  113: 0100007F:1F90 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 4242 2 0000000000000000 17",
            "  114: 00000000:1F90 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 4243 2 0000000000000000 3",
            "  115: 0100007F:11F9 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 4244 2 0000000000000000 99",
            "  116: 0100007F:1F91 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 4245 2 0000000000000000 5");

    @Test
    void sumsTheDropsColumnOfTheSocketsOnThePortOnly() {
        assertThat(KernelSocketDrops.dropsOf(UDP, ":1F90")).isEqualTo(20);
        assertThat(KernelSocketDrops.dropsOf(UDP, ":1F92")).isZero();
        assertThat(KernelSocketDrops.dropsOf(List.of(UDP.get(0), "  7: garbage"), ":1F90")).isZero();
    }

    @Test
    void aMissingTableCountsNothing() {
        assertThat(new KernelSocketDrops(List.of(Path.of("/nonexistent/udp")), 8080).getAsLong()).isZero();
    }

    @Test
    @SuppressWarnings("try") // the held loop is only closed
    void datagramsTheKernelDropsForANodeThatDoesNotReadAreCountedAsItsDrops() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/net/udp")), "Linux only");
        try (NodeRuntime runtime = NodeRuntime.create(1)) {
            OverlayNode node = OverlayNode.start(NodeConfig.builder("kernel-drops").loopback(0)
                    .socketBufferBytes(64 * 1024).build(), runtime);
            try {
                long dropped;
                // The node's only loop waits, so nothing is read while the buffer overflows.
                try (HeldLoop held = HeldLoop.hold(node); DatagramSocket s = new DatagramSocket()) {
                    byte[] payload = new byte[1000];
                    for (int i = 0; i < 2000; i++) {
                        s.send(new DatagramPacket(payload, payload.length, node.localAddress()));
                    }
                    dropped = node.counters().drops(DropReason.SOCKET_BUFFER);
                }
                // 2000 KB into a buffer the kernel sizes at twice 64 KiB: most cannot have fitted.
                assertThat(dropped).isGreaterThan(1000);
                assertThat(node.counters().totalDrops()).isGreaterThanOrEqualTo(dropped);
            } finally {
                node.close();
            }
        }
    }
}
