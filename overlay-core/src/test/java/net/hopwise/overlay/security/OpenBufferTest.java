package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.DatagramStage;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.Test;

/**
 * Datagrams are opened into one buffer, datagram after datagram, while nothing but the stage holds it
 * (no buffer taken from the allocator and given back per datagram on the receiving loop); a buffer
 * that a holder keeps is left to it and never written over.
 */
class OpenBufferTest {
    private static final long MS = 1_000_000L;

    private final NodeKeys ka = NodeKeys.generate();
    private final NodeKeys kb = NodeKeys.generate();
    private final Admission trusted = new TrustedKeys(Map.of("a", List.of(ka.identityPublic()),
            "b", List.of(kb.identityPublic())));
    /** The buffers best-effort data arrived in above link security at b, each once. */
    private final Set<ByteBuf> dataBuffers = Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<ByteBuf> kept = new ArrayList<>();
    private boolean keep;
    private final List<String> delivered = new ArrayList<>();

    private VirtualOverlay linkedPair() {
        VirtualOverlay o = new VirtualOverlay(13, builder -> {
            String name = builder.build().name();
            builder.module(new SecurityModule(SecurityConfig.of(name, name.equals("a") ? ka : kb, null, trusted)
                    .withWallClock(() -> 1_800_000_000L)));
            if (name.equals("b")) {
                builder.module(new AboveSecurity()); // installed second: further from the socket
            }
        });
        o.node("a");
        o.node("b");
        o.link("a", "b", MS);
        o.startAll();
        long end = o.now() + 10_000 * MS;
        while (!o.engine("a").hasRoute(NodeId.ofName("b"), RoutingMetric.HOPS) && o.now() < end) {
            o.runFor(10 * MS);
        }
        assertThat(o.engine("a").hasRoute(NodeId.ofName("b"), RoutingMetric.HOPS)).isTrue();
        o.engine("b").openPort(7, m -> delivered.add(new String(m.payloadBytes(), StandardCharsets.US_ASCII)));
        return o;
    }

    private static void send(VirtualOverlay o, String text) {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        o.engine("a").send(8, NodeId.ofName("b"), 7, io.netty.buffer.Unpooled.wrappedBuffer(b), RoutingMetric.HOPS,
                o.now());
        o.runFor(5 * MS);
    }

    @Test
    void datagramsNobodyKeepsAreOpenedIntoOneBuffer() {
        try (VirtualOverlay o = linkedPair()) {
            for (int i = 0; i < 20; i++) {
                send(o, "message " + i);
            }
            assertThat(delivered).hasSize(20).endsWith("message 19");
            assertThat(dataBuffers).as("buffers the 20 data datagrams were opened into").hasSize(1);
        }
    }

    @Test
    void aBufferAHolderKeepsIsNeverWrittenOver() {
        try (VirtualOverlay o = linkedPair()) {
            keep = true;
            send(o, "first");
            keep = false;
            for (int i = 0; i < 5; i++) {
                send(o, "later " + i);
            }
            try {
                assertThat(delivered).hasSize(6);
                assertThat(kept).hasSize(1);
                ByteBuf first = kept.get(0);
                byte[] tail = new byte[5];
                first.getBytes(first.writerIndex() - 5, tail);
                assertThat(new String(tail, StandardCharsets.US_ASCII)).isEqualTo("first");
                assertThat(dataBuffers).as("the kept buffer and the one opened into after it").hasSize(2);
            } finally {
                kept.forEach(ByteBuf::release);
            }
        }
    }

    /** Sees each opened datagram above link security, and keeps one when asked to. */
    private final class AboveSecurity implements OverlayModule {
        @Override
        public String name() {
            return "above-security";
        }

        @Override
        public void install(ModuleContext ctx) {
            ctx.addDatagramStage("above-security", new DatagramStage() {
                @Override
                public int overhead() {
                    return 0;
                }

                @Override
                public ByteBuf inbound(InetSocketAddress from, ByteBuf datagram, long nowNanos) {
                    if (datagram.readableBytes() > WireHeader.OFFSET_TYPE && datagram.getUnsignedByte(
                            datagram.readerIndex() + WireHeader.OFFSET_TYPE) == PacketType.DATA.code()) {
                        dataBuffers.add(datagram);
                        if (keep) {
                            kept.add(datagram.retainedDuplicate());
                        }
                    }
                    return datagram;
                }

                @Override
                public ByteBuf outbound(LinkView link, InetSocketAddress address, ByteBuf datagram, long nowNanos) {
                    return datagram;
                }
            });
        }
    }
}
