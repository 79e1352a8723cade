package net.hopwise.overlay.security.attack;

import static net.hopwise.overlay.security.attack.SecuredOverlay.MS;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.LeakDetection;
import net.hopwise.overlay.wire.DropReason;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The node's fuzz property (wire/DatagramDecodingProperties) with link security on: whatever
 * datagrams arrive, from an outsider's address or from a neighbour's, each is exactly one counted
 * drop, nothing throws or leaks (Netty's leak detector tracks every buffer in the suite), and the sealed
 * link beside them keeps carrying messages. One overlay serves every try, so that a try costs what
 * its datagrams cost.
 */
class SecuredDatagramFuzzProperties {
    private static SecuredOverlay sim;
    private static final List<String> DELIVERED = new ArrayList<>();
    private static int messages;

    @BeforeContainer
    static void linkUp() {
        sim = new SecuredOverlay(77, (name, c) -> c);
        sim.overlay.node("a");
        sim.overlay.node("b");
        sim.overlay.external("mallory", (from, d, now) -> { });
        sim.overlay.link("a", "b", MS);
        sim.overlay.link("mallory", "b", MS);
        sim.overlay.startAll();
        assertThat(sim.awaitRoute("a", "b", 5_000)).isTrue();
        sim.engine("b").openPort(7, m -> DELIVERED.add(m.payload().toString(StandardCharsets.US_ASCII)));
        sim.engine("a").openPort(8, m -> { });
    }

    @AfterContainer
    static void noLeaks() {
        sim.close();
        LeakDetection.assertNoLeaks();
    }

    /** Datagrams an attacker would try: arbitrary bytes, and arbitrary bodies behind each security type at each size it takes. */
    @Provide
    Arbitrary<byte[]> datagrams() {
        Arbitrary<byte[]> anyBytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(1600);
        Arbitrary<byte[]> typed = Combinators.combine(
                Arbitraries.of(Forgeries.INIT, Forgeries.COOKIE, Forgeries.RESPONSE, Forgeries.FINAL, Forgeries.DATA),
                Arbitraries.of(1, 5, 13, 21, 28, 29, 30, Forgeries.INIT_BYTES, 69, 104, 105, 200, 1200, 1229, 1400),
                Arbitraries.bytes().array(byte[].class).ofSize(1400)).as((type, size, fill) -> {
                    byte[] d = java.util.Arrays.copyOf(fill, size);
                    d[0] = (byte) (int) type;
                    return d;
                });
        // DATA for b's live session (its index is in clear on the wire), with any counter and bytes.
        Arbitrary<byte[]> live = Combinators.combine(Arbitraries.longs(), Arbitraries.integers().between(0, 1200),
                Arbitraries.longs()).as((counter, length, seed) -> {
                    List<byte[]> sealed = sim.sealed("a", "b");
                    return Forgeries.sealedLooking(new java.util.Random(seed), Forgeries.receiverIndex(sealed.get(sealed.size() - 1)),
                            counter, length);
                });
        return Arbitraries.oneOf(anyBytes, typed, live).map(SecuredDatagramFuzzProperties::notAFirstInit);
    }

    /**
     * An INIT without a cookie from a neighbour's address is a well-formed first handshake message,
     * answered with a cookie and not a drop: the one datagram an attacker's bytes may legitimately
     * be. Its cookie is made non-zero, which makes it a bad cookie.
     */
    private static byte[] notAFirstInit(byte[] d) {
        if (d.length == Forgeries.INIT_BYTES && Forgeries.type(d) == Forgeries.INIT) {
            d[d.length - 1] |= 1;
        }
        return d;
    }

    @Property(tries = 300, seed = "15")
    void everyArbitraryDatagramIsOneCountedDropAndTheSealedLinkKeepsWorking(
            @ForAll @Size(min = 1, max = 20) List<@net.jqwik.api.From("datagrams") byte[]> datagrams,
            @ForAll boolean fromTheNeighboursAddress) {
        NodeStack b = sim.engine("b");
        long before = SecuredOverlay.receiveDrops(b);
        long faults = b.counters().drops(DropReason.HANDLER_ERROR);
        for (byte[] d : datagrams) {
            sim.inject(fromTheNeighboursAddress ? "a" : "mallory", "b", d);
        }
        sim.overlay.runFor(5 * MS);
        assertThat(SecuredOverlay.receiveDrops(b) - before).isEqualTo(datagrams.size());
        assertThat(b.counters().drops(DropReason.HANDLER_ERROR)).as("no fault reached").isEqualTo(faults);

        String text = "message " + messages++;
        var payload = Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.US_ASCII));
        sim.engine("a").send(8, NodeId.ofName("b"), 7, payload, RoutingMetric.HOPS, sim.overlay.now());
        payload.release();
        sim.overlay.runFor(5 * MS);
        assertThat(DELIVERED).endsWith(text);
        assertThat(b.hasRoute(NodeId.ofName("mallory"), RoutingMetric.HOPS)).isFalse();
    }
}
