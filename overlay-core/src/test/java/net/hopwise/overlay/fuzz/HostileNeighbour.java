package net.hopwise.overlay.fuzz;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.link.HelloCodec;
import net.hopwise.overlay.link.HelloConfig;
import net.hopwise.overlay.link.HelloPacket;
import net.hopwise.overlay.link.LinkMonitor;
import net.hopwise.overlay.link.LinkMonitorOutput;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * A configured neighbour of the target that plays the hello protocol by the book, with the
 * production {@link LinkMonitor}, so the target admits it and keeps it up, and then sends
 * {@link HostilePackets}. It listens to the target's floods to place forged sequence numbers around
 * the real ones.
 *
 * <p>Sans-IO and in byte arrays, so the virtual-time test and the loopback run drive the same code.
 */
public final class HostileNeighbour {
    private final long attackerId;
    private final long targetId;
    private final LinkMonitor monitor;
    private final HostilePackets packets;
    private final List<byte[]> outbox = new ArrayList<>();
    private long linkSequence = 1;

    public HostileNeighbour(long seed, String attackerName, String targetName, String[] realNames, long maxAgeMillis,
            int[] openPorts, long nowNanos) {
        this.attackerId = NodeId.ofName(attackerName).value();
        this.targetId = NodeId.ofName(targetName).value();
        this.packets = new HostilePackets(seed, attackerName, targetName, realNames, maxAgeMillis, openPorts);
        this.monitor = new LinkMonitor(NodeId.ofName(attackerName), attackerName, NodeId.ofName(targetName),
                HelloConfig.defaults(), new Hellos(), nowNanos);
    }

    /** The generator behind {@link #attack}. */
    public HostilePackets packets() {
        return packets;
    }

    /** Whether the hello exchange has brought the link up: the target then takes our packets as a neighbour's. */
    public boolean admitted() {
        return monitor.status() == LinkStatus.UP;
    }

    /** Hellos that are due (possibly none). */
    public List<byte[]> onTimer(long nowNanos) {
        monitor.onTimer(nowNanos);
        return drain();
    }

    public long nextDeadlineNanos() {
        return monitor.nextDeadlineNanos();
    }

    /** A datagram from the target; returns what the hello protocol answers at once. */
    public List<byte[]> onDatagram(byte[] datagram, long nowNanos) {
        ByteBuf d = Unpooled.wrappedBuffer(datagram);
        if (WireHeader.check(d) != null || WireHeader.sender(d) != targetId) {
            return List.of();
        }
        if (WireHeader.type(d) == PacketType.HELLO) {
            HelloPacket hello = HelloCodec.decode(WireHeader.body(d));
            if (hello != null) {
                monitor.onPacketReceived(WireHeader.linkSequence(d), nowNanos);
                monitor.onHello(hello, nowNanos);
            }
        } else {
            monitor.onPacketReceived(WireHeader.linkSequence(d), nowNanos);
            packets.learnFrom(datagram);
        }
        return drain();
    }

    /** The next hostile datagram. */
    public byte[] attack(long nowNanos) {
        return packets.next(nowNanos);
    }

    private List<byte[]> drain() {
        if (outbox.isEmpty()) {
            return List.of();
        }
        List<byte[]> out = List.copyOf(outbox);
        outbox.clear();
        return out;
    }

    private final class Hellos implements LinkMonitorOutput {
        @Override
        public void sendHello(HelloPacket hello) {
            ByteBuf out = Unpooled.buffer(WireHeader.LENGTH + HelloCodec.MAX_LENGTH);
            WireHeader.write(out, PacketType.HELLO, 0, attackerId, targetId, linkSequence++);
            HelloCodec.encode(hello, out);
            WireHeader.finish(out, 0);
            byte[] bytes = new byte[out.readableBytes()];
            out.getBytes(0, bytes);
            outbox.add(bytes);
        }

        @Override
        public void linkUp(long nowNanos) {}

        @Override
        public void linkDown(long nowNanos) {}

        @Override
        public void qualityChanged(long nowNanos) {}
    }
}
