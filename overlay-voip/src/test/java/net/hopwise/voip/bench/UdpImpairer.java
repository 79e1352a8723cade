package net.hopwise.voip.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.impair.ImpairmentModel;

/**
 * A plain UDP forwarder between two media relays on loopback that impairs what it carries with the
 * overlay's own loss model ({@link ImpairmentModel}), so that Kamailio and rtpengine sites cross the same
 * lossy path as two Hopwise relays whose overlay link is impaired.
 *
 * <p>Each site's relay advertises a "face" address of the forwarder instead of its own towards the other
 * site (rtpengine's {@code --interface=NAME/LOCAL!ADVERTISED}). A datagram that site A sends from its port
 * q to B's face at port p leaves A's face from port q towards B's own address at port p, and the reverse:
 * each site sees the other at exactly the address and port it advertised, so latching and symmetric RTP
 * work as without the forwarder. That needs a socket on each face for every port of the other site's
 * range.
 *
 * <pre>
 * java -cp ... net.hopwise.voip.bench.UdpImpairer SITE_A_IP FACE_OF_A_IP SITE_B_IP FACE_OF_B_IP PORT_MIN PORT_MAX \
 *     LOSS DELAY_MS SEED
 * </pre>
 *
 * Runs until killed (SIGTERM), then prints what it forwarded and dropped each way.
 */
public final class UdpImpairer {
    private record Pending(long due, long order, DatagramChannel out, InetSocketAddress to, byte[] data) {}

    private final Map<DatagramChannel, Face> faces = new HashMap<>();
    private final PriorityQueue<Pending> queue = new PriorityQueue<>((x, y) -> x.due != y.due
            ? Long.compare(x.due, y.due) : Long.compare(x.order, y.order));
    private long order;

    /** A socket of one face: where what it receives goes, and through which model. */
    private record Face(InetAddress towards, Map<Integer, DatagramChannel> otherFace, ImpairmentModel model,
            long[] counts) {}

    public static void main(String[] args) throws IOException {
        if (args.length != 9) {
            System.err.println("usage: UdpImpairer SITE_A_IP FACE_OF_A_IP SITE_B_IP FACE_OF_B_IP PORT_MIN PORT_MAX"
                    + " LOSS DELAY_MS SEED");
            System.exit(2);
        }
        InetAddress siteA = InetAddress.getByName(args[0]);
        InetAddress faceOfA = InetAddress.getByName(args[1]);
        InetAddress siteB = InetAddress.getByName(args[2]);
        InetAddress faceOfB = InetAddress.getByName(args[3]);
        int min = Integer.parseInt(args[4]);
        int max = Integer.parseInt(args[5]);
        ImpairmentConfig impairment = ImpairmentConfig.builder().bernoulliLoss(Double.parseDouble(args[6]))
                .delay(Duration.ofMillis(Long.parseLong(args[7]))).build();
        long seed = Long.parseLong(args[8]);
        new UdpImpairer().run(siteA, faceOfA, siteB, faceOfB, min, max, impairment, seed);
    }

    private void run(InetAddress siteA, InetAddress faceOfA, InetAddress siteB, InetAddress faceOfB, int min, int max,
            ImpairmentConfig impairment, long seed) throws IOException {
        Selector selector = Selector.open();
        Map<Integer, DatagramChannel> onFaceOfA = new HashMap<>();
        Map<Integer, DatagramChannel> onFaceOfB = new HashMap<>();
        long[] aToB = new long[2];
        long[] bToA = new long[2];
        // B's face receives what A sends towards B; it leaves from A's face towards B.
        ImpairmentModel towardsB = new ImpairmentModel(impairment, seed);
        ImpairmentModel towardsA = new ImpairmentModel(impairment, seed + 1);
        for (int port = min; port <= max; port++) {
            onFaceOfA.put(port, open(faceOfA, port, selector));
            onFaceOfB.put(port, open(faceOfB, port, selector));
        }
        onFaceOfB.values().forEach(c -> faces.put(c, new Face(siteB, onFaceOfA, towardsB, aToB)));
        onFaceOfA.values().forEach(c -> faces.put(c, new Face(siteA, onFaceOfB, towardsA, bToA)));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.printf(Locale.ROOT,
                "IMPAIRER a-to-b forwarded=%d dropped=%d b-to-a forwarded=%d dropped=%d (%s, seed %d)%n", aToB[0],
                aToB[1], bToA[0], bToA[1], impairment, seed)));
        System.out.println("READY impairer " + (max - min + 1) + " ports on " + faceOfA.getHostAddress() + " and "
                + faceOfB.getHostAddress());
        System.out.flush();
        ByteBuffer buffer = ByteBuffer.allocate(65536);
        long[] departures = new long[2];
        while (true) {
            if (queue.isEmpty()) {
                selector.select();
            } else {
                long remaining = queue.peek().due - System.nanoTime();
                if (remaining <= 0) {
                    selector.selectNow();
                } else {
                    selector.select(Math.max(1, (remaining + 999_999) / 1_000_000));
                }
            }
            for (SelectionKey key : selector.selectedKeys()) {
                DatagramChannel in = (DatagramChannel) key.channel();
                Face face = faces.get(in);
                InetSocketAddress from;
                while ((from = (InetSocketAddress) in.receive(buffer.clear())) != null) {
                    DatagramChannel out = face.otherFace.get(from.getPort());
                    if (out == null) {
                        continue;
                    }
                    byte[] data = new byte[buffer.flip().remaining()];
                    buffer.get(data);
                    long now = System.nanoTime();
                    int n = face.model.admit(data.length, now, departures);
                    face.counts[n == 0 ? 1 : 0]++;
                    InetSocketAddress to = new InetSocketAddress(face.towards,
                            ((InetSocketAddress) in.getLocalAddress()).getPort());
                    for (int i = 0; i < n; i++) {
                        queue.add(new Pending(departures[i], order++, out, to, data));
                    }
                }
            }
            selector.selectedKeys().clear();
            long now = System.nanoTime();
            while (!queue.isEmpty() && queue.peek().due <= now) {
                Pending p = queue.poll();
                p.out.send(ByteBuffer.wrap(p.data), p.to);
            }
        }
    }

    private static DatagramChannel open(InetAddress address, int port, Selector selector) throws IOException {
        DatagramChannel channel = DatagramChannel.open();
        channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        channel.bind(new InetSocketAddress(address, port));
        channel.configureBlocking(false);
        channel.register(selector, SelectionKey.OP_READ);
        return channel;
    }
}
