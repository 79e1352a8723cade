package net.hopwise.examples.fairness;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;
import net.hopwise.examples.reliable.BenchmarkSection;

/**
 * The bottleneck's wire in {@link LayeredTcpBenchmark}, run inside the receivers' namespace: it
 * takes the VXLAN datagrams the middle namespace's tunnel sends it (each an Ethernet frame that
 * has just left the token bucket), and hands each on to the namespace's own VXLAN endpoint when a
 * {@link SerialisingWire} of the bucket's rate would deliver it. Nothing is dropped here: the
 * bucket in front paces the frames at the same rate, so at most a frame or two waits. Each frame's
 * TCP or UDP checksum is completed on the way ({@link InnerChecksum}).
 *
 * <p>Arguments: {@code --listen ADDRESS:PORT}, {@code --to ADDRESS:PORT}, {@code --rate-bps},
 * {@code --propagation-ms}. Prints {@code @ready} once it listens, then runs until ended.
 */
public final class WireRelay {
    /** A VXLAN datagram carries this header in front of the Ethernet frame the bucket counted. */
    static final int VXLAN_HEADER = 8;

    private record Held(ByteBuffer datagram, long deliverAtNanos) {}

    private WireRelay() {}

    public static void main(String[] args) throws Exception {
        InetSocketAddress listen = address(BenchmarkSection.argument(args, "--listen", ""));
        InetSocketAddress to = address(BenchmarkSection.argument(args, "--to", ""));
        long rate = Long.parseLong(BenchmarkSection.argument(args, "--rate-bps", "2000000"));
        double propagationMs = Double.parseDouble(BenchmarkSection.argument(args, "--propagation-ms", "0.1"));
        SerialisingWire wire = new SerialisingWire(rate, Math.round(propagationMs * 1e6));
        DatagramChannel channel = DatagramChannel.open().bind(listen);
        LinkedBlockingQueue<Held> held = new LinkedBlockingQueue<>();
        Thread out = new Thread(() -> {
            try {
                while (true) {
                    Held h = held.take();
                    long left;
                    while ((left = h.deliverAtNanos() - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(left);
                    }
                    channel.send(h.datagram(), to);
                }
            } catch (InterruptedException | java.io.IOException e) {
                // The run ended.
            }
        }, "wire-out");
        out.setDaemon(true);
        out.start();
        FairnessPeer.reply("ready", java.util.Map.of());
        ByteBuffer buffer = ByteBuffer.allocate(65536);
        while (true) {
            buffer.clear();
            channel.receive(buffer);
            long now = System.nanoTime();
            buffer.flip();
            int frame = Math.max(0, buffer.remaining() - VXLAN_HEADER);
            ByteBuffer copy = ByteBuffer.allocate(buffer.remaining()).put(buffer).flip();
            InnerChecksum.complete(copy, VXLAN_HEADER);
            held.add(new Held(copy, wire.deliverAt(now, frame)));
        }
    }

    private static InetSocketAddress address(String hostPort) throws java.net.UnknownHostException {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("expected ADDRESS:PORT, got '" + hostPort + "'");
        }
        return new InetSocketAddress(InetAddress.getByName(hostPort.substring(0, colon)),
                Integer.parseInt(hostPort.substring(colon + 1)));
    }
}
