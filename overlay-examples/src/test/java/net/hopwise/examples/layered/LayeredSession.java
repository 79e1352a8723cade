package net.hopwise.examples.layered;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import net.hopwise.multicast.layered.EraConfig;
import net.hopwise.multicast.layered.EraSender;
import net.hopwise.multicast.layered.LayerForwarding;
import net.hopwise.multicast.layered.LayerRates;
import net.hopwise.multicast.layered.LayerSubscriber;
import net.hopwise.multicast.layered.LayeredOutput;
import net.hopwise.multicast.layered.LayeredPacket;
import net.hopwise.multicast.layered.SessionAnnouncement;
import net.hopwise.overlay.sim.AgentTimer;
import net.hopwise.overlay.sim.Packet;
import net.hopwise.overlay.sim.SimLink;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.Simulator;

/**
 * One layered session in a simulated network: an {@link EraSender} at the source, a {@link
 * LayerForwarding} at every node of the tree with graft and prune messages carried upstream over the
 * links, data forwarded on receipt (never batched, so bunches keep their dispersion), announcements
 * sent down the whole tree, and receivers (ERA or a baseline) at chosen nodes.
 *
 * <p>Every packet crosses the simulated links' queues, so layered traffic meets TCP cross traffic
 * where the scenario makes them share a link. A leave-latency model delays each prune, as IGMP's
 * leave does in the network the thesis assumed (0 by default: an overlay parent stops at once).
 */
final class LayeredSession {
    static final int CONTROL_BYTES = 40;
    /** The fair-queuing flow of the first session; session k uses FLOW + k. */
    static final long FLOW = 0x4C41_5945_5200L;

    /** What sends a session's packets: {@link EraSender}, or a baseline's own source. */
    interface Source {
        void onTimer(long nowNanos);

        long nextDeadlineNanos();
    }

    private final SimNetwork net;
    private final Simulator sim;
    private final Map<String, String> parentOf;
    private final Map<String, Integer> index = new HashMap<>();
    private final List<String> nodes = new ArrayList<>();
    private final LayerForwarding[] relays;
    private final List<List<Receiver>> local = new ArrayList<>();
    private final int relayLayers;
    private final long leaveLatencyNanos;
    private final long flow;
    private final Source sender;
    private final AgentTimer senderTimer;
    private final long[] children = new long[64];
    private final Map<Integer, List<int[]>> pendingControl = new HashMap<>();
    private RlmSharedLearning rlmLearning;
    long controlMessages;

    /** A receiver at a node: its controller, and what it got. */
    final class Receiver implements LayerSubscriber {
        final String node;
        final ReceiverStats stats;
        LayeredController controller;
        AgentTimer timer;

        private int recordedLevel = -1;
        /** Grafts and prunes this receiver asked for (dynamic layering's cost is many of them). */
        long joins;
        long leaves;

        Receiver(String node) {
            this.node = node;
            this.stats = new ReceiverStats(relayLayers);
        }

        /** The session the receiver is in: what its controller may share with the session's other receivers. */
        LayeredSession session() {
            return LayeredSession.this;
        }

        @Override
        public void join(int layer, long now) {
            joins++;
            relays[index.get(node)].localJoin(layer, now);
        }

        @Override
        public void leave(int layer, long now) {
            leaves++;
            stats.forget(layer);
            int at = index.get(node);
            later(now, () -> relays[at].localLeave(layer, sim.now()));
        }

        /**
         * The level is read from the controller after each of its steps rather than from the
         * layers it grafts: with dynamic layering the groups held are not the level.
         */
        void settled(long now) {
            int level = controller.level();
            if (level != recordedLevel) {
                recordedLevel = level;
                stats.levelChanged(level, now);
            }
            timer.update(controller.nextDeadlineNanos());
        }

        void deliver(LayeredPacket p, int bytes, long now) {
            if (controller.counts(p)) {
                stats.received(p, bytes, now);
            }
            controller.onPacket(p, now);
            settled(now);
        }
    }

    /**
     * @param parentOf every tree node's parent, the source's absent
     * @param leaveLatencyNanos how long a prune waits before it takes effect
     * @param seed the sender's (its bunch spacings' jitter)
     */
    LayeredSession(SimNetwork net, String source, Map<String, String> parentOf, LayerRates layers, EraConfig config,
            long startNanos, long leaveLatencyNanos, long seed) {
        this(net, source, parentOf, layers.count(), leaveLatencyNanos, FLOW, out -> {
            EraSender era = new EraSender(1, 1, layers, config, 0, startNanos, out, seed);
            return new Source() {
                @Override
                public void onTimer(long now) {
                    era.onTimer(now);
                }

                @Override
                public long nextDeadlineNanos() {
                    return era.nextDeadlineNanos();
                }
            };
        });
    }

    /**
     * A session with any source: {@code relayLayers} groups at every relay (layers, or dynamic
     * layering's groups), its packets in fair-queuing flow {@code flow}.
     */
    LayeredSession(SimNetwork net, String source, Map<String, String> parentOf, int relayLayers, long leaveLatencyNanos,
            long flow, Function<LayeredOutput, Source> sourceFactory) {
        this.net = net;
        this.sim = net.simulator();
        this.parentOf = parentOf;
        this.relayLayers = relayLayers;
        this.flow = flow;
        this.leaveLatencyNanos = leaveLatencyNanos;
        addNode(source);
        parentOf.keySet().stream().sorted().forEach(this::addNode);
        this.relays = new LayerForwarding[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            String me = nodes.get(i);
            String parent = parentOf.get(me);
            local.add(new ArrayList<>());
            relays[i] = new LayerForwarding(relayLayers, new LayerForwarding.Upstream() {
                @Override
                public void graft(int layer, long now) {
                    control(me, parent, layer, true, now);
                }

                @Override
                public void prune(int layer, long now) {
                    control(me, parent, layer, false, now);
                }
            });
        }
        this.sender = sourceFactory.apply(new LayeredOutput() {
            @Override
            public void data(LayeredPacket header, long now) {
                forward(0, header, LayeredScenarios.PACKET, now);
            }

            @Override
            public void announce(SessionAnnouncement a, long now) {
                flood(0, a, now);
            }
        });
        this.senderTimer = new AgentTimer(sim, 900_001, now -> {
            sender.onTimer(now);
            senderTimer().update(sender.nextDeadlineNanos());
        });
        senderTimer.update(sender.nextDeadlineNanos());
    }

    private AgentTimer senderTimer() {
        return senderTimer;
    }

    private void addNode(String name) {
        index.put(name, nodes.size());
        nodes.add(name);
    }

    /** Puts a receiver at {@code node}, built by {@code controller} around its subscriber, joining at {@code joinNanos}. */
    Receiver receiver(String node, Function<LayerSubscriber, LayeredController> controller, long joinNanos) {
        Receiver r = new Receiver(node);
        r.controller = controller.apply(r);
        r.timer = new AgentTimer(sim, 900_100 + local.get(index.get(node)).size(), now -> {
            r.controller.onTimer(now);
            r.settled(now);
        });
        local.get(index.get(node)).add(r);
        sim.schedule(joinNanos, now -> {
            r.stats.joinedAt = now;
            r.controller.join(now);
            r.settled(now);
        });
        return r;
    }

    /** The bus of the session's RLM receivers' "add L" messages, made when the first of them asks. */
    RlmSharedLearning rlmLearning() {
        if (rlmLearning == null) {
            rlmLearning = new RlmSharedLearning(this::treeDelayNanos);
        }
        return rlmLearning;
    }

    /**
     * The propagation delay between two nodes of the tree: up from {@code from} to the nearest node
     * both lie below, then down to {@code to} (0 at one node).
     */
    long treeDelayNanos(String from, String to) {
        Map<String, Long> up = new HashMap<>();
        long d = 0;
        for (String n = from; n != null; n = parentOf.get(n)) {
            up.put(n, d);
            String parent = parentOf.get(n);
            if (parent != null) {
                d += net.direction(n, parent).spec().delayNanos();
            }
        }
        long down = 0;
        for (String n = to; n != null; n = parentOf.get(n)) {
            Long u = up.get(n);
            if (u != null) {
                return u + down;
            }
            String parent = parentOf.get(n);
            if (parent != null) {
                down += net.direction(parent, n).spec().delayNanos();
            }
        }
        throw new IllegalArgumentException(from + " and " + to + " are not in one tree");
    }

    private void later(long now, Runnable action) {
        if (leaveLatencyNanos == 0) {
            action.run();
        } else {
            sim.schedule(now + leaveLatencyNanos, t -> action.run());
        }
    }

    /**
     * Grafts and prunes a node sends at one instant travel as one message (as PIM's Join/Prune
     * lists several groups): a level change of 13 layers sent as 13 packets would overflow a small
     * DropTail queue on the way up and lose grafts. In the overlay they go on the reliable link.
     */
    private void control(String from, String parent, int layer, boolean graft, long now) {
        if (parent == null) {
            return;
        }
        int child = index.get(from);
        List<int[]> batch = pendingControl.get(child);
        if (batch == null) {
            batch = new ArrayList<>();
            pendingControl.put(child, batch);
            List<int[]> changes = batch;
            int at = index.get(parent);
            sim.schedule(now, t -> {
                pendingControl.remove(child);
                controlMessages++;
                net.direction(from, parent).send(new Hop(CONTROL_BYTES + 4 * changes.size(), arrival -> {
                    for (int[] c : changes) {
                        if (c[1] == 1) {
                            relays[at].childGraft(child, c[0], arrival);
                        } else {
                            relays[at].childPrune(child, c[0], arrival);
                        }
                    }
                }), t);
            });
        }
        batch.add(new int[] {layer, graft ? 1 : 0});
    }

    /** At node {@code at}: deliver to local receivers that hold the layer, send on to children that grafted it. */
    private void forward(int at, LayeredPacket p, int bytes, long now) {
        LayerForwarding relay = relays[at];
        if (relay.delivers(p.layer())) {
            for (Receiver r : local.get(at)) {
                r.deliver(p, bytes, now);
            }
        }
        int n = relay.childrenFor(p.layer(), children);
        for (int i = 0; i < n; i++) {
            int child = (int) children[i];
            net.direction(nodes.get(at), nodes.get(child)).send(new Hop(bytes, t -> forward(child, p, bytes, t)), now);
        }
    }

    private void flood(int at, SessionAnnouncement a, long now) {
        for (Receiver r : local.get(at)) {
            r.controller.onAnnouncement(a, now);
            r.settled(now);
        }
        String me = nodes.get(at);
        for (int c = 0; c < nodes.size(); c++) {
            if (me.equals(parentOf.get(nodes.get(c)))) {
                int child = c;
                net.direction(me, nodes.get(c)).send(new Hop(a.encodedLength(), t -> flood(child, a, t)), now);
            }
        }
    }

    /** A packet of this session on one link; at the far end it runs what the next node does with it. */
    private final class Hop extends Packet {
        private final net.hopwise.overlay.sim.Action onArrival;

        Hop(int bytes, net.hopwise.overlay.sim.Action onArrival) {
            super(bytes, flow);
            this.onArrival = onArrival;
        }

        @Override
        protected void arrive(SimLink via, long nowNanos) {
            onArrival.run(nowNanos);
        }
    }
}
