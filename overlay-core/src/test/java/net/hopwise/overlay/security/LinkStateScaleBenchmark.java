package net.hopwise.overlay.security;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Not a test: link-state verification in a 1000-node overlay, for docs/benchmarks.md "Link-state
 * verification at scale", in two phases. Counting, on virtual time at any priority: production nodes
 * in the simulator, one topology and seed unsigned, under a trusted-keys list and under an authority,
 * each node also publishing one module record; per node the verifications the router asks for, the
 * Ed25519 verifications of versions and certificates, cache hits, at the cold start and per refresh
 * round, and the virtual time until every node holds every advertisement and record. Nothing there
 * is timed: all nodes share a process (each distinct signature is verified once, its result shared)
 * and a paused idle-priority process times nothing honestly. {@code --record FILE} writes every
 * node's calls in order. Timing, {@code --replay FILE} under the build lock: the calls of the nodes
 * with the fewest, the median, the 99th-percentile and the most calls go through a fresh signer of
 * that node, verifying for real, several times (keys derive from the seed, so the replay rebuilds
 * the same admission). Over 400 lines because both phases need the same topology, keys and
 * admissions, and the security package's other files are another engineer's.
 */
public final class LinkStateScaleBenchmark {
    private static final long MS = 1_000_000L;
    private static final long WALL = 1_800_000_000L;
    private static final int KIND = 7;
    private static final int MAGIC = 0x4c535331;

    enum Mode { UNSIGNED, TRUSTED_KEYS, AUTHORITY }

    private final int nodes;
    private final long seed;
    private final Duration refresh;
    private final int refreshes;
    /** Null for the node's default; route computation is not what this measures (flooding does not use routes). */
    private Duration minRecompute;
    private final List<String> names = new ArrayList<>();
    private final Map<String, NodeKeys> keys = new HashMap<>();
    private final Map<String, NodeCertificate> certificates = new HashMap<>();
    private final byte[] authority;
    private final TrustedKeys trusted;

    LinkStateScaleBenchmark(int nodes, long seed, Duration refresh, int refreshes) {
        this.nodes = nodes;
        this.seed = seed;
        this.refresh = refresh;
        this.refreshes = refreshes;
        this.authority = derive("authority", 0);
        Map<String, List<byte[]>> list = new HashMap<>();
        for (int i = 0; i < nodes; i++) {
            String n = "n" + i;
            names.add(n);
            NodeKeys k = new NodeKeys(derive("identity", i), derive("link", i));
            keys.put(n, k);
            list.put(n, List.of(k.identityPublic()));
            certificates.put(n, NodeCertificate.sign(authority, n, k.identityPublic(), WALL - 86_400, WALL + 86_400, i));
        }
        trusted = new TrustedKeys(list);
    }

    /** A private key from the seed: the replay rebuilds the simulation's keys, and they are throwaway. */
    private byte[] derive(String what, int i) {
        return Crypto.sha256(ByteBuffer.allocate(12).putLong(seed).putInt(i).array(), what.getBytes(StandardCharsets.US_ASCII));
    }

    private SecurityConfig config(Mode mode, String name) {
        return SecurityConfig.of(name, keys.get(name), mode == Mode.AUTHORITY ? certificates.get(name) : null,
                mode == Mode.AUTHORITY ? AuthorityAdmission.of(Crypto.ed25519Public(authority)) : trusted)
                .withWallClock(() -> WALL);
    }

    /** Ed25519 across the nodes of one process: each distinct verification done once, its result shared. */
    static final class SharedEd25519 implements LinkStateSigner.Ed25519 {
        private final Map<ByteBuffer, Boolean> done = new HashMap<>();

        @Override
        public boolean verify(byte[] publicKey, byte[] message, byte[] signature) {
            return done.computeIfAbsent(ByteBuffer.wrap(Crypto.sha256(publicKey, message, signature)),
                    k -> Crypto.verify(publicKey, message, signature));
        }
    }

    /** One verification call as the router makes it. */
    record Call(NodeId origin, String originName, byte[] content, byte[] signature) {}

    /** The distinct calls of a run, each numbered once: what every node's record refers to. */
    static final class Calls {
        private final Map<List<Object>, Integer> index = new HashMap<>();
        final List<Call> list = new ArrayList<>();

        int intern(NodeId origin, String originName, byte[] content, byte[] signature) {
            List<Object> key = List.of(originName, ByteBuffer.wrap(content), ByteBuffer.wrap(signature));
            Integer i = index.get(key);
            if (i == null) {
                i = list.size();
                list.add(new Call(origin, originName, content.clone(), signature.clone()));
                index.put(List.of(originName, ByteBuffer.wrap(list.get(i).content()), ByteBuffer.wrap(list.get(i).signature())), i);
            }
            return i;
        }
    }

    /** One node's verification as the router calls it, counted and (with {@code --record}) recorded. */
    static final class Counted implements net.hopwise.overlay.spi.LinkStateSigner {
        final LinkStateSigner signer;
        final net.hopwise.overlay.spi.LinkStateSigner inner;
        final Calls calls;
        int[] sequence = new int[0];
        int length;
        int coldLength;

        Counted(LinkStateSigner signer, Calls calls) {
            this.signer = signer;
            this.inner = signer.spi();
            this.calls = calls;
        }

        @Override
        public int maxSignatureBytes() {
            return inner.maxSignatureBytes();
        }

        @Override
        public byte[] sign(byte[] content) {
            return inner.sign(content);
        }

        @Override
        public boolean verify(NodeId origin, String originName, byte[] content, byte[] signature) {
            if (calls != null) {
                if (length == sequence.length) {
                    sequence = Arrays.copyOf(sequence, Math.max(64, 2 * length));
                }
                sequence[length] = calls.intern(origin, originName, content, signature);
            }
            length++;
            return inner.verify(origin, originName, content, signature);
        }
    }

    record Result(Mode mode, double convergedMs, double recordsMs, long events, double wallSeconds, long[] coldEd25519,
            long[] refreshEd25519, long certificates, long cacheHits, long calls, long refused, int signatureBytes) {}

    Result run(Mode mode, DataOutputStream record) throws IOException {
        SharedEd25519 shared = new SharedEd25519();
        Calls calls = record == null ? null : new Calls();
        Map<String, Counted> counted = new HashMap<>();
        long start = System.nanoTime();
        try (VirtualOverlay o = new VirtualOverlay(seed, b -> {
            String name = b.build().name();
            var routing = b.build().routing().toBuilder().refreshInterval(refresh).maxAge(refresh.multipliedBy(3));
            if (minRecompute != null) {
                routing.minRecomputeInterval(minRecompute);
            }
            b.routing(routing.build());
            if (mode != Mode.UNSIGNED) {
                Counted c = new Counted(LinkStateSigner.of(config(mode, name), SecurityModule.LINK_STATE_CACHE, shared), calls);
                counted.put(name, c);
                b.module(new Signing(c));
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
            Map<String, LinkStateSigner.Stats> cold = new HashMap<>();
            counted.forEach((n, c) -> {
                cold.put(n, c.signer.stats());
                c.coldLength = c.length;
            });
            o.runFor(refresh.toNanos() * refreshes);
            long[] coldEd = new long[counted.size()];
            long[] refreshEd = new long[counted.size()];
            long hits = 0;
            long all = 0;
            long refused = 0;
            long certs = 0;
            int i = 0;
            for (Map.Entry<String, Counted> e : counted.entrySet()) {
                LinkStateSigner.Stats c = cold.get(e.getKey());
                LinkStateSigner.Stats s = e.getValue().signer.stats();
                coldEd[i] = c.verifications();
                refreshEd[i] = s.verifications() - coldEd[i];
                hits += s.cacheHits();
                all += e.getValue().length;
                refused += s.refused();
                certs += s.certificateVerifications();
                i++;
            }
            Arrays.sort(coldEd);
            Arrays.sort(refreshEd);
            NodeStack first = o.engine(names.get(0));
            var ad = first.router().database().get(NodeId.ofName(names.get(nodes - 1))).orElseThrow();
            int signatureBytes = ad.signature() == null ? 0 : ad.signature().length;
            long events = o.events().stream().filter(ev -> ev.kind() == NodeEvent.Kind.ROUTES_CHANGED).count();
            if (record != null && mode != Mode.UNSIGNED) {
                write(record, mode, calls, counted);
            }
            return new Result(mode, converged / 1e6, records / 1e6, events, (System.nanoTime() - start) / 1e9, coldEd,
                    refreshEd, certs, hits, all, refused, signatureBytes);
        }
    }

    private void write(DataOutputStream out, Mode mode, Calls calls, Map<String, Counted> counted) throws IOException {
        out.writeInt(MAGIC);
        out.writeUTF(mode.name());
        out.writeInt(nodes);
        out.writeLong(seed);
        out.writeInt(refreshes);
        out.writeInt(calls.list.size());
        for (Call c : calls.list) {
            out.writeUTF(c.originName());
            out.writeInt(c.content().length);
            out.write(c.content());
            out.writeInt(c.signature().length);
            out.write(c.signature());
        }
        out.writeInt(counted.size());
        for (String n : names) {
            Counted c = counted.get(n);
            out.writeUTF(n);
            out.writeInt(c.coldLength);
            out.writeInt(c.length);
            for (int i = 0; i < c.length; i++) {
                out.writeInt(c.sequence[i]);
            }
        }
        out.flush();
    }

    private boolean everyDatabaseFull(VirtualOverlay o) {
        return names.stream().allMatch(n -> o.engine(n).router().database().size() >= nodes);
    }

    private boolean everyRecordHeld(VirtualOverlay o) {
        return names.stream().allMatch(n -> o.engine(n).router().extensions(KIND).size() >= nodes);
    }

    /** Installs one node's signer. */
    private record Signing(Counted signer) implements OverlayModule {
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
    private record Member(String node) implements OverlayModule {
        @Override
        public String name() {
            return "member";
        }

        @Override
        public void install(ModuleContext ctx) {
            LinkStateExtension e = ctx.linkStateExtension(KIND, null);
            ctx.addListener(event -> {
                if (event.kind() == NodeEvent.Kind.LINK_UP && e.records().get(ctx.self()) == null) {
                    e.publish(("groups of " + node + ": 239.1.1.1 239.1.1.2").getBytes(StandardCharsets.US_ASCII));
                }
            });
        }
    }

    /**
     * Replays the recorded calls of four nodes per mode through fresh signers, verifying for real, and
     * prints each node's CPU time: every repetition, then the median.
     */
    static void replay(Path file, int repetitions, boolean jdk) throws IOException {
        LinkStateSigner.Ed25519 verifier = jdk ? Crypto::verifyWithJdk : Crypto::verify;
        System.out.println("mode | node (calls cold+refresh, rank) | Ed25519 of versions and certificates cold / per round | cold ms (each repetition)"
                + " | cold ms median | ms per refresh round, median | µs per Ed25519 | % core at 60 s");
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            while (true) {
                if (in.available() == 0) {
                    return;
                }
                if (in.readInt() != MAGIC) {
                    throw new IOException(file + " is not a recording of this benchmark");
                }
                Mode mode = Mode.valueOf(in.readUTF());
                LinkStateScaleBenchmark b = new LinkStateScaleBenchmark(in.readInt(), in.readLong(), Duration.ZERO, 0);
                int refreshes = in.readInt();
                Call[] calls = new Call[in.readInt()];
                for (int i = 0; i < calls.length; i++) {
                    String origin = in.readUTF();
                    byte[] content = in.readNBytes(in.readInt());
                    byte[] signature = in.readNBytes(in.readInt());
                    calls[i] = new Call(NodeId.ofName(origin), origin, content, signature);
                }
                int n = in.readInt();
                String[] node = new String[n];
                int[] cold = new int[n];
                int[][] sequence = new int[n][];
                Integer[] order = new Integer[n];
                for (int i = 0; i < n; i++) {
                    node[i] = in.readUTF();
                    cold[i] = in.readInt();
                    sequence[i] = new int[in.readInt()];
                    for (int j = 0; j < sequence[i].length; j++) {
                        sequence[i][j] = in.readInt();
                    }
                    order[i] = i;
                }
                Arrays.sort(order, (x, y) -> Integer.compare(sequence[x].length, sequence[y].length));
                int[] ranks = {0, n / 2, Math.min(n - 1, (int) (0.99 * n)), n - 1};
                String[] rankNames = {"fewest", "median", "p99", "most"};
                // Warm-up, untimed: the JIT compiles the verifier before the first timed repetition.
                b.replayOne(mode, node[order[n / 2]], calls, sequence[order[n / 2]], cold[order[n / 2]], verifier);
                for (int r = 0; r < ranks.length; r++) {
                    int i = order[ranks[r]];
                    double[] coldMs = new double[repetitions];
                    double[] refreshMs = new double[repetitions];
                    long[] counts = null;
                    for (int k = 0; k < repetitions; k++) {
                        long[] t = b.replayOne(mode, node[i], calls, sequence[i], cold[i], verifier);
                        coldMs[k] = t[0] / 1e6;
                        refreshMs[k] = t[1] / 1e6;
                        counts = t;
                    }
                    double medianCold = median(coldMs);
                    double medianRefresh = median(refreshMs);
                    String each = Arrays.stream(coldMs).mapToObj(c -> String.format(Locale.ROOT, "%.1f", c))
                            .collect(java.util.stream.Collectors.joining(" "));
                    System.out.printf(Locale.ROOT, "%s | %s (%d+%d, %s) | %d / %d | %s | %.1f | %.1f | %.1f | %.3f%n", mode,
                            node[i], cold[i], sequence[i].length - cold[i], rankNames[r], counts[2], counts[3] / refreshes,
                            each, medianCold, medianRefresh / refreshes, (medianCold + medianRefresh) * 1e3 / Math.max(1, counts[2] + counts[3]),
                            medianRefresh / refreshes / 600);
                }
            }
        }
    }

    /** One node's recorded calls through a fresh signer: cold ns, refresh ns, Ed25519 cold, Ed25519 refresh. */
    private long[] replayOne(Mode mode, String name, Call[] calls, int[] sequence, int cold, LinkStateSigner.Ed25519 verifier) {
        LinkStateSigner signer = LinkStateSigner.of(config(mode, name), SecurityModule.LINK_STATE_CACHE, verifier);
        net.hopwise.overlay.spi.LinkStateSigner spi = signer.spi();
        long t0 = System.nanoTime();
        for (int j = 0; j < cold; j++) {
            Call c = calls[sequence[j]];
            spi.verify(c.origin(), c.originName(), c.content(), c.signature());
        }
        long t1 = System.nanoTime();
        LinkStateSigner.Stats s = signer.stats();
        for (int j = cold; j < sequence.length; j++) {
            Call c = calls[sequence[j]];
            spi.verify(c.origin(), c.originName(), c.content(), c.signature());
        }
        long t2 = System.nanoTime();
        LinkStateSigner.Stats e = signer.stats();
        long coldEd = s.verifications() + s.certificateVerifications();
        return new long[] {t1 - t0, t2 - t1, coldEd, e.verifications() + e.certificateVerifications() - coldEd};
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static long percentile(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))];
    }

    public static void main(String[] args) throws IOException {
        int nodes = 1000;
        int rounds = 1;
        long seed = 1;
        int refreshSeconds = 10;
        int refreshes = 1;
        int repetitions = 5;
        Duration minRecompute = null;
        boolean jdk = false;
        Path recordFile = null;
        Path replayFile = null;
        List<Mode> modes = List.of(Mode.UNSIGNED, Mode.TRUSTED_KEYS, Mode.AUTHORITY);
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--nodes" -> nodes = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--refresh" -> refreshSeconds = Integer.parseInt(args[++i]);
                case "--refreshes" -> refreshes = Integer.parseInt(args[++i]);
                case "--min-recompute" -> minRecompute = Duration.ofMillis(Long.parseLong(args[++i]));
                case "--record" -> recordFile = Path.of(args[++i]);
                case "--replay" -> replayFile = Path.of(args[++i]);
                case "--repetitions" -> repetitions = Integer.parseInt(args[++i]);
                case "--verifier" -> jdk = "jdk".equalsIgnoreCase(args[++i]);
                case "--modes" -> modes = Arrays.stream(args[++i].split(",")).map(m -> Mode.valueOf(m.toUpperCase(Locale.ROOT))).toList();
                case "--help" -> {
                    System.out.println("LinkStateScaleBenchmark [--nodes 1000] [--rounds 1] [--seed 1] [--refresh 10]"
                            + " [--refreshes 1] [--modes unsigned,trusted_keys,authority] [--min-recompute MS] [--record FILE]\n"
                            + "LinkStateScaleBenchmark --replay FILE [--repetitions 5] [--verifier bc|jdk]");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (--help)");
            }
        }
        if (replayFile != null) {
            System.out.printf(Locale.ROOT, "replay of %s, %d repetitions, %s %s, Ed25519 verified by %s%n", replayFile,
                    repetitions, System.getProperty("java.vm.name"), System.getProperty("java.version"),
                    jdk ? "the JDK" : "Bouncy Castle");
            replay(replayFile, repetitions, jdk);
            return;
        }
        System.out.printf(Locale.ROOT, "%d nodes, seed %d, refresh every %d s (measured over %d), routes computed at most"
                + " every %s, %s %s%n", nodes, seed, refreshSeconds, refreshes,
                minRecompute == null ? "20 ms (the default)" : minRecompute.toMillis() + " ms",
                System.getProperty("java.vm.name"), System.getProperty("java.version"));
        LinkStateScaleBenchmark b = new LinkStateScaleBenchmark(nodes, seed, Duration.ofSeconds(refreshSeconds), refreshes);
        b.minRecompute = minRecompute;
        System.out.println("round | mode | sig B | ads everywhere ms | records everywhere ms | Ed25519 of versions per node cold"
                + " median p99 max | per refresh median max | cert verifs/node | cache hits of calls | refused"
                + " | routes-changed events | wall s");
        try (DataOutputStream record = recordFile == null ? null
                : new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(recordFile), 1 << 16))) {
            for (int r = 1; r <= rounds; r++) {
                for (Mode m : modes) {
                    Result x = b.run(m, r == 1 ? record : null);
                    double n = Math.max(1, x.coldEd25519().length);
                    System.out.printf(Locale.ROOT, "%d | %s | %d | %.0f | %.0f | %d %d %d | %.0f %d | %.1f | %d of %d | %d | %d | %.1f%n",
                            r, x.mode(), x.signatureBytes(), x.convergedMs(), x.recordsMs(),
                            percentile(x.coldEd25519(), 0.5), percentile(x.coldEd25519(), 0.99),
                            percentile(x.coldEd25519(), 1), percentile(x.refreshEd25519(), 0.5) / (double) refreshes,
                            percentile(x.refreshEd25519(), 1) / refreshes, x.certificates() / n, x.cacheHits(), x.calls(),
                            x.refused(), x.events(), x.wallSeconds());
                }
            }
        }
    }
}
