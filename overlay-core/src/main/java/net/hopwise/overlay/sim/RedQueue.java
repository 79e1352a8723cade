package net.hopwise.overlay.sim;

import java.util.ArrayDeque;
import java.util.SplittableRandom;

/** Random Early Detection in packet mode, as described by {@link QueueDiscipline.Red}. */
final class RedQueue implements PacketQueue {
    /** Packet size assumed for the idle-time decay: the papers' 1000-byte messages. */
    private static final int TYPICAL_PACKET_BYTES = 1000;

    private final ArrayDeque<Packet> packets = new ArrayDeque<>();
    private final QueueDiscipline.Red red;
    private final SplittableRandom random;
    /** Time to send one typical packet; 0 on an unlimited link, where the queue never builds. */
    private final double typicalTransmitNanos;
    private double average;
    private int sinceLastDrop = -1;
    private long idleSince = -1;
    private long earlyDrops;
    private long forcedDrops;

    RedQueue(QueueDiscipline.Red red, SplittableRandom random, long bandwidthBitsPerSecond) {
        this.red = red;
        this.random = random;
        this.typicalTransmitNanos = bandwidthBitsPerSecond <= 0 ? 0
                : TYPICAL_PACKET_BYTES * 8.0 * 1e9 / bandwidthBitsPerSecond;
    }

    @Override
    public Packet offer(Packet packet, long nowNanos) {
        if (packets.isEmpty() && idleSince >= 0 && typicalTransmitNanos > 0) {
            // While idle the average decays as if the link had sent small packets all along.
            double m = (nowNanos - idleSince) / typicalTransmitNanos;
            average *= Math.pow(1 - red.weight(), m);
        } else {
            average = (1 - red.weight()) * average + red.weight() * packets.size();
        }
        idleSince = -1;
        if (packets.size() >= red.limitPackets()) {
            forcedDrops++;
            sinceLastDrop = 0;
            return packet;
        }
        if (average >= red.maxThreshold()) {
            forcedDrops++;
            sinceLastDrop = 0;
            return packet;
        }
        if (average >= red.minThreshold()) {
            sinceLastDrop++;
            double pb = red.maxProbability() * (average - red.minThreshold())
                    / (red.maxThreshold() - red.minThreshold());
            double denominator = 1 - sinceLastDrop * pb;
            double pa = denominator <= 0 ? 1.0 : pb / denominator;
            if (random.nextDouble() < pa) {
                earlyDrops++;
                sinceLastDrop = 0;
                return packet;
            }
        } else {
            sinceLastDrop = -1;
        }
        packets.addLast(packet);
        return null;
    }

    @Override
    public Packet poll(long nowNanos) {
        return packets.pollFirst();
    }

    @Override
    public int size() {
        return packets.size();
    }

    @Override
    public void idle(long nowNanos) {
        idleSince = nowNanos;
    }

    double average() {
        return average;
    }

    long earlyDrops() {
        return earlyDrops;
    }

    long forcedDrops() {
        return forcedDrops;
    }
}
