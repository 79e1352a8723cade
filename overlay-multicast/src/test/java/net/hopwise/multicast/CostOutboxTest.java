package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import org.junit.jupiter.api.Test;

/** Cost updates ride on the packets crossing a link, and go on their own only over a link idle for T_update. */
class CostOutboxTest {
    private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;
    private static final long MS = 1_000_000L;
    private static final long T_UPDATE = 50 * MS;
    private static final NodeId PEER = NodeId.ofName("peer");
    private static final NodeId ORIGIN = NodeId.ofName("origin");
    private static final NodeId X = NodeId.ofName("x");
    private static final NodeId Y = NodeId.ofName("y");

    private final List<CostUpdate> alone = new ArrayList<>();
    private final CostOutbox outbox = new CostOutbox(T_UPDATE, ALLOC, (n, u) -> alone.add(u));

    private static CostUpdate update(int sequence, NodeId link, float cost) {
        return new CostUpdate(ORIGIN, sequence, List.of(new CostUpdate.Link(link, cost)));
    }

    /** What rode on a packet: the length in front, then the updates back to back. */
    private static List<CostUpdate> read(ByteBuf carried) {
        try {
            assertThat(carried.getUnsignedShort(0)).isEqualTo(carried.readableBytes() - ChannelAck.CARRIED_HEADER);
            return CostUpdate.decodeAll(carried.slice(ChannelAck.CARRIED_HEADER,
                    carried.readableBytes() - ChannelAck.CARRIED_HEADER));
        } finally {
            carried.release();
        }
    }

    @Test
    void anUpdateWaitsForThePacketsOfABusyLinkAndRidesOnTheNext() {
        assertThat(outbox.take(PEER, 500, 0)).as("nothing waits yet").isNull();
        outbox.queue(PEER, update(1, X, 3f), 10 * MS);
        assertThat(alone).isEmpty();
        assertThat(outbox.nextDeadlineNanos()).as("on its own only after T_update without a carrier").isEqualTo(T_UPDATE);
        assertThat(read(outbox.take(PEER, 500, 12 * MS))).containsExactly(update(1, X, 3f));
        assertThat(outbox.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(outbox.carriedBytes(PEER)).isEqualTo(ChannelAck.CARRIED_HEADER + CostUpdate.HEADER + CostUpdate.ENTRY);
        assertThat(outbox.standalone(PEER)).isZero();
    }

    @Test
    void overALinkIdleForTUpdateAnUpdateGoesAtOnceOnItsOwn() {
        outbox.queue(PEER, update(1, X, 3f), 0);
        assertThat(alone).containsExactly(update(1, X, 3f));
        outbox.take(PEER, 500, 10 * MS);
        outbox.queue(PEER, update(2, X, 4f), 10 * MS + T_UPDATE);
        assertThat(alone).hasSize(2);
        assertThat(outbox.standalone(PEER)).isEqualTo(2);
    }

    @Test
    void anUpdateThatFoundNoCarrierGoesOnItsOwnWhenTheLinkFellIdle() {
        outbox.take(PEER, 500, 0);
        outbox.queue(PEER, update(1, X, 3f), 30 * MS);
        outbox.onTimer(T_UPDATE - 1);
        assertThat(alone).isEmpty();
        outbox.onTimer(T_UPDATE);
        assertThat(alone).containsExactly(update(1, X, 3f));
        assertThat(outbox.take(PEER, 500, T_UPDATE + MS)).as("sent already").isNull();
    }

    @Test
    void aNewerUpdateOfAnOriginStillWaitingIsMergedIntoIt() {
        outbox.take(PEER, 500, 0);
        outbox.queue(PEER, new CostUpdate(ORIGIN, 1, List.of(new CostUpdate.Link(X, 3f), new CostUpdate.Link(Y, 0f))), MS);
        outbox.queue(PEER, update(2, X, 5f), 2 * MS);
        // What the neighbour ends with after both: X at 5 from the later, Y back to 0 from the earlier.
        assertThat(read(outbox.take(PEER, 500, 3 * MS))).containsExactly(
                new CostUpdate(ORIGIN, 2, List.of(new CostUpdate.Link(X, 5f), new CostUpdate.Link(Y, 0f))));
    }

    @Test
    void aPacketWithoutRoomCarriesNothingAndTheUpdateWaitsForTheNext() {
        outbox.take(PEER, 500, 0);
        outbox.queue(PEER, update(1, X, 3f), MS);
        assertThat(outbox.take(PEER, ChannelAck.CARRIED_HEADER + CostUpdate.HEADER, 2 * MS)).isNull();
        assertThat(read(outbox.take(PEER, 100, 3 * MS))).hasSize(1);
    }

    @Test
    void packetsWithoutRoomDoNotKeepUpdatesWaiting() {
        outbox.take(PEER, 500, 0);
        // Only full packets cross from here on: they carry nothing, so the link counts as idle.
        outbox.take(PEER, CostUpdate.HEADER, 40 * MS);
        outbox.queue(PEER, update(1, X, 3f), T_UPDATE);
        assertThat(alone).containsExactly(update(1, X, 3f));
    }

    @Test
    void anUpdateTooLargeForTheCarriersOfABusyLinkGoesOnItsOwnAfterTUpdateWithTheLaterOnesMergedIn() {
        List<CostUpdate.Link> links = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            links.add(new CostUpdate.Link(NodeId.ofName("n" + i), 0f));
        }
        CostUpdate large = new CostUpdate(ORIGIN, 1, List.copyOf(links));
        int fullPacketRoom = 132;
        assertThat(large.size()).isGreaterThan(fullPacketRoom - ChannelAck.CARRIED_HEADER);
        NodeId small = NodeId.ofName("small");
        CostUpdate other = new CostUpdate(small, 7, List.of(new CostUpdate.Link(X, 2f)));

        outbox.take(PEER, 500, 0);
        outbox.queue(PEER, large, MS);
        // Full packets cross every 5 ms: each has room, none enough for the large update.
        for (long t = 5 * MS; t < MS + T_UPDATE; t += 5 * MS) {
            if (t == 20 * MS) {
                outbox.queue(PEER, update(2, X, 3f), t);
                outbox.queue(PEER, other, t);
            }
            ByteBuf carried = outbox.take(PEER, fullPacketRoom, t);
            if (t == 20 * MS) {
                assertThat(read(carried)).as("an update that fits still rides").containsExactly(other);
            } else {
                assertThat(carried).isNull();
            }
            outbox.onTimer(t);
        }
        assertThat(alone).isEmpty();
        assertThat(outbox.nextDeadlineNanos()).as("T_update after it began to wait, carriers or not")
                .isEqualTo(MS + T_UPDATE);
        outbox.onTimer(MS + T_UPDATE);
        List<CostUpdate.Link> merged = new ArrayList<>(links);
        merged.add(new CostUpdate.Link(X, 3f));
        assertThat(alone).containsExactly(new CostUpdate(ORIGIN, 2, merged));
        assertThat(outbox.standalone(PEER)).isEqualTo(1);
        assertThat(outbox.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(outbox.take(PEER, 500, MS + T_UPDATE + MS)).as("sent already").isNull();
    }

    @Test
    void updatesThatFitAPacketButFoundItsRoomTakenRideOnLaterOnesEvenAfterTUpdate() {
        int fullPacketRoom = 132;
        int perPacket = (fullPacketRoom - ChannelAck.CARRIED_HEADER) / (CostUpdate.HEADER + CostUpdate.ENTRY);
        int origins = 10 * perPacket;
        outbox.take(PEER, 500, 0);
        for (int i = 0; i < origins; i++) {
            outbox.queue(PEER, new CostUpdate(NodeId.ofName("o" + i), 1, List.of(new CostUpdate.Link(X, 1f))), MS);
        }
        // One full packet every 10 ms: the last of them rides 100 ms on, twice T_update.
        int rode = 0;
        for (long t = 10 * MS; rode < origins; t += 10 * MS) {
            outbox.onTimer(t);
            rode += read(outbox.take(PEER, fullPacketRoom, t)).size();
            if (rode < origins) {
                assertThat(outbox.nextDeadlineNanos()).as("none waits for want of room").isEqualTo(t + T_UPDATE);
            }
        }
        assertThat(alone).isEmpty();
        assertThat(outbox.standalone(PEER)).isZero();
    }

    @Test
    void eachNeighbourHasItsOwnQueueAndAGoneLinkDropsIt() {
        NodeId other = NodeId.ofName("other");
        outbox.take(PEER, 500, 0);
        outbox.take(other, 500, 0);
        outbox.queue(PEER, update(1, X, 3f), MS);
        outbox.queue(other, update(1, X, 3f), MS);
        outbox.forget(other);
        assertThat(outbox.nextDeadlineNanos()).isEqualTo(T_UPDATE);
        assertThat(read(outbox.take(PEER, 500, 2 * MS))).hasSize(1);
        assertThat(outbox.take(other, 500, 2 * MS)).isNull();
        assertThat(outbox.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
    }
}
