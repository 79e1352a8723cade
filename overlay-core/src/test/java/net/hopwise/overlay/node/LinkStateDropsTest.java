package net.hopwise.overlay.node;

import static net.hopwise.overlay.node.TwoNodeWire.A;
import static net.hopwise.overlay.node.TwoNodeWire.B;
import static net.hopwise.overlay.node.TwoNodeWire.MS;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.LinkStateAdvertisement;
import net.hopwise.overlay.routing.LinkStateCodec;
import net.hopwise.overlay.routing.LinkStateUpdate;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What routing refuses shows in the node's drop counters, and the node carries on. */
class LinkStateDropsTest {
    private final TwoNodeWire wire = new TwoNodeWire();

    @AfterEach
    void close() {
        wire.close();
    }

    @Test
    void aForgedCopyOfTheNodesOwnAdvertisementAtTheTopOfTheSequenceSpaceIsCountedAndChangesNothing() {
        wire.runFor(2_000 * MS);
        long before = wire.a.router().database().get(NodeId.ofName("a")).orElseThrow().sequence();

        LinkStateAdvertisement forged = new LinkStateAdvertisement(NodeId.ofName("a"), "a", Long.MAX_VALUE, 0, List.of());
        ByteBuf datagram = Unpooled.buffer(WireHeader.MAX_DATAGRAM);
        WireHeader.write(datagram, PacketType.LINK_STATE_UPDATE, 0, NodeId.ofName("b").value(),
                NodeId.ofName("a").value(), 1_000);
        LinkStateCodec.encodeUpdate(new LinkStateUpdate(List.of(forged)), datagram);
        WireHeader.finish(datagram, 0);
        wire.inject(B, A, datagram);
        wire.runFor(2_000 * MS);

        assertThat(wire.a.counters().drops(DropReason.LINK_STATE_LIMIT)).isEqualTo(1);
        assertThat(wire.a.counters().drops(DropReason.HANDLER_ERROR)).isZero();
        long after = wire.a.router().database().get(NodeId.ofName("a")).orElseThrow().sequence();
        assertThat(after).isGreaterThanOrEqualTo(before).isLessThan(Long.MAX_VALUE / 2);
        assertThat(wire.b.router().database().get(NodeId.ofName("a")).orElseThrow().sequence()).isEqualTo(after);
        assertThat(wire.b.router().nextHop(NodeId.ofName("a"), RoutingMetric.HOPS)).isEqualTo(NodeId.ofName("a"));
    }
}
