package net.hopwise.overlay.security;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * Not a test: handshakes over real UDP sockets on loopback, for docs/security.md ("Cost") and
 * docs/benchmarks.md. One responder, a real {@link OverlayNode} with the {@link SecurityModule} on a
 * 1-thread runtime of its own; {@code --initiators} initiators (32 by default), each a
 * {@link LinkSecurity} engine (the code a node's security stage runs) on a UDP socket of its own,
 * bound to an address of its own in 127.0.0.0/8 (so that the per-address budget is not what limits),
 * all driven by one thread of this program, not the responder's loop. Each initiator rekeys as soon
 * as its session has sent one datagram ({@code rekeyAfterPackets} 1): on every new session it sends
 * one empty sealed datagram and then starts the next handshake, a full one (a fresh Noise XX with
 * new ephemeral keys, and the cookie round trip first: INIT, COOKIE, INIT with the cookie,
 * RESPONSE, FINAL). Measured:
 * <ul>
 *   <li>handshake time at low load: one initiator, one handshake at a time, 2 ms apart, from the
 *       first INIT sent to the initiator's keys installed (median and p99);</li>
 *   <li>at saturation (every initiator rekeying back to back), with the default handshake budget
 *       (200 a second in all, 10 per source address; the initiators then retry a refused INIT every
 *       20 ms, see {@link #BUDGET_RETRY}) and with it lifted: handshakes completed a
 *       second at the responder (its own count), and the responder's event-loop thread's CPU time
 *       (user and kernel, ThreadMXBean) per completed handshake; this includes everything the loop
 *       did meanwhile (cookies, refusals, the sealed datagrams, its hellos, timers).</li>
 * </ul>
 * What a 2-core machine limits: an initiator's half of a handshake costs about as much CPU as the
 * responder's, so the initiators' thread needs about the second core to keep the responder's loop
 * busy; the lifted-budget rate is the rate at which the responder's loop and the initiators' thread
 * together settle, not a responder with cores to spare for it. The CPU per handshake at the
 * responder is the figure that carries over: one core's worth of handshakes is 1e9 over it. With
 * the module's test classpath: {@code java -cp <classpath>
 * net.hopwise.overlay.security.HandshakeRateBenchmark [--initiators 32] [--seconds 5] [--warmup 3]
 * [--samples 500]} (the low-load handshakes go to a responder with the budget lifted); docs/security.md,
 * "Cost", gives the exact command.
 */
public final class HandshakeRateBenchmark {
    /**
     * The initiators' handshake retry in the default-budget run. A refused INIT gets no answer and
     * is sent again after the retry interval (1 s by default), so 32 initiators at the default retry
     * would offer far fewer than 200 INITs a second once refused: they retry every 20 ms there, so
     * that the budget, not the retry, is what limits. The lifted run keeps the default retry.
     */
    static final Duration BUDGET_RETRY = Duration.ofMillis(20);

    private HandshakeRateBenchmark() {}

    static SecurityConfig withRetry(SecurityConfig c, Duration retry) {
        return new SecurityConfig(c.name(), c.keys(), c.certificate(), c.admission(), c.wallClockSeconds(), retry,
                c.handshakeTimeout(), c.rekeyAfter(), c.rejectAfter(), c.rekeyAfterPackets(), c.rejectAfterPackets(),
                c.replayWindow(), c.maxPendingHandshakes(), c.cookieLifetime(), c.cipherSuite(), c.handshakesPerAddress(),
                c.handshakesPerSecond());
    }

    public static void main(String[] args) throws Exception {
        int initiators = Integer.parseInt(arg(args, "--initiators", "32"));
        double seconds = Double.parseDouble(arg(args, "--seconds", "5"));
        double warmup = Double.parseDouble(arg(args, "--warmup", "3"));
        int samples = Integer.parseInt(arg(args, "--samples", "500"));
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        mx.setThreadCpuTimeEnabled(true);
        System.out.printf(Locale.ROOT, "Java %s, %d processors; %d initiators on one thread, %.1f s measured after %.1f s"
                + " warm-up%n", System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                initiators, seconds, warmup);
        // JIT warm-up, unmeasured: a saturated run with the budget lifted.
        saturate(initiators, false, warmup, 0, mx);
        double[] lifted = saturate(initiators, false, warmup, seconds, mx);
        double[] budget = saturate(initiators, true, warmup, seconds, mx);
        double[] latency = lowLoad(samples, mx);
        System.out.println();
        System.out.printf(Locale.ROOT, "%-46s %12s %18s %18s %12s%n", "", "handshakes/s", "responder loop CPU",
                "initiators' CPU", "rate-refused");
        System.out.printf(Locale.ROOT, "%-46s %12s %18s %18s %12s%n", "", "at responder", "per handshake",
                "per handshake", "INITs/s");
        row("saturated, default budget (200/s, 10/address)", budget);
        row("saturated, budget lifted", lifted);
        System.out.printf(Locale.ROOT, "handshake time at low load (first INIT to keys, %d handshakes 2 ms apart): median"
                + " %.0f us, p99 %.0f us; CPU a handshake: responder loop %.0f us, initiators' thread %.0f us%n", samples,
                latency[0] / 1e3, latency[1] / 1e3, latency[2] / 1e3, latency[3] / 1e3);
        System.out.printf(Locale.ROOT, "responder loop CPU per handshake, budget lifted: %.0f us, i.e. %.0f handshakes a"
                + " second for one core of the responder's%n", lifted[1] / 1e3, 1e9 / lifted[1]);
    }

    private static void row(String name, double[] r) {
        System.out.printf(Locale.ROOT, "%-46s %12.0f %15.0f us %15.0f us %12.0f%n", name, r[0], r[1] / 1e3, r[2] / 1e3,
                r[3]);
    }

    /** The responder node, the initiators, and the thread that drives them. */
    private static final class Bench implements AutoCloseable {
        final NodeRuntime runtime = NodeRuntime.create(1);
        final OverlayNode responder;
        final long loopThread;
        final List<Initiator> initiators = new ArrayList<>();
        final Selector selector = Selector.open();
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong completed = new AtomicLong();
        Thread driver;
        /** Low load: handshake times in nanoseconds, when not null. */
        volatile long[] times;
        volatile int timed;

        Bench(int n, boolean defaultBudget) throws Exception {
            NodeKeys rk = NodeKeys.generate();
            Map<String, List<byte[]>> trusted = new HashMap<>();
            trusted.put("r", List.of(rk.identityPublic()));
            List<NodeKeys> keys = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                NodeKeys k = NodeKeys.generate();
                keys.add(k);
                trusted.put("i" + i, List.of(k.identityPublic()));
            }
            TrustedKeys admission = new TrustedKeys(trusted);
            SecurityConfig rc = SecurityConfig.of("r", rk, null, admission);
            if (!defaultBudget) {
                rc = rc.withHandshakeBudget(1 << 30, 1 << 30);
            }
            responder = OverlayNode.start(NodeConfig.builder("r").loopback(0).defaultMetric(RoutingMetric.HOPS)
                    .module(new SecurityModule(rc)).build(), runtime);
            loopThread = responder.inspect(e -> Thread.currentThread().getId());
            InetSocketAddress r = new InetSocketAddress("127.0.0.1", responder.localAddress().getPort());
            for (int i = 0; i < n; i++) {
                // 127.0.0.2 and up: an address each, as initiators on hosts of their own would have.
                DatagramChannel ch = DatagramChannel.open()
                        .bind(new InetSocketAddress("127.0." + ((i + 2) >> 8) + "." + ((i + 2) & 255), 0));
                ch.configureBlocking(false);
                SecurityConfig ic = SecurityConfig.of("i" + i, keys.get(i), null, admission)
                        .withRekey(SecurityConfig.DEFAULT_REKEY_AFTER, SecurityConfig.DEFAULT_REJECT_AFTER, 1, 1L << 20);
                if (defaultBudget) {
                    ic = withRetry(ic, BUDGET_RETRY);
                }
                Initiator in = new Initiator("i" + i, ch, r, ic);
                ch.register(selector, SelectionKey.OP_READ, in);
                initiators.add(in);
                responder.addNeighbour(new NeighbourConfig(in.name, (InetSocketAddress) ch.getLocalAddress()));
            }
        }

        /** Drives the initiators on a thread of their own; {@code active} of them start handshakes. */
        void start(int active, long gapNanos) {
            driver = new Thread(() -> drive(active, gapNanos), "initiators");
            driver.setDaemon(true);
            driver.start();
        }

        private void drive(int active, long gapNanos) {
            ByteBuffer in = ByteBuffer.allocate(2048);
            ByteBuffer out = ByteBuffer.allocate(2048);
            long nextStart = System.nanoTime();
            try {
                for (int i = 0; i < active; i++) {
                    initiators.get(i).begin(System.nanoTime(), out);
                }
                while (running.get()) {
                    long now = System.nanoTime();
                    long next = now + 10_000_000L;
                    for (Initiator x : initiators) {
                        if (x.engine.nextDeadlineNanos() <= now) {
                            x.engine.onTimer(now);
                        }
                        next = Math.min(next, x.engine.nextDeadlineNanos());
                    }
                    if (gapNanos > 0) {
                        next = Math.min(next, nextStart);
                    }
                    long wait = Math.max(1, (next - now) / 1_000_000L);
                    selector.select(wait);
                    for (SelectionKey k : selector.selectedKeys()) {
                        Initiator x = (Initiator) k.attachment();
                        while (true) {
                            in.clear();
                            InetSocketAddress from = (InetSocketAddress) x.channel.receive(in);
                            if (from == null) {
                                break;
                            }
                            in.flip();
                            out.clear();
                            x.engine.receive(from, in, out, System.nanoTime());
                        }
                    }
                    selector.selectedKeys().clear();
                    now = System.nanoTime();
                    for (int i = 0; i < active; i++) {
                        Initiator x = initiators.get(i);
                        if (x.established) {
                            x.established = false;
                            completed.incrementAndGet();
                            long[] t = times;
                            if (t != null && timed < t.length) {
                                t[timed] = now - x.startedNanos;
                                timed = timed + 1;
                            }
                            x.idle = true;
                        }
                        if (x.idle && (gapNanos == 0 || now >= nextStart)) {
                            nextStart = now + gapNanos;
                            x.idle = false;
                            x.next(now, out);
                        }
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        /** Handshakes the responder completed (its own count, rekeys included), INITs it refused for the rate, cookie replies. */
        long[] responderCounts() {
            long hs = responder.module(SecureLinks.class).status().orTimeout(10, TimeUnit.SECONDS).join().stream()
                    .mapToLong(LinkSecurity.PeerStatus::handshakes).sum();
            SecureLinks.HandshakeState st = responder.module(SecureLinks.class).handshakes().orTimeout(10, TimeUnit.SECONDS)
                    .join();
            return new long[] {hs, st.rateRefused(), st.cookieReplies()};
        }

        @Override
        public void close() throws Exception {
            running.set(false);
            if (driver != null) {
                selector.wakeup();
                driver.join(5000);
            }
            responder.stop();
            for (Initiator x : initiators) {
                x.channel.close();
            }
            selector.close();
            runtime.close();
        }
    }

    /** One initiator: an engine on a socket of its own. */
    private static final class Initiator {
        final String name;
        final DatagramChannel channel;
        final InetSocketAddress responder;
        final LinkSecurity engine;
        final Map<DropReason, Long> drops = new EnumMap<>(DropReason.class);
        boolean established;
        boolean idle;
        long startedNanos;

        Initiator(String name, DatagramChannel channel, InetSocketAddress responder, SecurityConfig config) {
            this.name = name;
            this.channel = channel;
            this.responder = responder;
            this.engine = new LinkSecurity(config, this::send, r -> drops.merge(r, 1L, Long::sum), new LinkSecurity.Listener() {
                @Override
                public void established(String peer, InetSocketAddress address, boolean rekey) {
                    established = true;
                }
            });
            engine.addPeer("r", responder);
        }

        private void send(InetSocketAddress to, byte[] datagram) {
            try {
                channel.send(ByteBuffer.wrap(datagram), to);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        /** The first handshake: no session yet, so sealing starts one. */
        void begin(long now, ByteBuffer out) {
            startedNanos = now;
            out.clear();
            engine.seal("r", ByteBuffer.allocate(0), out, now);
        }

        /**
         * On a new session: one empty sealed datagram (the session's one packet), then the next seal
         * finds the packet count reached and starts a rekey, a whole handshake; its datagram still
         * leaves on the current session.
         */
        void next(long now, ByteBuffer out) {
            out.clear();
            if (engine.seal("r", ByteBuffer.allocate(0), out, now)) {
                out.flip();
                send(responder, Arrays.copyOf(out.array(), out.limit()));
            }
            startedNanos = System.nanoTime();
            out.clear();
            if (engine.seal("r", ByteBuffer.allocate(0), out, startedNanos)) {
                out.flip();
                send(responder, Arrays.copyOf(out.array(), out.limit()));
            }
        }
    }

    /** Median and p99 of handshake time in nanoseconds; the responder loop's and the initiators' CPU per handshake. */
    private static double[] lowLoad(int samples, ThreadMXBean mx) throws Exception {
        try (Bench b = new Bench(1, false)) {
            b.times = new long[samples + 50];
            b.start(1, 2_000_000L);
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (b.timed < 50 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            long[] c0 = b.responderCounts();
            long cpu0 = mx.getThreadCpuTime(b.loopThread);
            long icpu0 = mx.getThreadCpuTime(b.driver.getId());
            while (b.timed < samples + 50 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            long cpu1 = mx.getThreadCpuTime(b.loopThread);
            long icpu1 = mx.getThreadCpuTime(b.driver.getId());
            long[] c1 = b.responderCounts();
            // the first 50, the link's first handshake among them, not counted
            long[] t = Arrays.copyOfRange(b.times, 50, samples + 50);
            Arrays.sort(t);
            return new double[] {t[t.length / 2], t[(int) Math.ceil(t.length * 0.99) - 1],
                (cpu1 - cpu0) / (double) Math.max(1, c1[0] - c0[0]), (icpu1 - icpu0) / (double) Math.max(1, c1[0] - c0[0])};
        }
    }

    /**
     * Every initiator rekeying back to back for {@code seconds} after {@code warmup}: handshakes a
     * second at the responder, its loop thread's CPU per handshake, the initiators' thread's CPU per
     * handshake, and INITs a second refused for the rate.
     */
    private static double[] saturate(int n, boolean defaultBudget, double warmup, double seconds, ThreadMXBean mx)
            throws Exception {
        try (Bench b = new Bench(n, defaultBudget)) {
            b.start(n, 0);
            Thread.sleep((long) (warmup * 1000));
            if (seconds <= 0) {
                return null;
            }
            long[] c0 = b.responderCounts();
            long cpu0 = mx.getThreadCpuTime(b.loopThread);
            long icpu0 = mx.getThreadCpuTime(b.driver.getId());
            long t0 = System.nanoTime();
            Thread.sleep((long) (seconds * 1000));
            long t1 = System.nanoTime();
            long cpu1 = mx.getThreadCpuTime(b.loopThread);
            long icpu1 = mx.getThreadCpuTime(b.driver.getId());
            long[] c1 = b.responderCounts();
            long hs = c1[0] - c0[0];
            double s = (t1 - t0) / 1e9;
            Map<DropReason, Long> drops = new EnumMap<>(DropReason.class);
            for (Initiator x : b.initiators) {
                x.drops.forEach((k, v) -> drops.merge(k, v, Long::sum));
            }
            System.out.printf(Locale.ROOT, "  %s: %d handshakes at the responder in %.2f s (%.2f cookie replies each),"
                    + " %d completed at the initiators since they started; initiators' drops %s%n",
                    defaultBudget ? "default budget" : "budget lifted", hs, s, (c1[2] - c0[2]) / (double) Math.max(1, hs),
                    b.completed.get(), drops);
            return new double[] {hs / s, (cpu1 - cpu0) / (double) Math.max(1, hs), (icpu1 - icpu0) / (double) Math.max(1, hs),
                (c1[1] - c0[1]) / s};
        }
    }

    private static String arg(String[] args, String name, String fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }
}
