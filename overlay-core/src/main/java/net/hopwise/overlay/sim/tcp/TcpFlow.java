package net.hopwise.overlay.sim.tcp;

import java.util.Objects;
import net.hopwise.overlay.sim.AgentTimer;
import net.hopwise.overlay.sim.DelayStatistics;
import net.hopwise.overlay.sim.Packet;
import net.hopwise.overlay.sim.SimLink;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.Simulator;
import net.hopwise.overlay.sim.TraceKind;

/**
 * An end-to-end TCP connection inside a simulated network, as the papers' baselines were: a
 * {@link TcpSender} at the first node of {@code forward}, a {@link TcpReceiver} at its last, data
 * carried hop by hop over the forward links and ACKs over the reverse links. The segments route
 * themselves along the given links, so they cross the same queues, bandwidths and loss models as
 * overlay traffic would, without any overlay node touching them (the kernel TCP of the papers did
 * not run through the overlay daemons either).
 *
 * <p>The application is a constant-bit-rate source ({@link #constantRate}) or an unlimited bulk
 * transfer ({@link #bulk}). Each delivered message's delay, from generation to in-order delivery,
 * goes into a {@link DelayStatistics}, so delay includes time spent waiting in the sender while the
 * window is closed, as the papers measured it.
 */
public final class TcpFlow {
    private final Simulator simulator;
    private final int id;
    private final TcpConfig config;
    private final SimLink[] forward;
    private final SimLink[] reverse;
    private final TcpSender sender;
    private final TcpReceiver receiver;
    private final AgentTimer timer;
    private final DelayStatistics delays;
    private long generated;

    /**
     * @param id this flow's number: its fair-queuing flow and trace subject
     * @param forward the links data crosses, first to last
     * @param reverse the links ACKs cross, from the receiver back to the sender
     * @param delays where delivered messages' delays go
     */
    public TcpFlow(SimNetwork network, int id, TcpVariant variant, TcpConfig config, SimLink[] forward,
            SimLink[] reverse, DelayStatistics delays) {
        this.simulator = network.simulator();
        this.id = id;
        this.config = Objects.requireNonNull(config, "config");
        this.forward = forward.clone();
        this.reverse = reverse.clone();
        this.delays = Objects.requireNonNull(delays, "delays");
        if (forward.length == 0 || reverse.length == 0) {
            throw new IllegalArgumentException("a flow needs at least one link each way");
        }
        this.sender = new TcpSender(variant, config, this::sendSegment);
        this.receiver = new TcpReceiver(config, variant == TcpVariant.SACK, new ReceiverSide());
        this.timer = new AgentTimer(simulator, id, now -> {
            sender.onTimer(now);
            timer().update(sender.nextDeadlineNanos());
        });
    }

    private AgentTimer timer() {
        return timer;
    }

    /**
     * Generates one message every {@code intervalNanos} from {@code startNanos} while the time is
     * before {@code stopNanos}; message {@code i} is generated at exactly {@code start + i * interval}.
     */
    public void constantRate(long startNanos, long intervalNanos, long stopNanos) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be > 0");
        }
        simulator.schedule(startNanos, new Generator(startNanos, intervalNanos, stopNanos));
    }

    /** Starts an unlimited bulk transfer at {@code startNanos}. */
    public void bulk(long startNanos) {
        simulator.schedule(startNanos, now -> {
            sender.bulk(now);
            timer.update(sender.nextDeadlineNanos());
        });
    }

    public TcpSender sender() {
        return sender;
    }

    public TcpReceiver receiver() {
        return receiver;
    }

    public DelayStatistics delays() {
        return delays;
    }

    /** Messages the source generated so far. */
    public long generated() {
        return generated;
    }

    private void sendSegment(long sequence, long generatedAt, boolean retransmission) {
        forward[0].send(new Segment(this, false, sequence, generatedAt, null, 0,
                config.segmentBytes() + config.headerBytes()), simulator.now());
    }

    private void arrived(Segment s, long nowNanos) {
        if (s.ack) {
            sender.onAck(s.sequence, s.sack, s.sackCount, nowNanos);
            timer.update(sender.nextDeadlineNanos());
        } else {
            receiver.onSegment(s.sequence, s.generatedAt, nowNanos);
        }
    }

    private final class ReceiverSide implements TcpReceiverOutput {
        @Override
        public void sendAck(long cumulative, long[] sackBlocks, int sackBlockCount) {
            long[] copy = sackBlockCount == 0 ? null : java.util.Arrays.copyOf(sackBlocks, 2 * sackBlockCount);
            // SACK option: 2 bytes of kind and length, 8 per block.
            int size = config.headerBytes() + (sackBlockCount == 0 ? 0 : 2 + 8 * sackBlockCount);
            reverse[0].send(new Segment(TcpFlow.this, true, cumulative, 0, copy, sackBlockCount, size),
                    simulator.now());
        }

        @Override
        public void deliver(long sequence, long generatedAtNanos, long nowNanos) {
            delays.add(nowNanos - generatedAtNanos);
            simulator.trace().record(TraceKind.DELIVERED, nowNanos, id, (int) sequence);
        }
    }

    /** A segment in flight, finding its own way along the flow's links. */
    private static final class Segment extends Packet {
        final TcpFlow flow;
        final boolean ack;
        final long sequence;
        final long generatedAt;
        final long[] sack;
        final int sackCount;
        int hop;

        Segment(TcpFlow flow, boolean ack, long sequence, long generatedAt, long[] sack, int sackCount, int size) {
            super(size, flow.id);
            this.flow = flow;
            this.ack = ack;
            this.sequence = sequence;
            this.generatedAt = generatedAt;
            this.sack = sack;
            this.sackCount = sackCount;
        }

        @Override
        protected void arrive(SimLink via, long nowNanos) {
            SimLink[] path = ack ? flow.reverse : flow.forward;
            hop++;
            if (hop < path.length) {
                path[hop].send(this, nowNanos);
            } else {
                flow.arrived(this, nowNanos);
            }
        }
    }

    /** The constant-rate source: one self-rescheduling action. */
    private final class Generator implements net.hopwise.overlay.sim.Action {
        private final long start;
        private final long interval;
        private final long stop;

        Generator(long start, long interval, long stop) {
            this.start = start;
            this.interval = interval;
            this.stop = stop;
        }

        @Override
        public void run(long nowNanos) {
            generated++;
            sender.offer(nowNanos, nowNanos);
            timer.update(sender.nextDeadlineNanos());
            long next = start + generated * interval;
            if (next < stop) {
                simulator.schedule(next, this);
            }
        }
    }
}
