package net.hopwise.overlay.security;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.spi.LinkStateExtension;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.testing.VirtualOverlay;

/**
 * Not a test: link-state verification at the scale of a 1000-node overlay, in the simulator (the
 * production node on virtual time), for docs/benchmarks.md "Link-state verification at scale". Each
 * round runs the same topology and seed unsigned, signed under a trusted-keys list (64-byte
 * signatures) and signed under an authority (217-byte signatures carrying certificates); every node
 * publishes one module record (as a multicast membership would), so each origin floods two signed
 * versions per refresh. Measured per node: Ed25519 verifications and their CPU time at the cold start
 * (first versions of every origin) and over steady refreshes; the verified-version cache's hits; the
 * virtual time until every node holds every origin's advertisement and record.
 *
 * <p>One process holds all the nodes, so each distinct (key, message, signature) is verified once
 * for real and timed; a node that meets it again is charged the mean time of the real verifications
 * of the run (the node's own bookkeeping around it is timed as it runs). Without that, a 1000-node run
 * would verify about two million signatures, some twenty minutes on one core. The simulator charges
 * no CPU time to virtual time: the convergence figures are the protocol's, and the added delay that
 * verification would cause is estimated from the per-node CPU time.
 *
 * <p>Run after test-compile, under the build lock, from overlay-core (see docs/benchmarks.md):
 * {@code java -cp <test classpath> net.hopwise.overlay.security.LinkStateScaleBenchmark --rounds 3}
 */
public final class LinkStateScaleBenchmark {
    private static final long MS = 1_000_000L;
    private static final long WALL = 1_800_000_000L;
    private static final int KIND = 7;

    enum Mode { UNSIGNED, TRUSTED_KEYS, AUTHORITY }

    private final int nodes;
    private final long seed;
    private final Duration refresh;
    private final int refreshes;
    private final List<String> names = new ArrayList<>();
    private final Map<String, NodeKeys> keys = new HashMap<>();
    private final Map<String, NodeCertificate> certificates = new HashMap<>();
    private final byte[] authority = Crypto.newEd25519Private();
    private final TrustedKeys trusted;

    LinkStateScaleBenchmark(int nodes, long seed, Duration refresh, int refreshes) {
        this.nodes = nodes;
        this.seed = seed;
        this.refresh = refresh;
        this.refreshes = refreshes;
        Map<String, List<byte[]>> list = new HashMap<>();
        for (int i = 0; i < nodes; i++) {
            String n = "n" + i;
            names.add(n);
            NodeKeys k = NodeKeys.generate();
            keys.put(n, k);
            list.put(n, List.of(k.identityPublic()));
            certificates.put(n, NodeCertificate.sign(authority, n, k.identityPublic(), WALL - 86_400, WALL + 86_400, i));
        }
        trusted = new TrustedKeys(list);
    }

    /** Ed25519 across the nodes of one process: each distinct verification done once and timed. */
    static final class SharedEd25519 implements LinkStateSigner.Ed25519 {
        private final Map<String, Boolean> done = new HashMap<>();
        /** The JDK's verifier instead of the one in use ({@code --verifier jdk}), to compare the two. */
        static boolean jdk;
        /** The node whose verification runs: the simulator runs one node at a time. */
        Timed current;
        long real;
        long realNanos;
        long repeated;

        @Override
        public boolean verify(byte[] publicKey, byte[] message, byte[] signature) {
            String key = Arrays.toString(Crypto.sha256(publicKey, message, signature));
            Boolean known = done.get(key);
            if (known != null) {
                repeated++;
                if (current != null) {
                    current.repeated++;
                }
                return known;
            }
            long t0 = System.nanoTime();
            boolean ok = jdk ? Crypto.verifyWithJdk(publicKey, message, signature)
                    : Crypto.verify(publicKey, message, signature);
            realNanos += System.nanoTime() - t0;
            real++;
            done.put(key, ok);
            return ok;
        }

        double meanNanos() {
            return real == 0 ? 0 : realNanos / (double) real;
        }
    }

    /** One node's verification as the router calls it, timed. */
    static final class Timed implements net.hopwise.overlay.spi.LinkStateSigner {
        final LinkStateSigner signer;
        final net.hopwise.overlay.spi.LinkStateSigner inner;
        final SharedEd25519 shared;
        long calls;
        /** Verifications another node did for this one. */
        long repeated;
        long nanos;
        long signNanos;
        long signatures;

        Timed(LinkStateSigner signer, SharedEd25519 shared) {
            this.signer = signer;
            this.shared = shared;
            this.inner = signer.spi();
        }

        @Override
        public int maxSignatureBytes() {
            return inner.maxSignatureBytes();
        }

        @Override
        public byte[] sign(byte[] content) {
            long t0 = System.nanoTime();
            byte[] s = inner.sign(content);
            signNanos += System.nanoTime() - t0;
            signatures++;
            return s;
        }

        @Override
        public boolean verify(NodeId origin, String originName, byte[] content, byte[] signature) {
            shared.current = this;
            long t0 = System.nanoTime();
            boolean ok = inner.verify(origin, originName, content, signature);
            nanos += System.nanoTime() - t0;
            shared.current = null;
            calls++;
            return ok;
        }
    }

    /** Per node at the end of a phase. */
    record Snapshot(long calls, long nanos, long repeated, long ed25519, long certificates, long cacheHits,
            long refused) {
        static Snapshot of(Timed t) {
            LinkStateSigner.Stats s = t.signer.stats();
            return new Snapshot(t.calls, t.nanos, t.repeated, s.verifications(), s.certificateVerifications(),
                    s.cacheHits(), s.refused());
        }

        Snapshot minus(Snapshot o) {
            return new Snapshot(calls - o.calls, nanos - o.nanos, repeated - o.repeated, ed25519 - o.ed25519,
                    certificates - o.certificates, cacheHits - o.cacheHits, refused - o.refused);
        }

        /** CPU time: the calls as timed, plus the Ed25519 verifications another node did for this one. */
        double cpuMillis(double meanEd25519Nanos) {
            return (nanos + repeated * meanEd25519Nanos) / 1e6;
        }
    }

    record Result(Mode mode, double convergedMs, double recordsMs, long events, double wallSeconds,
            double[] coldCpuMs, double[] refreshCpuMsPerPeriod, long coldEd25519, long refreshEd25519,
            long cacheHits, long calls, long refused, double meanEd25519Micros, long certificateVerifications,
            int signatureBytes) {}

    Result run(Mode mode) {
        SharedEd25519 shared = new SharedEd25519();
        Map<String, Timed> timed = new HashMap<>();
        long start = System.nanoTime();
        try (VirtualOverlay o = new VirtualOverlay(seed, b -> {
            String name = b.build().name();
            b.routing(b.build().routing().toBuilder().refreshInterval(refresh).maxAge(refresh.multipliedBy(3)).build());
            if (mode != Mode.UNSIGNED) {
                SecurityConfig config = SecurityConfig.of(name, keys.get(name),
                        mode == Mode.AUTHORITY ? certificates.get(name) : null,
                        mode == Mode.AUTHORITY ? AuthorityAdmission.of(Crypto.ed25519Public(authority)) : trusted)
                        .withWallClock(() -> WALL);
                Timed t = new Timed(LinkStateSigner.of(config, SecurityModule.LINK_STATE_CACHE, shared), shared);
                timed.put(name, t);
                b.module(new Signing(t));
            }
            b.module(new Member(name));
        })) {
            Random random = new Random(seed);
            for (String n : names) {
                o.node(n);
            }
            for (int i = 1; i < nodes; i++) {
                // Incremental attachment, two links per new node (as the scale experiment's BRITE m = 2).
                int first = random.nextInt(i);
                o.link(names.get(i), names.get(first), (1 + random.nextInt(20)) * MS);
                if (i > 1) {
                    int second = random.nextInt(i - 1);
                    second = second >= first ? second + 1 : second;
                    o.link(names.get(i), names.get(second), (1 + random.nextInt(20)) * MS);
                }
            }
            o.startAll();
            long t0 = o.now();
            long converged = -1;
            long records = -1;
            while (records < 0 && o.now() - t0 < 120_000 * MS) {
                o.runFor(10 * MS);
                if (converged < 0 && everyDatabaseFull(o)) {
                    converged = o.now() - t0;
                }
                if (converged >= 0 && (o.now() - t0) % (100 * MS) == 0 && everyRecordHeld(o)) {
                    records = o.now() - t0;
                }
            }
            if (records < 0) {
                throw new IllegalStateException(mode + ": not converged in 120 s of virtual time");
            }
            Map<String, Snapshot> cold = new HashMap<>();
            timed.forEach((n, t) -> cold.put(n, Snapshot.of(t)));
            o.runFor(refresh.toNanos() * refreshes);
            double mean = shared.meanNanos();
            double[] coldCpu = new double[timed.size()];
            double[] refreshCpu = new double[timed.size()];
            long coldEd = 0;
            long refreshEd = 0;
            long hits = 0;
            long calls = 0;
            long refused = 0;
            long certs = 0;
            int i = 0;
            for (Map.Entry<String, Timed> e : timed.entrySet()) {
                Snapshot c = cold.get(e.getKey());
                Snapshot all = Snapshot.of(e.getValue());
                Snapshot r = all.minus(c);
                coldCpu[i] = c.cpuMillis(mean);
                refreshCpu[i] = r.cpuMillis(mean) / refreshes;
                coldEd += c.ed25519;
                refreshEd += r.ed25519;
                hits += all.cacheHits;
                calls += all.calls;
                refused += all.refused;
                certs += all.certificates;
                i++;
            }
            Arrays.sort(coldCpu);
            Arrays.sort(refreshCpu);
            int signatureBytes = 0;
            NodeStack first = o.engine(names.get(0));
            var ad = first.router().database().get(NodeId.ofName(names.get(nodes - 1))).orElseThrow();
            if (ad.signature() != null) {
                signatureBytes = ad.signature().length;
            }
            long events = o.events().stream().filter(ev -> ev.kind() == NodeEvent.Kind.ROUTES_CHANGED).count();
            return new Result(mode, converged / 1e6, records / 1e6, events, (System.nanoTime() - start) / 1e9,
                    coldCpu, refreshCpu, coldEd, refreshEd, hits, calls, refused, mean / 1e3, certs, signatureBytes);
        }
    }

    private boolean everyDatabaseFull(VirtualOverlay o) {
        for (String n : names) {
            if (o.engine(n).router().database().size() < nodes) {
                return false;
            }
        }
        return true;
    }

    private boolean everyRecordHeld(VirtualOverlay o) {
        for (String n : names) {
            if (o.engine(n).router().extensions(KIND).size() < nodes) {
                return false;
            }
        }
        return true;
    }

    /** Installs one node's signer, timed. */
    private static final class Signing implements OverlayModule {
        private final Timed signer;

        Signing(Timed signer) {
            this.signer = signer;
        }

        @Override
        public String name() {
            return "signing";
        }

        @Override
        public void install(ModuleContext ctx) {
            ctx.signLinkState(signer);
        }
    }

    /** One record per node, published at its first link up: what a multicast membership costs. */
    private static final class Member implements OverlayModule {
        private final String name;

        Member(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return "member";
        }

        @Override
        public void install(ModuleContext ctx) {
            LinkStateExtension e = ctx.linkStateExtension(KIND, null);
            ctx.addListener(event -> {
                if (event.kind() == NodeEvent.Kind.LINK_UP && e.records().get(ctx.self()) == null) {
                    e.publish(("groups of " + name + ": 239.1.1.1 239.1.1.2").getBytes(StandardCharsets.US_ASCII));
                }
            });
        }
    }

    private static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))];
    }

    public static void main(String[] args) {
        int nodes = 1000;
        int rounds = 1;
        long seed = 1;
        int refreshSeconds = 10;
        int refreshes = 2;
        List<Mode> modes = List.of(Mode.UNSIGNED, Mode.TRUSTED_KEYS, Mode.AUTHORITY);
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--nodes" -> nodes = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--refresh" -> refreshSeconds = Integer.parseInt(args[++i]);
                case "--refreshes" -> refreshes = Integer.parseInt(args[++i]);
                case "--verifier" -> SharedEd25519.jdk = "jdk".equalsIgnoreCase(args[++i]);
                case "--modes" -> modes = Arrays.stream(args[++i].split(",")).map(m -> Mode.valueOf(m.toUpperCase(Locale.ROOT))).toList();
                case "--help" -> {
                    System.out.println("LinkStateScaleBenchmark [--nodes 1000] [--rounds 1] [--seed 1] [--refresh 10]"
                            + " [--refreshes 2] [--modes unsigned,trusted_keys,authority] [--verifier bc|jdk]");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (--help)");
            }
        }
        System.out.printf(Locale.ROOT, "%d nodes, seed %d, refresh every %d s (measured over %d), %s %s, Ed25519 verified by %s%n",
                nodes, seed, refreshSeconds, refreshes, System.getProperty("java.vm.name"), System.getProperty("java.version"),
                SharedEd25519.jdk ? "the JDK" : "Bouncy Castle");
        LinkStateScaleBenchmark b = new LinkStateScaleBenchmark(nodes, seed, Duration.ofSeconds(refreshSeconds), refreshes);
        System.out.println("round | mode | sig B | ads everywhere ms | records everywhere ms | cold CPU/node ms median p99 max"
                + " | Ed25519 µs | refresh CPU/node/period ms median max | % core at 60 s median max | Ed25519 cold/refresh"
                + " per node | cert verifs/node | cache hits | refused | wall s");
        for (int r = 1; r <= rounds; r++) {
            for (Mode m : modes) {
                Result x = b.run(m);
                double n = Math.max(1, x.coldCpuMs().length);
                System.out.printf(Locale.ROOT, "%d | %s | %d | %.0f | %.0f | %.1f %.1f %.1f | %.0f | %.2f %.2f | %.3f %.3f"
                        + " | %.0f / %.0f | %.1f | %d of %d | %d | %.1f%n",
                        r, x.mode(), x.signatureBytes(), x.convergedMs(), x.recordsMs(),
                        percentile(x.coldCpuMs(), 0.5), percentile(x.coldCpuMs(), 0.99), percentile(x.coldCpuMs(), 1),
                        x.meanEd25519Micros(),
                        percentile(x.refreshCpuMsPerPeriod(), 0.5), percentile(x.refreshCpuMsPerPeriod(), 1),
                        percentile(x.refreshCpuMsPerPeriod(), 0.5) / 600, percentile(x.refreshCpuMsPerPeriod(), 1) / 600,
                        x.coldEd25519() / n, x.refreshEd25519() / n / refreshes, x.certificateVerifications() / n,
                        x.cacheHits(), x.calls(), x.refused(), x.wallSeconds());
            }
        }
    }
}
