package net.hopwise.examples.layered;

import java.util.Map;
import net.hopwise.multicast.layered.EraSender;
import net.hopwise.multicast.layered.LayerRates;
import net.hopwise.overlay.sim.Action;
import net.hopwise.overlay.sim.DelayStatistics;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.Packet;
import net.hopwise.overlay.sim.QueueDiscipline;
import net.hopwise.overlay.sim.SimLink;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.tcp.TcpConfig;
import net.hopwise.overlay.sim.tcp.TcpFlow;
import net.hopwise.overlay.sim.tcp.TcpVariant;

/**
 * What the benchmark scenarios (B1-B11 of the digest's section 4.3) share: the protocols as the
 * thesis ran them, a session of any of them on a tree, CBR and TCP Reno cross traffic, and the
 * queues (DropTail 2 x BDP, or fair queuing with 20 packets per flow for PLM as its authors ran it).
 */
final class Bench {
    static final long SECOND = LayeredScenarios.SECOND;
    static final int PACKET = LayeredScenarios.PACKET;
    /** FLID-DL's and PLM's layers in the thesis's chapter 4: 26 of 12 Kbit/s x 1.3. */
    static final LayerRates MULTIPLICATIVE = LayerRates.multiplicative(26, FlidDl.BASE, FlidDl.FACTOR);
    /** ERA's layers in the thesis's chapter 6: 100 of 20 Kbit/s. */
    static final LayerRates EQUAL = LayeredScenarios.LAYERS;
    /**
     * Ours, for the efficiency goal: the same 2 Mbit/s in a 20 Kbit/s base layer and 198 layers of
     * 10 Kbit/s, so that the level strictly below a bottleneck is at most 10 Kbit/s short of it
     * (290 of 300 Kbit/s, where the thesis's 20 Kbit/s layers leave 280).
     */
    static final LayerRates FINE = LayeredScenarios.FINE_LAYERS;
    private static final int FQ_PER_FLOW = 20;

    enum Proto {
        /** ERA as the thesis ran it (constant 50 ms round trip, packet loss rate). */
        ERA(LayeredScenarios.Protocol.ERA),
        /** ERA with the round trip measured from the send timestamps. */
        ERA_RTT(LayeredScenarios.Protocol.ERA_RTT),
        /** ERA counting TFRC's loss events. */
        ERA_EVENTS(LayeredScenarios.Protocol.ERA_EVENTS),
        /** Ours: {@link net.hopwise.multicast.layered.EraConfig#fair()}. */
        ERA_FAIR(LayeredScenarios.Protocol.ERA_FAIR),
        /** Ours: {@link net.hopwise.multicast.layered.EraConfig#prompt()}. */
        ERA_PROMPT(LayeredScenarios.Protocol.ERA_PROMPT),
        /** Ours: {@link net.hopwise.multicast.layered.EraConfig#tfrc()}. */
        ERA_TFRC(LayeredScenarios.Protocol.ERA_TFRC),
        /** Ours, experimental: ERA_PROMPT with {@link net.hopwise.multicast.layered.EraConfig.Builder#queueDrain}. */
        ERA_DRAIN(LayeredScenarios.Protocol.ERA_DRAIN),
        /** Ours: {@link net.hopwise.multicast.layered.EraConfig#friendly()} with the round trip measured through the queue. */
        ERA_FRIENDLY(LayeredScenarios.Protocol.ERA_FRIENDLY),
        /** Ours, the preset to pick: {@link net.hopwise.multicast.layered.EraConfig#recommended()}, measured round trip. */
        ERA_RECOMMENDED(LayeredScenarios.Protocol.ERA_RECOMMENDED),
        /** The thesis's ERA on {@link #FINE} layers in chapter 6's experiments: only the sender's layering differs. */
        ERA_FINE(LayeredScenarios.Protocol.ERA),
        /** ERA_FAIR on {@link #FINE} layers in chapter 6's experiments. */
        ERA_FAIR_FINE(LayeredScenarios.Protocol.ERA_FAIR),
        /** ERA_RECOMMENDED on {@link #FINE} layers in chapter 6's experiments. */
        ERA_RECOMMENDED_FINE(LayeredScenarios.Protocol.ERA_RECOMMENDED),
        /** ERA_RECOMMENDED with fair queuing (20 packets per flow) on every link: the overlay's per-session queuing. */
        ERA_RECOMMENDED_FQ(LayeredScenarios.Protocol.ERA_RECOMMENDED),
        /** PLM with fair queuing (20 packets per flow) on every link, as Legout and Biersack require. */
        PLM_FQ(LayeredScenarios.Protocol.PLM),
        /** PLM on DropTail (the thesis's chapter 4 Exp. III). */
        PLM(LayeredScenarios.Protocol.PLM),
        FLID_DL(null),
        RLM(LayeredScenarios.Protocol.RLM);

        final LayeredScenarios.Protocol controller;

        Proto(LayeredScenarios.Protocol controller) {
            this.controller = controller;
        }

        boolean fairQueuing() {
            return this == PLM_FQ || this == ERA_RECOMMENDED_FQ;
        }
    }

    private Bench() {
    }

    /** The queue of a link of {@code bps}: FQ for PLM_FQ, else DropTail of 2 x BDP at {@code rttSeconds}. */
    static QueueDiscipline queue(Proto p, long bps, double rttSeconds, int flows) {
        return p.fairQueuing() ? new QueueDiscipline.FairQueue(FQ_PER_FLOW * Math.max(1, flows), PACKET)
                : LayeredScenarios.twiceBdp(bps, rttSeconds);
    }

    static LinkSpec link(Proto p, long bps, double delayMillis, double rttSeconds, int flows) {
        return LayeredScenarios.link(bps, delayMillis, queue(p, bps, rttSeconds, flows));
    }

    /**
     * How long a prune waits before the relay stops the layer, as IGMP's leave latency would have it
     * (the thesis ran none; its FLID-DL discussion names 0.5 to 9 s): {@code -Dlayered.leave=seconds},
     * 0 unless set. On the overlay a prune takes one hop, so 0 is the overlay's own figure.
     */
    static long leaveLatencyNanos() {
        double seconds = Double.parseDouble(System.getProperty("layered.leave", "0"));
        if (!(seconds >= 0)) {
            throw new IllegalArgumentException("layered.leave must be seconds >= 0, got " + seconds);
        }
        return Math.round(seconds * 1e9);
    }

    /** One layered session of protocol {@code p} on a tree, and the layers its level indexes. */
    static final class Multicast {
        final Proto proto;
        final LayeredSession session;
        final LayerRates rates;
        final FlidDl flid;

        Multicast(SimNetwork net, Proto proto, String source, Map<String, String> parents, LayerRates layers, long start,
                int index, long seed, double flidRttSeconds) {
            this.proto = proto;
            if (proto == Proto.FLID_DL) {
                this.flid = FlidDl.defaults(flidRttSeconds);
                this.rates = flid.rates();
                this.session = new LayeredSession(net, source, parents, flid.groups(), leaveLatencyNanos(), LayeredSession.FLOW + index,
                        out -> new FlidDlSender(1, flid, start, out, seed));
            } else {
                this.flid = null;
                this.rates = layers;
                this.session = new LayeredSession(net, source, parents, layers.count(), leaveLatencyNanos(), LayeredSession.FLOW + index,
                        out -> {
                            EraSender era = new EraSender(1, 1, layers, LayeredScenarios.senderCfg(proto.controller), 0, start, out, seed);
                            return new LayeredSession.Source() {
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
        }

        LayeredSession.Receiver receiver(String node, long joinNanos, long seed) {
            return session.receiver(node, s -> proto == Proto.FLID_DL ? new FlidDlReceiver(1, flid, s)
                    : Controllers.of(proto.controller, LayeredScenarios.cfg(), s, seed), joinNanos);
        }

        /** The rate of level {@code level}, 0 below the base. */
        double rateOf(int level) {
            return level < 0 ? 0 : rates.cumulative(level);
        }

        /** The level a pair-measured capacity of {@code bps} allows under the strict rule (PLM's and ERA's). */
        int optimalLevel(double bps) {
            return rates.levelFor(bps, true);
        }
    }

    /** A TCP Reno flow of 512-byte packets (windows up to 2000) over {@code forward}, its ACKs back. */
    static TcpFlow tcp(SimNetwork net, int id, String[] forward, long startNanos) {
        TcpConfig config = TcpConfig.builder().segmentBytes(PACKET - TcpConfig.DEFAULT_HEADER_BYTES).receiverWindow(2000)
                .build();
        String[] back = new String[forward.length];
        for (int i = 0; i < forward.length; i++) {
            back[i] = forward[forward.length - 1 - i];
        }
        TcpFlow flow = new TcpFlow(net, id, TcpVariant.RENO, config, net.path(forward), net.path(back),
                new DelayStatistics());
        flow.bulk(startNanos);
        return flow;
    }

    /** TCP's goodput in bit/s between two instants, read by {@link #mark}. */
    static double tcpRate(long deliveredFrom, long deliveredTo, long fromNanos, long toNanos) {
        return (deliveredTo - deliveredFrom) * 8.0 * PACKET / ((toNanos - fromNanos) / 1e9);
    }

    /** Schedules a read of {@code flow}'s delivered count at {@code at} into {@code into[0]}. */
    static void mark(SimNetwork net, TcpFlow flow, long at, long[] into) {
        net.at(at, now -> into[0] = flow.receiver().delivered());
    }

    /**
     * A constant-bit-rate flow of 512-byte packets along {@code path} (names of nodes), whose rate
     * changes at given instants: {@code changes} is pairs (instant, bit/s), 0 stopping it.
     */
    static void cbr(SimNetwork net, String[] path, long flow, long... changes) {
        SimLink[] links = net.path(path);
        long[] rate = {0};
        long[] generation = {0};
        for (int i = 0; i + 1 < changes.length; i += 2) {
            long bps = changes[i + 1];
            net.at(changes[i], now -> {
                rate[0] = bps;
                long mine = ++generation[0];
                if (bps > 0) {
                    net.simulator().schedule(now, new Action() {
                        @Override
                        public void run(long t) {
                            if (generation[0] != mine) {
                                return;
                            }
                            links[0].send(new Cbr(links, flow), t);
                            net.simulator().schedule(t + 8L * PACKET * SECOND / rate[0], this);
                        }
                    });
                }
            });
        }
    }

    /**
     * {@code perSecond} packets of {@code bytes} a second along {@code path} from {@code startNanos}:
     * what an overlay's hellos put on a link, a little traffic whose only effect of note is that the
     * link no longer serialises every packet in the same time (the phase effects of a deterministic
     * DropTail queue, which such traffic breaks, are in docs/layered-multicast.md).
     */
    static void background(SimNetwork net, String[] path, long flow, int bytes, int perSecond, long startNanos) {
        SimLink[] links = net.path(path);
        net.simulator().schedule(startNanos, new Action() {
            @Override
            public void run(long t) {
                links[0].send(new Cbr(links, flow, bytes), t);
                net.simulator().schedule(t + SECOND / perSecond, this);
            }
        });
    }

    /**
     * With {@code -Dlayered.background=BYTES}, ten packets of that size a second across the bottleneck
     * R0 -> R1 from a seeded instant of the first 100 ms: what an overlay's hellos put there (105
     * bytes). A check of what a row's figure owes to the phase effects of the simulator's
     * deterministic queues (docs/layered-multicast.md, "Why the module meets less loss"); without the
     * property nothing changes.
     */
    static void backgroundIfAsked(SimNetwork net, long seed) {
        int bytes = Integer.getInteger("layered.background", 0);
        if (bytes > 0) {
            long at = net.simulator().now() + new java.util.SplittableRandom(seed ^ 0x6B67L).nextLong(SECOND / 10);
            background(net, new String[] {"R0", "R1"}, 99, bytes, 10, at);
        }
    }

    private static final class Cbr extends Packet {
        private final SimLink[] path;
        private int hop;

        Cbr(SimLink[] path, long flow) {
            this(path, flow, PACKET);
        }

        Cbr(SimLink[] path, long flow, int bytes) {
            super(bytes, flow);
            this.path = path;
        }

        @Override
        protected void arrive(SimLink via, long now) {
            if (++hop < path.length) {
                path[hop].send(this, now);
            }
        }
    }
}
