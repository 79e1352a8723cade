package net.hopwise.examples.layered;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.examples.layered.LayeredScenarios.Protocol;
import net.hopwise.multicast.layered.EraConfig;
import net.hopwise.multicast.layered.EraDecision;
import net.hopwise.multicast.layered.EraReceiver;
import net.hopwise.multicast.layered.LayerSubscriber;
import net.hopwise.multicast.layered.LayeredPacket;
import net.hopwise.multicast.layered.RttEstimator;
import net.hopwise.multicast.layered.SessionAnnouncement;

/** The receivers' controllers of the simulator's scenarios: each ERA variant's rules, PLM and RLM. */
final class Controllers {
    private Controllers() {
    }

    /** @param seed the receiver's own random stream (RLM's join timers) */
    static LayeredController of(Protocol protocol, EraConfig config, LayerSubscriber subscriber, long seed) {
        if (protocol == Protocol.RLM) {
            // Shared learning is RLM's own; -Dlayered.rlmshared=false runs each receiver alone, for comparison.
            return RlmReceiver.inSession(subscriber, seed, !"false".equals(System.getProperty("layered.rlmshared")));
        }
        if (protocol == Protocol.PLM) {
            return new PlmReceiver(1, subscriber);
        }
        // Synchronised clocks in the simulator, so 2 x the one-way latency from SCT is available.
        RttEstimator rtt = protocol == Protocol.ERA_RTT
                ? RttEstimator.fromTimestamps(Duration.ofMillis(10), Duration.ofMillis(50))
                : protocol == Protocol.ERA_FRIENDLY || protocol == Protocol.ERA_RECOMMENDED || "queue".equals(System.getProperty("layered.rtt"))
                        ? RttEstimator.forwardQueue(Duration.ZERO, Duration.ofMillis(50))
                        : RttEstimator.fixed(Duration.ofMillis(50));
        EraConfig own = switch (protocol) {
            case ERA_EVENTS -> config.toBuilder().lossEvents(true).build();
            case ERA_PLUS -> config.toBuilder().lossEvents(true).estimateIntervals(3).build();
            case ERA_FAIR -> EraConfig.fair();
            case ERA_PROMPT -> EraConfig.prompt();
            case ERA_TFRC -> EraConfig.tfrc();
            case ERA_DRAIN -> EraConfig.prompt().toBuilder().queueDrain(true).build();
            case ERA_FRIENDLY -> EraConfig.friendly();
            case ERA_RECOMMENDED -> EraConfig.recommended();
            default -> config;
        };
        // Experiments' knobs on top of a row's rules (docs/benchmarks.md says which runs used them).
        if (System.getProperty("layered.episode") != null || System.getProperty("layered.paced") != null) {
            own = own.toBuilder().lossHistory(true).lossEpisodeRtts(Double.parseDouble(System.getProperty("layered.episode", "0")))
                    .pacedLoss(Boolean.getBoolean("layered.paced")).build();
        }
        if (Integer.getInteger("layered.additive", 0) > 0) {
            own = own.toBuilder().additiveRise(Integer.getInteger("layered.additive")).build();
        }
        if (Integer.getInteger("layered.floorpackets", 0) > 0) {
            own = own.toBuilder().queueFloorPackets(Integer.getInteger("layered.floorpackets")).build();
        }
        if (System.getProperty("layered.ownpackets") != null) {
            own = own.toBuilder().queueOwnPackets(Double.parseDouble(System.getProperty("layered.ownpackets"))).build();
        }
        if (System.getProperty("layered.episodemax") != null) {
            own = own.toBuilder().lossHistory(true).lossEpisodeMaxRtts(Double.parseDouble(System.getProperty("layered.episodemax"))).build();
        }
        if (System.getProperty("layered.rto") != null) {
            own = own.toBuilder().rtoFactor(Double.parseDouble(System.getProperty("layered.rto"))).build();
        }
        if (Boolean.getBoolean("layered.persecond")) {
            own = own.toBuilder().lossHistory(true).lossEventsPerSecond(true).build();
        }
        if (System.getProperty("layered.intervals") != null) {
            own = own.toBuilder().lossEventIntervals(Integer.getInteger("layered.intervals")).build();
        }
        if (System.getProperty("layered.drain") != null) {
            own = own.toBuilder().queueDrain(Boolean.getBoolean("layered.drain")).build();
        }
        if (Boolean.getBoolean("layered.drainshare")) {
            own = own.toBuilder().queueDrainShare(true).build();
        }
        boolean print = Boolean.getBoolean("layered.trace");
        List<double[]> equationLoss = new ArrayList<>();
        EraReceiver r = new EraReceiver(1, own, rtt, subscriber, d -> {
            // -Dlayered.trace=true prints every receiver's decision trace, as the thesis's Appendix C, each
            // line led by the receiver's seed, which tells the receivers of one run apart.
            if (print) {
                System.out.println("R" + seed + " " + d + " " + java.util.Arrays.toString(d.samples()));
            }
            if (d.kind() == EraDecision.Kind.INTERVAL) {
                equationLoss.add(new double[] {d.nowNanos(), d.lossRate()});
            }
        });
        return new LayeredController() {
            @Override
            public List<double[]> equationLoss() {
                return equationLoss;
            }

            @Override
            public void join(long now) {
                r.join(now);
            }

            @Override
            public void onAnnouncement(SessionAnnouncement a, long now) {
                r.onAnnouncement(a, now);
            }

            @Override
            public void onPacket(LayeredPacket p, long now) {
                r.onPacket(p, now);
            }

            @Override
            public void onTimer(long now) {
                r.onTimer(now);
            }

            @Override
            public long nextDeadlineNanos() {
                return r.nextDeadlineNanos();
            }

            @Override
            public int level() {
                return r.level();
            }

            @Override
            public double rttNanos() {
                return rtt.rttSeconds() * 1e9;
            }
        };
    }
}
