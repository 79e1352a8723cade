package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.DatagramTap;
import net.hopwise.overlay.testing.VirtualOverlay;
import org.junit.jupiter.api.Test;

/**
 * A datagram handed to link security in a direct buffer that nothing else holds, with room for the
 * header and tag, leaves sealed in that very buffer (no buffer allocated and another released per
 * datagram on the sending loop); one that another holder can still read is never written over.
 */
class SealInPlaceTest {
    private static final long MS = 1_000_000L;
    private static final int ROOM = LinkSecurity.overhead();

    private final NodeKeys ka = NodeKeys.generate();
    private final NodeKeys kb = NodeKeys.generate();
    private final Admission trusted = new TrustedKeys(Map.of("a", List.of(ka.identityPublic()),
            "b", List.of(kb.identityPublic())));
    /** The buffer the test handed to the node last, and how many of them reached the socket's side as such. */
    private ByteBuf handedOver;
    private int sameBufferAtSocket;
    private final List<String> delivered = new ArrayList<>();

    private VirtualOverlay overlay() {
        return new VirtualOverlay(11, builder -> {
            String name = builder.build().name();
            // First: next to the socket, below link security, where it sees each datagram as sealed.
            builder.module(DatagramTap.outbound("socket-side", (link, address, datagram) -> {
                if (datagram == handedOver && datagram.readableBytes() > 0) {
                    sameBufferAtSocket++;
                    // sealed: the plaintext's text is nowhere in it
                    assertThat(ByteBufUtil.hexDump(datagram)).doesNotContain(ByteBufUtil.hexDump(
                            "message".getBytes(StandardCharsets.US_ASCII)));
                }
                return datagram;
            }));
            builder.module(new SecurityModule(SecurityConfig.of(name, name.equals("a") ? ka : kb, null, trusted)
                    .withWallClock(() -> 1_800_000_000L)));
        });
    }

    private VirtualOverlay linkedPair() {
        VirtualOverlay o = overlay();
        o.node("a");
        o.node("b");
        o.link("a", "b", MS);
        o.startAll();
        assertThat(o.runUntilRoute("a", "b", 10_000 * MS)).isTrue();
        o.engine("b").openPort(7, m -> delivered.add(new String(m.payloadBytes(), StandardCharsets.US_ASCII)));
        return o;
    }

    /** A message as the node's sending path prepares it: headroom for the headers, room for the stages. */
    private static ByteBuf prepared(String text, int room) {
        byte[] payload = text.getBytes(StandardCharsets.US_ASCII);
        ByteBuf packet = ByteBufAllocator.DEFAULT.directBuffer(NodeStack.PREPARED_HEADROOM + payload.length + room,
                NodeStack.PREPARED_HEADROOM + payload.length + room);
        packet.writerIndex(NodeStack.PREPARED_HEADROOM);
        packet.writeBytes(payload);
        return packet;
    }

    @Test
    void theNodeStatesTheRoomItsDatagramStagesAdd() {
        try (VirtualOverlay o = linkedPair()) {
            assertThat(o.engine("a").datagramOverhead()).isEqualTo(ROOM);
            // what a sender leaves behind a full payload is exactly that room
            assertThat(NodeStack.PREPARED_HEADROOM + o.engine("a").maxFragmentPayload() + ROOM)
                    .isEqualTo(net.hopwise.overlay.wire.WireHeader.MAX_DATAGRAM);
        }
    }

    @Test
    void anExclusiveDirectDatagramWithRoomIsSealedInItsOwnBuffer() {
        try (VirtualOverlay o = linkedPair()) {
            for (int i = 0; i < 20; i++) {
                handedOver = prepared("message " + i, ROOM);
                o.engine("a").sendPrepared(8, NodeId.ofName("b"), 7, handedOver, RoutingMetric.HOPS, o.now());
                o.runFor(5 * MS);
            }
            assertThat(delivered).hasSize(20).endsWith("message 19");
            assertThat(sameBufferAtSocket).as("datagrams sealed in the buffer they came in").isEqualTo(20);
        }
    }

    @Test
    void aDatagramWithoutRoomOrSharedWithAnotherHolderGetsABufferOfItsOwn() {
        try (VirtualOverlay o = linkedPair()) {
            // no room for the tag (the buffer's capacity is fixed): a new buffer
            handedOver = prepared("tight", 0);
            o.engine("a").sendPrepared(8, NodeId.ofName("b"), 7, handedOver, RoutingMetric.HOPS, o.now());
            o.runFor(5 * MS);
            // a view of a packet someone keeps (as a queue keeps one to resend it): never written over
            ByteBuf kept = prepared("kept", ROOM);
            handedOver = kept.retainedDuplicate();
            o.engine("a").sendPrepared(8, NodeId.ofName("b"), 7, handedOver, RoutingMetric.HOPS, o.now());
            o.runFor(5 * MS);
            try {
                assertThat(delivered).containsExactly("tight", "kept");
                assertThat(sameBufferAtSocket).isZero();
                byte[] text = new byte[4];
                kept.getBytes(NodeStack.PREPARED_HEADROOM, text);
                assertThat(new String(text, StandardCharsets.US_ASCII)).as("the kept packet's payload").isEqualTo("kept");
                assertThat(kept.readableBytes()).isEqualTo(NodeStack.PREPARED_HEADROOM + 4);
            } finally {
                kept.release();
            }
        }
    }

    @Test
    void heapCompositeAndSharedBuffersAreNotReusable() {
        ByteBuf direct = ByteBufAllocator.DEFAULT.directBuffer(64, 64).writerIndex(10);
        ByteBuf heap = Unpooled.buffer(64, 64).writerIndex(10);
        ByteBuf composite = Unpooled.compositeBuffer().addComponent(true, Unpooled.directBuffer(64, 64).writerIndex(10));
        try {
            assertThat(InPlace.reusable(direct, 10 + ROOM)).isTrue();
            assertThat(InPlace.reusable(direct, 64 + 1)).as("more than its capacity").isFalse();
            assertThat(InPlace.reusable(heap, 10 + ROOM)).isFalse();
            assertThat(InPlace.reusable(composite, 10 + ROOM)).isFalse();
            ByteBuf view = direct.retainedSlice(0, 10);
            try {
                assertThat(InPlace.reusable(direct, 10 + ROOM)).as("while another holds a view").isFalse();
            } finally {
                view.release();
            }
            assertThat(InPlace.reusable(direct.asReadOnly(), 10)).isFalse();
        } finally {
            direct.release();
            heap.release();
            composite.release();
        }
    }
}
