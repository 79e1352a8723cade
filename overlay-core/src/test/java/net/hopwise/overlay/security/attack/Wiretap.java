package net.hopwise.overlay.security.attack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * An attacker on the path between two nodes on loopback: a UDP relay that each node knows as the
 * other's address. It keeps a copy of every datagram, can withhold some, and can send from either
 * side, so that what it sends to a node comes from the address the node knows its neighbour by, as
 * an on-path attacker (or one that spoofs the neighbour's address) can.
 */
final class Wiretap implements AutoCloseable {
    /** One datagram the relay saw, and which way it went. */
    record Captured(boolean towardsB, byte[] bytes) {
        int type() {
            return bytes.length == 0 ? -1 : bytes[0] & 0xFF;
        }
    }

    final ConcurrentLinkedQueue<Captured> captured = new ConcurrentLinkedQueue<>();
    private final DatagramChannel sideA;
    private final DatagramChannel sideB;
    private final Thread fromA;
    private final Thread fromB;
    private volatile InetSocketAddress a;
    private volatile InetSocketAddress b;
    private volatile Predicate<Captured> withhold = c -> false;
    private volatile Consumer<Captured> listener = c -> { };

    Wiretap() throws IOException {
        // Floods pass through the relay: a node's socket has megabytes of buffer, so the relay's must too.
        sideA = DatagramChannel.open().setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20)
                .bind(new InetSocketAddress("127.0.0.1", 0));
        sideB = DatagramChannel.open().setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20)
                .bind(new InetSocketAddress("127.0.0.1", 0));
        fromA = new Thread(() -> pump(sideA, true), "wiretap-from-a");
        fromB = new Thread(() -> pump(sideB, false), "wiretap-from-b");
        fromA.setDaemon(true);
        fromB.setDaemon(true);
    }

    /** Starts relaying between the two nodes' sockets. */
    void between(InetSocketAddress nodeA, InetSocketAddress nodeB) {
        a = loopback(nodeA);
        b = loopback(nodeB);
        fromA.start();
        fromB.start();
    }

    /** Where the relay sends what b sends: a restarted a listens elsewhere. */
    void retargetA(InetSocketAddress nodeA) {
        a = loopback(nodeA);
    }

    void retargetB(InetSocketAddress nodeB) {
        b = loopback(nodeB);
    }

    /** Where a sends to reach b, and where b's datagrams from "a" come from. */
    InetSocketAddress forA() throws IOException {
        return (InetSocketAddress) sideA.getLocalAddress();
    }

    /** Where b sends to reach a: the address b knows a by. */
    InetSocketAddress forB() throws IOException {
        return (InetSocketAddress) sideB.getLocalAddress();
    }

    /** Datagrams the relay keeps to itself from now on (still captured and heard by the listener). */
    void withhold(Predicate<Captured> which) {
        withhold = which;
    }

    /** Hears every datagram as it passes (on the relay's threads). */
    void listen(Consumer<Captured> l) {
        listener = l;
    }

    /** Sends to b from the address b knows a by. */
    void sendToB(byte[] d) throws IOException {
        sideB.send(ByteBuffer.wrap(d), b);
    }

    /** Sends to a from the address a knows b by. */
    void sendToA(byte[] d) throws IOException {
        sideA.send(ByteBuffer.wrap(d), a);
    }

    List<Captured> snapshot() {
        return List.copyOf(captured);
    }

    private static InetSocketAddress loopback(InetSocketAddress node) {
        return new InetSocketAddress("127.0.0.1", node.getPort());
    }

    private void pump(DatagramChannel in, boolean towardsB) {
        ByteBuffer buf = ByteBuffer.allocate(65_536);
        while (in.isOpen()) {
            try {
                buf.clear();
                SocketAddress from = in.receive(buf);
                if (from == null) {
                    continue;
                }
                buf.flip();
                byte[] copy = new byte[buf.remaining()];
                buf.get(copy);
                Captured c = new Captured(towardsB, copy);
                captured.add(c);
                listener.accept(c);
                if (!withhold.test(c)) {
                    // b knows a by sideB's address, a knows b by sideA's
                    (towardsB ? sideB : sideA).send(ByteBuffer.wrap(copy), towardsB ? b : a);
                }
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    @Override
    public void close() throws Exception {
        sideA.close();
        sideB.close();
        fromA.join(5_000);
        fromB.join(5_000);
    }
}
