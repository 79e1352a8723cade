package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.DatagramTap;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.Test;

/**
 * Link security opens a received datagram in the very buffer it arrived in (no buffer taken from the
 * allocator and given back per datagram on the receiving loop), and seals a message the node sends
 * from its own thread in the buffer the forwarding stage built for it, which leaves room for the
 * header and tag. Stages below link security (next to the socket) and above it (next to the frame
 * stage) watch the buffers pass.
 */
class OpenInPlaceTest {
    private static final long MS = 1_000_000L;

    private final NodeKeys ka = NodeKeys.generate();
    private final NodeKeys kb = NodeKeys.generate();
    private final Admission trusted = new TrustedKeys(Map.of("a", List.of(ka.identityPublic()),
            "b", List.of(kb.identityPublic())));
    private final List<String> delivered = new ArrayList<>();

    /** The last buffer that reached link security from the socket's side, per node. */
    private final Map<String, ByteBuf[]> arrived = Map.of("a", new ByteBuf[1], "b", new ByteBuf[1]);
    /** Whether the socket's side hands datagrams up read-only. */
    private boolean readOnlyArrivals;
    private int openedDatagrams;
    private int openedInTheirOwnBuffer;
    private int openedElsewhere;
    /** The best-effort data datagrams the frame's side handed down, and how many reached the socket's side as such. */
    private final List<ByteBuf> dataSentDown = new ArrayList<>();
    private int sealedInTheirOwnBuffer;

    private VirtualOverlay linkedPair() {
        VirtualOverlay o = new VirtualOverlay(13, builder -> {
            String name = builder.build().name();
            builder.module(watcher("socket-side", name, true));
            builder.module(new SecurityModule(SecurityConfig.of(name, name.equals("a") ? ka : kb, null, trusted)
                    .withWallClock(() -> 1_800_000_000L)));
            builder.module(watcher("frame-side", name, false));
        });
        o.node("a");
        o.node("b");
        o.link("a", "b", MS);
        o.startAll();
        assertThat(o.runUntilRoute("a", "b", 10_000 * MS)).isTrue();
        o.engine("b").openPort(7, m -> delivered.add(new String(m.payloadBytes(), StandardCharsets.US_ASCII)));
        return o;
    }

    @Test
    void aSealedDatagramIsOpenedInTheBufferItArrivedIn() {
        try (VirtualOverlay o = linkedPair()) {
            int before = openedDatagrams;
            assertThat(openedElsewhere).isZero();
            for (int i = 0; i < 20; i++) {
                send(o, "message " + i);
                o.runFor(5 * MS);
            }
            assertThat(delivered).hasSize(20).startsWith("message 0").endsWith("message 19");
            assertThat(openedDatagrams - before).as("datagrams opened while the messages went").isGreaterThanOrEqualTo(20);
            assertThat(openedInTheirOwnBuffer).isEqualTo(openedDatagrams);
            assertThat(openedElsewhere).isZero();
        }
    }

    @Test
    void aReadOnlyDatagramIsOpenedIntoABufferOfItsOwn() {
        try (VirtualOverlay o = linkedPair()) {
            readOnlyArrivals = true;
            int before = openedElsewhere;
            for (int i = 0; i < 5; i++) {
                send(o, "read-only " + i);
                o.runFor(5 * MS);
            }
            assertThat(delivered).containsExactly("read-only 0", "read-only 1", "read-only 2", "read-only 3",
                    "read-only 4");
            assertThat(openedElsewhere - before).isGreaterThanOrEqualTo(5);
        }
    }

    @Test
    void aMessageSentOnTheNodesThreadIsSealedInTheBufferBuiltForIt() {
        try (VirtualOverlay o = linkedPair()) {
            dataSentDown.clear();
            sealedInTheirOwnBuffer = 0;
            for (int i = 0; i < 20; i++) {
                send(o, "on the loop " + i);
                o.runFor(5 * MS);
            }
            assertThat(delivered).hasSize(20).endsWith("on the loop 19");
            assertThat(dataSentDown).hasSize(20);
            assertThat(sealedInTheirOwnBuffer).as("data datagrams sealed in the buffer they came in").isEqualTo(20);
        }
    }

    private static void send(VirtualOverlay o, String text) {
        ByteBuf payload = Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
        try {
            o.engine("a").send(8, NodeId.ofName("b"), 7, payload, RoutingMetric.HOPS, o.now());
        } finally {
            payload.release();
        }
    }

    /** A datagram stage that watches the buffers pass on one side of link security. */
    private DatagramTap watcher(String name, String node, boolean socketSide) {
        return DatagramTap.of(name, (from, datagram) -> {
            if (socketSide) {
                if (readOnlyArrivals) {
                    // a new buffer passed up, which the node releases: it holds a reference of its own
                    ByteBuf view = datagram.retainedDuplicate().asReadOnly();
                    arrived.get(node)[0] = view;
                    return view;
                }
                arrived.get(node)[0] = datagram;
                return datagram;
            }
            // above link security: an opened datagram, which must read as the node's own wire format
            assertThat(WireHeader.check(datagram)).as("an opened datagram's header").isNull();
            openedDatagrams++;
            if (datagram == arrived.get(node)[0]) {
                openedInTheirOwnBuffer++;
            } else {
                openedElsewhere++;
            }
            return datagram;
        }, (link, address, datagram) -> {
            if (!socketSide) {
                if (node.equals("a") && WireHeader.check(datagram) == null
                        && WireHeader.type(datagram) == PacketType.DATA) {
                    dataSentDown.add(datagram);
                }
            } else if (!dataSentDown.isEmpty() && datagram == dataSentDown.get(dataSentDown.size() - 1)) {
                sealedInTheirOwnBuffer++;
                assertThat(datagram.getByte(datagram.readerIndex())).as("a sealed datagram's type")
                        .isEqualTo(SecureWire.DATA);
            }
            return datagram;
        });
    }
}
