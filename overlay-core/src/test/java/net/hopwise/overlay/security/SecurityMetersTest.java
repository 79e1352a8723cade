package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import net.hopwise.overlay.testing.DatagramTap;
import net.hopwise.overlay.testing.VirtualOverlay;
import org.junit.jupiter.api.Test;

/**
 * The per-link meters of link security on virtual time ({@code hopwise.security.rekeys} and
 * {@code hopwise.security.link.drops} by reason), each read against the link's status at the same
 * instant on the node's thread: what a Prometheus scrape shows is what the node counted.
 */
class SecurityMetersTest {
    private static final long MS = 1_000_000L;
    private static final long WALL = 1_800_000_000L;

    private final NodeKeys ka = NodeKeys.generate();
    private final NodeKeys kb = NodeKeys.generate();
    private final NodeKeys kc = NodeKeys.generate();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    /** Every datagram a sent, as its socket took it: sealed. */
    private final List<byte[]> sentByA = new ArrayList<>();

    /** a, b and c, each admitting those {@code admits} lists for it; a's datagrams captured next to its socket. */
    private VirtualOverlay overlay(Map<String, List<String>> admits, UnaryOperator<SecurityConfig> tweak) {
        Map<String, NodeKeys> keys = Map.of("a", ka, "b", kb, "c", kc);
        return new VirtualOverlay(42, builder -> {
            builder.meterRegistry(meters);
            String name = builder.build().name();
            if (name.equals("a")) {
                builder.module(DatagramTap.outbound("capture", (link, address, datagram) -> {
                    sentByA.add(DatagramTap.bytes(datagram));
                    return datagram;
                })); // first: nearest the socket, outside link security
            }
            Map<String, List<byte[]>> trusted = new java.util.HashMap<>();
            for (String n : admits.get(name)) {
                trusted.put(n, List.of(keys.get(n).identityPublic()));
            }
            builder.module(new SecurityModule(tweak.apply(SecurityConfig.of(name, keys.get(name), null,
                    new TrustedKeys(trusted)).withWallClock(() -> WALL))));
        });
    }

    private static final Map<String, List<String>> A_AND_B = Map.of("a", List.of("a", "b"), "b", List.of("a", "b"));

    @Test
    void everyRekeyOfALinkIsCountedInItsRekeyMeter() {
        // Rekeys every 2 s and sessions refused after 3 s: a few rekeys in seconds of virtual time.
        try (VirtualOverlay o = overlay(A_AND_B, c -> c.withRekey(Duration.ofSeconds(2), Duration.ofSeconds(3),
                SecurityConfig.DEFAULT_REKEY_AFTER_PACKETS, SecurityConfig.DEFAULT_REJECT_AFTER_PACKETS))) {
            o.node("a");
            o.node("b");
            o.link("a", "b", MS);
            o.startAll();
            assertThat(o.runUntilRoute("a", "b", 10_000 * MS)).isTrue();
            o.runFor(10_000 * MS);
            for (String[] end : new String[][] {{"a", "b"}, {"b", "a"}}) {
                Reading r = read(o, end[0], end[1], "hopwise.security.rekeys");
                assertThat(r.status().rekeys()).as("rekeys at " + end[0]).isGreaterThanOrEqualTo(3);
                assertThat(r.meter()).as("the rekey meter at " + end[0]).isEqualTo(r.status().rekeys());
                assertThat(read(o, end[0], end[1], "hopwise.security.handshakes").meter())
                        .as("handshakes, rekeys included").isEqualTo(r.status().handshakes());
            }
        }
    }

    /**
     * Copies of a's sealed datagrams sent to b again, and copies with a counter changed: b
     * counts them on its link to a, and its meters say so at once, not at the link's next rekey.
     */
    @Test
    void replayedAndForgedDatagramsOnALinkShowInItsDropMetersAtOnce() {
        try (VirtualOverlay o = overlay(A_AND_B, c -> c)) {
            o.node("a");
            o.node("b");
            o.link("a", "b", MS);
            o.startAll();
            assertThat(o.runUntilRoute("b", "a", 10_000 * MS)).isTrue();
            o.runFor(1_000 * MS);
            List<byte[]> sealed = new ArrayList<>();
            for (byte[] d : sentByA) {
                if (d.length > SecureWire.DATA_OVERHEAD && d[0] == SecureWire.DATA) {
                    sealed.add(d);
                }
            }
            assertThat(sealed).hasSizeGreaterThan(3);
            assertThat(read(o, "b", "a", "hopwise.security.link.drops", "replay").meter()).isZero();

            for (byte[] d : sealed.subList(sealed.size() - 3, sealed.size())) {
                o.inject("a", "b", Unpooled.wrappedBuffer(d.clone()));
            }
            for (byte[] d : sealed.subList(sealed.size() - 2, sealed.size())) {
                // A counter far ahead passes the replay window, which is checked first; the tag then fails.
                byte[] forged = d.clone();
                forged[6] ^= 1;
                o.inject("a", "b", Unpooled.wrappedBuffer(forged));
            }
            o.runFor(10 * MS);

            Reading replays = read(o, "b", "a", "hopwise.security.link.drops", "replay");
            assertThat(replays.status().replays()).isEqualTo(3);
            assertThat(replays.meter()).as("replay drops").isEqualTo(3);
            Reading forgeries = read(o, "b", "a", "hopwise.security.link.drops", "forged");
            assertThat(forgeries.status().forgeries()).isEqualTo(2);
            assertThat(forgeries.meter()).as("forged drops").isEqualTo(2);
            assertThat(read(o, "b", "a", "hopwise.security.link.drops", "rejected").meter()).isZero();
        }
    }

    /**
     * b's operator configured a link to c, but c's key is on no list of b's (c admits b): every
     * handshake on the link is refused at b, and b's meter of the link shows the refusals, though the
     * link never had keys.
     */
    @Test
    void handshakesRefusedOnALinkThatNeverCameUpShowInItsRejectedMeter() {
        Map<String, List<String>> admits = Map.of("a", List.of("a", "b"), "b", List.of("a", "b"), "c", List.of("b", "c"));
        try (VirtualOverlay o = overlay(admits, c -> c)) {
            o.node("a");
            o.node("b");
            o.node("c");
            o.link("a", "b", MS);
            o.link("b", "c", MS);
            o.startAll();
            assertThat(o.runUntilRoute("a", "b", 10_000 * MS)).isTrue();
            o.runFor(3_000 * MS);

            Reading r = read(o, "b", "c", "hopwise.security.link.drops", "rejected");
            assertThat(r.status().authenticated()).isFalse();
            assertThat(r.status().rejections()).isPositive();
            assertThat(r.meter()).as("rejected handshakes").isEqualTo(r.status().rejections());
            assertThat(read(o, "b", "a", "hopwise.security.link.drops", "rejected").meter()).as("a's link").isZero();
        }
    }

    /** A link's status and one of its meters, read at one instant on the node's thread. */
    private record Reading(LinkSecurity.PeerStatus status, double meter) {}

    private Reading read(VirtualOverlay o, String node, String peer, String meter, String... reason) {
        CompletableFuture<Reading> f = o.engine(node).module(SecureLinks.class).status().thenApply(all -> {
            LinkSecurity.PeerStatus status = all.stream().filter(s -> s.name().equals(peer)).findFirst().orElseThrow();
            var search = meters.find(meter).tag("node", node).tag("peer", peer);
            if (reason.length > 0) {
                search = search.tag("reason", reason[0]);
            }
            var counter = search.functionCounter();
            return new Reading(status, counter == null ? -1 : counter.count());
        });
        o.runFor(MS);
        Reading r = f.join();
        assertThat(r.meter()).as(meter + " of " + node + " for " + peer + " " + List.of(reason) + " registered")
                .isNotNegative();
        return r;
    }
}
