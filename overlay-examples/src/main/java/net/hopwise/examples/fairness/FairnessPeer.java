package net.hopwise.examples.fairness;

import io.netty.buffer.ByteBuf;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import net.hopwise.examples.reliable.BenchmarkSection;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.ReliableSession;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.link.LinkStatistics;
import net.hopwise.overlay.node.Neighbour;
import net.hopwise.overlay.reliable.ReliableLinkConfig;
import net.hopwise.overlay.reliable.ReliableLinkStatistics;
import net.hopwise.overlay.session.SessionStatistics;

/**
 * One end of the fairness benchmark, run by {@link FairnessBenchmark} inside a network namespace:
 * an overlay node with one neighbour and a plain TCP endpoint, both with the default settings.
 *
 * <p>The {@code sender} starts a reliable session to the receiver and a TCP connection when told
 * to, and offers each as much as it takes: the session 1000-byte messages until it is
 * back-pressured, TCP a large buffer per write. The {@code receiver} accepts the session and the
 * connection and counts what they deliver, checking that the session's messages arrive in order.
 *
 * <p>It takes one command per line on standard input and answers each with one line on standard
 * output that starts with {@code @} and carries {@code key=value} fields ({@code @error} when the
 * command failed); anything else on standard output is not for the benchmark.
 * Sender: {@code overlay}, {@code tcp}, {@code stats}, {@code quit}. Receiver: {@code sample},
 * {@code quit}. Both print {@code @ready} once they can take commands.
 */
public final class FairnessPeer {
    /** UDP port of both overlay nodes (each in its own namespace). */
    static final int OVERLAY_PORT = NodeConfig.DEFAULT_PORT;
    /** Session port at both ends. */
    static final int SESSION_PORT = 7;
    static final String SENDER = "left";
    static final String RECEIVER = "right";
    /** UDP, IPv4 and Ethernet headers around an overlay datagram on the veth. */
    static final int UDP_FRAMING_BYTES = 8 + 20 + 14;

    private FairnessPeer() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || !(args[0].equals("sender") || args[0].equals("receiver"))) {
            System.err.println("usage: FairnessPeer sender|receiver --bind ADDRESS --peer ADDRESS [--tcp-port P]"
                    + " [--message BYTES]");
            System.exit(2);
        }
        InetAddress bind = InetAddress.getByName(BenchmarkSection.argument(args, "--bind", "127.0.0.1"));
        InetAddress peer = InetAddress.getByName(BenchmarkSection.argument(args, "--peer", "127.0.0.1"));
        int tcpPort = Integer.parseInt(BenchmarkSection.argument(args, "--tcp-port", "5001"));
        int message = Integer.parseInt(BenchmarkSection.argument(args, "--message", "1000"));
        boolean sender = args[0].equals("sender");
        String self = sender ? SENDER : RECEIVER;
        String other = sender ? RECEIVER : SENDER;
        OverlayNode node = OverlayNode.start(NodeConfig.builder(self)
                .bindAddress(new InetSocketAddress(bind, OVERLAY_PORT))
                .neighbour(other, new InetSocketAddress(peer, OVERLAY_PORT))
                .build());
        try {
            if (sender) {
                new Sender(node, new InetSocketAddress(peer, tcpPort), message).serve();
            } else {
                new Receiver(node, new InetSocketAddress(bind, tcpPort)).serve();
            }
        } finally {
            node.stop();
        }
        System.exit(0);
    }

    static void reply(String name, Map<String, ?> fields) {
        StringBuilder line = new StringBuilder("@").append(name);
        fields.forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }

    /** Runs commands from standard input until {@code quit} or its end. */
    interface Commands {
        /** Answers one command; false to stop. */
        boolean handle(String command) throws Exception;

        default void serve() throws IOException {
            reply("ready", Map.of());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                String command = line.strip();
                try {
                    if (!handle(command)) {
                        return;
                    }
                } catch (Exception e) {
                    reply("error", Map.of("message", String.valueOf(e).replace(' ', '_')));
                }
            }
        }
    }

    /** The right-hand end: counts what the session and the TCP connection deliver. */
    static final class Receiver implements Commands {
        private final OverlayNode node;
        private final AtomicLong overlayBytes = new AtomicLong();
        private final AtomicLong overlayMessages = new AtomicLong();
        private final AtomicLong outOfOrder = new AtomicLong();
        private final AtomicLong tcpBytes = new AtomicLong();
        private long expected;

        Receiver(OverlayNode node, InetSocketAddress tcp) throws IOException {
            this.node = node;
            node.acceptSessions(SESSION_PORT, session -> m -> {
                // On the node's event loop, one message at a time: plain fields suffice for the order.
                ByteBuf p = m.payload();
                long index = p.getLong(p.readerIndex());
                if (index != expected) {
                    outOfOrder.incrementAndGet();
                }
                expected = index + 1;
                overlayBytes.addAndGet(p.readableBytes());
                overlayMessages.incrementAndGet();
            });
            ServerSocketChannel server = ServerSocketChannel.open();
            server.bind(tcp);
            Thread sink = new Thread(() -> {
                try (server; SocketChannel c = server.accept()) {
                    ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
                    int n;
                    while ((n = c.read(buffer)) >= 0) {
                        tcpBytes.addAndGet(n);
                        buffer.clear();
                    }
                } catch (IOException e) {
                    // The benchmark ends the connection by quitting; counts so far stand.
                }
            }, "tcp-sink");
            sink.setDaemon(true);
            sink.start();
        }

        @Override
        public boolean handle(String command) throws IOException {
            switch (command) {
                case "sample" -> {
                    // Read where a packet can be lost besides the bottleneck: the socket's buffer, the node.
                    long t = System.nanoTime();
                    Map<String, Object> f = new LinkedHashMap<>();
                    f.put("t", t);
                    f.put("overlayBytes", overlayBytes.get());
                    f.put("overlayMessages", overlayMessages.get());
                    f.put("outOfOrder", outOfOrder.get());
                    f.put("tcpBytes", tcpBytes.get());
                    long[] link = node.inspect(e -> {
                        Neighbour n = e.neighbour(NodeId.ofName(SENDER));
                        return new long[] {n.packetsReceived(), n.bytesReceived()};
                    });
                    f.put("linkPacketsReceived", link[0]);
                    f.put("linkBytesReceived", link[1]);
                    f.put("nodeDrops", node.counters().totalDrops());
                    f.putAll(kernelCounters(Map.of("Udp:", List.of("RcvbufErrors", "InErrors"))));
                    reply("sample", f);
                    return true;
                }
                case "quit" -> {
                    reply("bye", Map.of());
                    return false;
                }
                default -> throw new IllegalArgumentException("unknown command " + command);
            }
        }
    }

    /** The left-hand end: drives the session and the TCP connection as fast as they take data. */
    static final class Sender implements Commands {
        private final OverlayNode node;
        private final InetSocketAddress tcpTarget;
        private final int messageBytes;
        private volatile boolean running = true;
        private volatile ReliableSession session;
        private final AtomicLong accepted = new AtomicLong();
        private final AtomicLong backPressured = new AtomicLong();
        private final AtomicLong tcpWritten = new AtomicLong();
        private Thread overlayThread;
        private Thread tcpThread;
        private SocketChannel tcp;

        Sender(OverlayNode node, InetSocketAddress tcpTarget, int messageBytes) {
            this.node = node;
            this.tcpTarget = tcpTarget;
            this.messageBytes = messageBytes;
            long until = System.nanoTime() + 30_000_000_000L;
            while (!node.reachableNodes(node.config().defaultMetric()).contains(RECEIVER)) {
                if (System.nanoTime() > until) {
                    throw new IllegalStateException("the overlay link to " + RECEIVER + " did not come up in 30 s");
                }
                LockSupport.parkNanos(10_000_000);
            }
        }

        @Override
        public boolean handle(String command) throws Exception {
            switch (command) {
                case "overlay" -> startOverlay();
                case "tcp" -> startTcp();
                case "stats" -> {
                    reply("stats", stats());
                    return true;
                }
                case "quit" -> {
                    running = false;
                    join(overlayThread);
                    if (tcp != null) {
                        tcp.close();
                    }
                    join(tcpThread);
                    if (session != null) {
                        session.close();
                    }
                    reply("bye", Map.of());
                    return false;
                }
                default -> throw new IllegalArgumentException("unknown command " + command);
            }
            reply("ok", Map.of());
            return true;
        }

        private static void join(Thread t) throws InterruptedException {
            if (t != null) {
                t.join(5_000);
            }
        }

        private void startOverlay() {
            if (overlayThread != null) {
                throw new IllegalStateException("the overlay flow is already running");
            }
            ReliableSession s = node.openSession(SESSION_PORT, RECEIVER, SESSION_PORT, m -> {});
            session = s;
            overlayThread = new Thread(() -> {
                byte[] message = new byte[messageBytes];
                ByteBuffer view = ByteBuffer.wrap(message);
                long index = 0;
                while (running) {
                    view.putLong(0, index);
                    SendResult r = s.send(message);
                    if (r == SendResult.ACCEPTED) {
                        index++;
                        accepted.incrementAndGet();
                    } else if (r == SendResult.BACK_PRESSURED) {
                        backPressured.incrementAndGet();
                        // Woken by the session once half its buffer is free; the timeout only guards a lost wake-up.
                        LockSupport.parkNanos(5_000_000);
                    } else {
                        return;
                    }
                }
            }, "overlay-sender");
            Thread t = overlayThread;
            s.onWritable(() -> LockSupport.unpark(t));
            t.start();
        }

        private void startTcp() throws IOException {
            if (tcpThread != null) {
                throw new IllegalStateException("the TCP flow is already running");
            }
            tcp = SocketChannel.open(tcpTarget);
            SocketChannel c = tcp;
            tcpThread = new Thread(() -> {
                ByteBuffer buffer = ByteBuffer.allocateDirect(256 * 1024);
                try {
                    while (running) {
                        buffer.clear();
                        tcpWritten.addAndGet(c.write(buffer));
                    }
                } catch (IOException e) {
                    // Closed by quit.
                }
            }, "tcp-sender");
            tcpThread.start();
        }

        private Map<String, Object> stats() throws IOException {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("t", System.nanoTime());
            Object[] link = node.inspect(e -> {
                Neighbour n = e.neighbour(NodeId.ofName(RECEIVER));
                return new Object[] {n.statistics(), n.reliableStatistics(), n.packetsSent(), n.bytesSent()};
            });
            LinkStatistics hello = (LinkStatistics) link[0];
            ReliableLinkStatistics r = (ReliableLinkStatistics) link[1];
            if (hello != null) {
                f.put("linkStatus", hello.status());
                f.put("linkDowns", hello.downTransitions());
                f.put("helloSrttNanos", hello.srttNanos());
                f.put("helloMinRttNanos", hello.minRttNanos());
            }
            if (r != null) {
                // In full-size segments, as TCP's cwnd beside it counts.
                f.put("linkCwnd", r.congestionWindowBytes() / (double) ReliableLinkConfig.DEFAULT_SEGMENT_BYTES);
                f.put("linkSsthresh", r.slowStartThresholdBytes() / (double) ReliableLinkConfig.DEFAULT_SEGMENT_BYTES);
                f.put("linkSrttNanos", r.srttNanos());
                f.put("linkQueue", r.queueLength());
                f.put("linkUnacked", r.unacknowledged());
                f.put("linkPacketsSent", r.packetsSent());
                f.put("linkResent", r.retransmissions());
                f.put("linkLossEvents", r.lossEvents());
                f.put("linkTimeouts", r.timeouts());
            }
            f.put("linkAllPacketsSent", link[2]);
            f.put("linkAllBytesSent", link[3]);
            ReliableSession s = session;
            if (s != null) {
                SessionStatistics ss = s.statistics();
                f.put("sessionCwnd", ss.congestionWindow());
                f.put("sessionBuffered", ss.sendBuffered());
                f.put("sessionReactions", ss.congestionReactions());
                f.put("sessionResent", ss.retransmissions());
                f.put("sessionSrttNanos", ss.srttNanos());
            }
            f.put("overlayAccepted", accepted.get());
            f.put("overlayBackPressured", backPressured.get());
            f.put("tcpWritten", tcpWritten.get());
            f.put("nodeDrops", node.counters().totalDrops());
            f.putAll(kernelCounters(Map.of("Tcp:", List.of("OutSegs", "RetransSegs"), "TcpExt:",
                    List.of("TCPSackRecovery", "TCPRenoRecovery", "TCPTimeouts"), "Udp:", List.of("SndbufErrors"))));
            return f;
        }
    }

    /**
     * Counters of this network namespace's kernel (the flows are the only traffic here), from
     * /proc/net/snmp and /proc/net/netstat, named by their table: {@code Udp:RcvbufErrors} becomes
     * {@code udpRcvbufErrors}.
     */
    static Map<String, Long> kernelCounters(Map<String, List<String>> wanted) throws IOException {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Path table : List.of(Path.of("/proc/net/snmp"), Path.of("/proc/net/netstat"))) {
            List<String> lines = Files.readAllLines(table);
            for (int i = 0; i + 1 < lines.size(); i++) {
                String prefix = lines.get(i).substring(0, Math.max(0, lines.get(i).indexOf(':') + 1));
                List<String> names = wanted.get(prefix);
                if (names != null && lines.get(i + 1).startsWith(prefix)) {
                    String[] n = lines.get(i).split("\\s+");
                    String[] v = lines.get(i + 1).split("\\s+");
                    String stem = prefix.substring(0, prefix.length() - 1).toLowerCase(java.util.Locale.ROOT);
                    for (int k = 1; k < n.length && k < v.length; k++) {
                        if (names.contains(n[k])) {
                            out.put(stem + n[k], Long.parseLong(v[k]));
                        }
                    }
                    i++;
                }
            }
        }
        return out;
    }
}
