package net.hopwise.overlay.sim;

import java.util.SplittableRandom;

/**
 * How a link's queue decides what waits, what is dropped and what goes next. Immutable
 * descriptions; each link builds its own {@link PacketQueue} from one.
 */
public sealed interface QueueDiscipline permits QueueDiscipline.DropTail, QueueDiscipline.Red,
        QueueDiscipline.FairQueue {

    /** ns-2's default queue limit, which the papers' simulations inherited. */
    int DEFAULT_LIMIT_PACKETS = 50;

    /** The default: a DropTail queue of {@link #DEFAULT_LIMIT_PACKETS}. */
    static QueueDiscipline dropTail() {
        return new DropTail(DEFAULT_LIMIT_PACKETS);
    }

    /** Builds a queue for a link of {@code bandwidthBitsPerSecond}, drawing from {@code random}. */
    PacketQueue create(SplittableRandom random, long bandwidthBitsPerSecond);

    /** First in, first out; an arrival finding {@code limitPackets} waiting is dropped. */
    record DropTail(int limitPackets) implements QueueDiscipline {
        public DropTail {
            requirePositive("DropTail limitPackets", limitPackets);
        }

        @Override
        public PacketQueue create(SplittableRandom random, long bandwidthBitsPerSecond) {
            return new DropTailQueue(limitPackets);
        }
    }

    /**
     * Random Early Detection (Floyd and Jacobson 1993), in packets: an average queue length kept as
     * an EWMA of weight {@code weight} at each arrival (decayed over idle time as if small packets
     * had been sent), no drops below {@code minThreshold}, drops with a probability rising to
     * {@code maxProbability} between the thresholds (spread out by the count since the last drop),
     * every arrival dropped above {@code maxThreshold}, and a hard limit of {@code limitPackets}.
     */
    record Red(int limitPackets, double minThreshold, double maxThreshold, double maxProbability, double weight)
            implements QueueDiscipline {
        public Red {
            requirePositive("RED limitPackets", limitPackets);
            if (!(minThreshold >= 0 && minThreshold < maxThreshold && maxThreshold <= limitPackets)) {
                throw new IllegalArgumentException("RED needs 0 <= minThreshold < maxThreshold <= limitPackets, got "
                        + minThreshold + ", " + maxThreshold + ", " + limitPackets);
            }
            if (!(maxProbability > 0 && maxProbability <= 1)) {
                throw new IllegalArgumentException("RED maxProbability must be in (0, 1], got " + maxProbability);
            }
            if (!(weight > 0 && weight <= 1)) {
                throw new IllegalArgumentException("RED weight must be in (0, 1], got " + weight);
            }
        }

        /** The recommended settings of the RED paper for a queue of {@code limitPackets}. */
        public static Red recommended(int limitPackets) {
            return new Red(limitPackets, limitPackets / 10.0, limitPackets * 3 / 10.0, 0.1, 0.002);
        }

        @Override
        public PacketQueue create(SplittableRandom random, long bandwidthBitsPerSecond) {
            return new RedQueue(this, random, bandwidthBitsPerSecond);
        }
    }

    /**
     * Deficit round robin (Shreedhar and Varghese 1995) over the packets' flows: each backlogged
     * flow may send {@code quantumBytes} per round, so flows share the link by bytes whatever their
     * packet sizes. When {@code limitPackets} wait in all, the longest flow loses its last packet,
     * so one aggressive flow cannot starve the others of buffer.
     */
    record FairQueue(int limitPackets, int quantumBytes) implements QueueDiscipline {
        public FairQueue {
            requirePositive("FairQueue limitPackets", limitPackets);
            requirePositive("FairQueue quantumBytes", quantumBytes);
        }

        @Override
        public PacketQueue create(SplittableRandom random, long bandwidthBitsPerSecond) {
            return new DeficitRoundRobinQueue(limitPackets, quantumBytes);
        }
    }

    private static void requirePositive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, got " + value);
        }
    }
}
