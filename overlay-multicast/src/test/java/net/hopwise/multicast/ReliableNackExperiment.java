package net.hopwise.multicast;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.VirtualOverlay;

/**
 * NACKs per loss of reliable multicast at a given number of member nodes, in the simulator with the
 * unchanged module, beside NORM's figure (about 3 NACKs per loss at 1000 receivers). A source s
 * reaches {@code hubs} relays through one of two first hops (a or b); each hub serves its share of
 * the member nodes. The stream runs at 500 packets a second; 1.6-2.4 s in (by the seed), the first hop
 * carrying it crashes, and everything in its buffers and on its links is lost to the whole group. Routing
 * moves the tree to the other first hop, and the gaps are asked for and repaired end to end. Each
 * lost sequence is counted once (the source's repairs); the NACKs are counted where they are sent and
 * where they arrive. Run from the repository root: {@code ./mvnw -q -pl overlay-multicast -am
 * test-compile exec:exec -Dmulticast.exec.skip=false -Dexec.executable=java -Dexec.classpathScope=test
 * -Dexec.args="-cp %classpath net.hopwise.multicast.ReliableNackExperiment 100 1000 --seeds 3"} ({@code
 * --seed k} starts at seed k).
 */
public final class ReliableNackExperiment {
    private static final long MS = 1_000_000L;
    private static final String GROUP = "feed";

    private ReliableNackExperiment() {}

    public static void main(String[] args) {
        List<Integer> sizes = new ArrayList<>();
        int seeds = 1;
        int first = 1;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--seeds")) {
                seeds = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--seed")) {
                first = Integer.parseInt(args[++i]);
            } else {
                sizes.add(Integer.parseInt(args[i]));
            }
        }
        if (sizes.isEmpty()) {
            sizes.add(100);
        }
        System.out.printf(Locale.ROOT, "%-8s %-5s %8s %10s %12s %12s %12s %10s %s%n", "members", "seed", "losses",
                "at source", "seqs/loss", "nacks/loss", "nodes/loss", "complete", "(CPU s)");
        for (int members : sizes) {
            for (long seed = first; seed < first + seeds; seed++) {
                run(members, seed);
            }
        }
    }

    static Result run(int members, long seed) {
        long t0 = System.nanoTime();
        int hubs = (int) Math.max(2, Math.round(Math.sqrt(members)));
        try (VirtualOverlay overlay = new VirtualOverlay(seed, b -> b.module(new MulticastModule()))) {
            overlay.node("s");
            overlay.node("a");
            overlay.node("b");
            overlay.link("s", "a", 5 * MS);
            overlay.link("s", "b", 5 * MS);
            List<String> memberNames = new ArrayList<>();
            for (int h = 0; h < hubs; h++) {
                String hub = "h" + h;
                overlay.node(hub);
                overlay.link("a", hub, 5 * MS);
                overlay.link("b", hub, 5 * MS);
            }
            for (int m = 0; m < members; m++) {
                String name = "m" + m;
                overlay.node(name);
                overlay.link("h" + (m % hubs), name, 2 * MS);
                memberNames.add(name);
            }
            overlay.startAll();
            overlay.runFor(10_000 * MS);
            long[] delivered = new long[members];
            for (int m = 0; m < members; m++) {
                int k = m;
                multicast(overlay, memberNames.get(m)).join(GROUP, 1, msg -> delivered[k]++);
            }
            overlay.runFor(3_000 * MS);
            GroupSender sender = multicast(overlay, "s").reliableSender(GROUP, 1, RoutingMetric.HOPS,
                    SlowMemberPolicy.SLOW_GROUP);
            MulticastStage h0 = (MulticastStage) multicast(overlay, "h0");
            String firstHop = h0.treeAt(NodeId.ofName("s"), GroupId.ofName(GROUP), RoutingMetric.HOPS).parent()
                    .equals(NodeId.ofName("a")) ? "a" : "b";
            int sent = 0;
            // The seed picks the instant of the crash, 1.6-2.4 s into the stream, and so what it loses.
            int crashAt = 800 + new java.util.Random(seed).nextInt(400);
            for (int t = 0; t < 2000; t++) {
                if (t == crashAt) {
                    overlay.crash(firstHop);
                }
                overlay.engine("s").advance(overlay.now());
                if (sender.send(new byte[200]).accepted()) {
                    sent++;
                }
                overlay.runFor(2 * MS);
            }
            overlay.runFor(10_000 * MS);
            ReliableStatistics source = multicast(overlay, "s").reliableStatistics(GROUP).get(0);
            long nacks = 0;
            long asked = 0;
            long nodesAsking = 0;
            for (String n : memberNames) {
                for (ReliableStatistics st : multicast(overlay, n).reliableStatistics(GROUP)) {
                    nacks += st.nacksSent();
                    asked += st.sequencesAsked();
                    nodesAsking += st.nacksSent() > 0 ? 1 : 0;
                }
            }
            int complete = 0;
            for (long d : delivered) {
                complete += d == sent ? 1 : 0;
            }
            long losses = Math.max(1, source.repairsSent());
            Result r = new Result(members, seed, source.repairsSent(), source.sequencesAskedOfIt() / (double) losses,
                    asked / (double) losses, nacks / (double) losses, nodesAsking, complete);
            System.out.printf(Locale.ROOT, "%-8d %-5d %8d %10.2f %12.2f %12.3f %12d %10s (%.0f)%n", members, seed,
                    r.losses(), r.atSourcePerLoss(), r.memberSequencesPerLoss(), r.memberNacksPerLoss(),
                    r.membersAsking(), complete + "/" + members, (System.nanoTime() - t0) / 1e9);
            return r;
        }
    }

    /**
     * @param losses sequences the source resent (each lost to the whole group once)
     * @param atSourcePerLoss sequences asked of the source per loss
     * @param memberSequencesPerLoss sequences the member nodes asked for, all together, per loss
     * @param memberNacksPerLoss NACK datagrams the member nodes sent, all together, per loss
     * @param membersAsking member nodes that sent any NACK
     * @param complete member nodes that delivered every message
     */
    record Result(int members, long seed, long losses, double atSourcePerLoss, double memberSequencesPerLoss,
            double memberNacksPerLoss, long membersAsking, int complete) {}

    private static Multicast multicast(VirtualOverlay overlay, String node) {
        NodeStack stack = overlay.engine(node);
        stack.advance(overlay.now());
        return stack.module(Multicast.class);
    }
}
