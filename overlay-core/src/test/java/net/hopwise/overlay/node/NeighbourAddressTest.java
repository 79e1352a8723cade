package net.hopwise.overlay.node;

import static net.hopwise.overlay.node.TwoNodeWire.A;
import static net.hopwise.overlay.node.TwoNodeWire.B;
import static net.hopwise.overlay.node.TwoNodeWire.MS;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.util.List;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Where a node sends to a neighbour: it follows a neighbour that moved only on proof that the hello
 * from the new address is live, never on a replay; it goes back to the configured address when the
 * moved-to one falls silent; and it tells listeners each time.
 */
class NeighbourAddressTest {
    private static final InetSocketAddress ATTACKER = new InetSocketAddress("127.0.0.66", 6666);
    private static final InetSocketAddress B_REBOUND = new InetSocketAddress("127.0.0.1", 20_002);

    private final TwoNodeWire wire = new TwoNodeWire();

    @AfterEach
    void close() {
        wire.close();
    }

    private Neighbour bAtA() {
        return wire.a.neighbour(NodeId.ofName("b"));
    }

    private ByteBuf firstHelloOfB() {
        return wire.sentByB.stream().filter(d -> WireHeader.type(d) == PacketType.HELLO).findFirst().orElseThrow();
    }

    @Test
    void replayedHellosFromAnotherAddressDoNotMoveTheNeighbour() {
        wire.runFor(2_000 * MS);
        assertThat(bAtA().status()).isEqualTo(LinkStatus.UP);
        ByteBuf stale = firstHelloOfB();

        // Two replays of a genuine but old hello of b, from a third party's address.
        wire.inject(ATTACKER, A, stale.copy());
        wire.runFor(10 * MS);
        wire.inject(ATTACKER, A, stale.copy());
        wire.runFor(2_000 * MS);

        assertThat(bAtA().address()).isEqualTo(B);
        assertThat(bAtA().status()).isEqualTo(LinkStatus.UP);
        assertThat(wire.a.counters().drops(DropReason.UNVERIFIED_HELLO)).isEqualTo(2);
        assertThat(wire.events(NodeEvent.Kind.ADDRESS_CHANGED)).isEmpty();
        // The replays were answered with one probe hello (one per hello interval at most), no more.
        List<ByteBuf> toAttacker = wire.sentByA.getOrDefault(ATTACKER, List.of());
        assertThat(toAttacker).hasSize(1);
        assertThat(WireHeader.type(toAttacker.get(0))).isEqualTo(PacketType.HELLO);
    }

    @Test
    void packetsOtherThanHellosFromAnotherAddressAreDropped() {
        wire.runFor(2_000 * MS);
        ByteBuf update = wire.sentByB.stream().filter(d -> WireHeader.type(d) == PacketType.LINK_STATE_UPDATE)
                .findFirst().orElseThrow();
        wire.inject(ATTACKER, A, update.copy());
        wire.runFor(10 * MS);
        assertThat(wire.a.counters().drops(DropReason.WRONG_ADDRESS)).isEqualTo(1);
    }

    @Test
    void aNeighbourThatReallyMovedIsFollowedAndTheMoveIsReported() {
        wire.runFor(2_000 * MS);
        wire.bAddress = B_REBOUND; // a NAT rebinding: b's packets now come from, and reach it at, another port
        wire.runFor(1_000 * MS);

        assertThat(bAtA().address()).isEqualTo(B_REBOUND);
        assertThat(bAtA().status()).isEqualTo(LinkStatus.UP);
        List<NodeEvent> moves = wire.events(NodeEvent.Kind.ADDRESS_CHANGED);
        assertThat(moves).hasSize(1);
        assertThat(moves.get(0).peer()).isEqualTo("b");
        assertThat(moves.get(0).detail()).contains(B.toString()).contains(B_REBOUND.toString());
        // The move took one probe round, not a link outage.
        assertThat(wire.events(NodeEvent.Kind.LINK_DOWN)).isEmpty();
    }

    @Test
    void aMovedNeighbourThatFallsSilentIsLookedForAtItsConfiguredAddressAgain() {
        wire.runFor(2_000 * MS);
        wire.bAddress = B_REBOUND;
        wire.runFor(1_000 * MS);
        assertThat(bAtA().address()).isEqualTo(B_REBOUND);

        wire.bSilent = true;
        long dead = wire.a.config().hello().deadInterval().toNanos();
        wire.runFor(dead + 200 * MS);
        assertThat(bAtA().status()).isEqualTo(LinkStatus.DOWN);
        assertThat(bAtA().address()).isEqualTo(B);
        assertThat(wire.events(NodeEvent.Kind.ADDRESS_CHANGED)).hasSize(2);

        // b comes back where it was configured: the link comes up without any proof round.
        wire.bAddress = B;
        wire.bSilent = false;
        wire.runFor(2_000 * MS);
        assertThat(bAtA().status()).isEqualTo(LinkStatus.UP);
        assertThat(bAtA().address()).isEqualTo(B);
    }
}
