package net.hopwise.examples.layered;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * RLM's shared learning within one session of one run: the "add L" message a receiver multicasts to
 * the group before its join experiment on layer L, carried to every other RLM receiver of the
 * session. One instance per session per run and nothing static, since runs of different seeds go in
 * parallel threads.
 *
 * <p>The bus is passive: a message waits in its addressee's inbox until the receiver's next packet or
 * timer after its arrival, when the receiver takes it and dates the experiment from the message's
 * arrival, so no simulator event is needed and the result is the same as if it had been woken. What
 * delays a message is the {@link Delay} the session gives: the propagation delay along the tree
 * between the two receivers' nodes ({@link LayeredSession#treeDelayNanos}), as a multicast from one
 * receiver to the group would take, without queueing (a 40-byte message beside the data, whose queues
 * the receivers' own loss already measures) and without loss.
 */
final class RlmSharedLearning {
    /** How long a control message takes from one receiver's node to another's, nanoseconds. */
    interface Delay {
        long nanos(String from, String to);
    }

    private record Pending(long arrivalNanos, long order, int layer) {
    }

    private static final Comparator<Pending> ARRIVAL = Comparator.comparingLong(Pending::arrivalNanos)
            .thenComparingLong(Pending::order);

    private final Delay delay;
    private final List<Member> members = new ArrayList<>();
    /** Orders messages that arrive at the same instant as they were sent, so a run never depends on the heap's ties. */
    private long order;
    private long sent;

    RlmSharedLearning(Delay delay) {
        this.delay = delay;
    }

    /** A bus whose messages all take {@code nanos}, for tests without a tree. */
    static RlmSharedLearning constantDelay(long nanos) {
        return new RlmSharedLearning((from, to) -> nanos);
    }

    /** Registers a receiver at {@code node}: it hears every later message of the others, and not its own. */
    Member member(String node) {
        Member m = new Member(node);
        members.add(m);
        return m;
    }

    int members() {
        return members.size();
    }

    /** The "add L" messages multicast so far (each counted once, however many receivers heard it). */
    long messagesSent() {
        return sent;
    }

    /** One receiver's end of the bus. */
    final class Member {
        private final String node;
        private final PriorityQueue<Pending> inbox = new PriorityQueue<>(ARRIVAL);
        /** {layer, end} of each experiment heard of and not yet over. */
        private final List<long[]> inProgress = new ArrayList<>();

        private Member(String node) {
            this.node = node;
        }

        /** Multicasts "add {@code layer}" at {@code nowNanos}. */
        void announce(int layer, long nowNanos) {
            sent++;
            for (Member m : members) {
                if (m != this) {
                    m.inbox.add(new Pending(nowNanos + delay.nanos(node, m.node), order++, layer));
                }
            }
        }

        /**
         * Takes the messages arrived by {@code nowNanos}: each is another receiver's experiment, in
         * progress from the message's arrival for {@code detectionNanos}, the listener's own detection
         * timer (it cannot know the experimenter's).
         */
        void hear(long nowNanos, long detectionNanos) {
            for (Pending p; (p = inbox.peek()) != null && p.arrivalNanos() <= nowNanos;) {
                inbox.poll();
                inProgress.add(new long[] {p.layer(), p.arrivalNanos() + detectionNanos});
            }
            inProgress.removeIf(e -> e[1] <= nowNanos);
        }

        /** When the experiments in progress on layers at most {@code layer} end, {@code nowNanos} when there are none. */
        long lowerUntil(int layer, long nowNanos) {
            long until = nowNanos;
            for (long[] e : inProgress) {
                if (e[0] <= layer) {
                    until = Math.max(until, e[1]);
                }
            }
            return until;
        }

        /** The lowest layer above {@code level} with an experiment in progress, -1 when none. */
        int lowestAbove(int level) {
            int lowest = -1;
            for (long[] e : inProgress) {
                if (e[0] > level && (lowest < 0 || e[0] < lowest)) {
                    lowest = (int) e[0];
                }
            }
            return lowest;
        }

        /** When the last experiment in progress above {@code level} ends, -1 when none is. */
        long endAbove(int level) {
            long end = -1;
            for (long[] e : inProgress) {
                if (e[0] > level) {
                    end = Math.max(end, e[1]);
                }
            }
            return end;
        }
    }
}
