package net.hopwise.examples.reliable;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import net.hopwise.overlay.reliable.LinkAck;
import net.hopwise.overlay.reliable.ReliableLinkConfig;
import net.hopwise.overlay.reliable.ReliableLinkSender;

/**
 * The trade behind {@link ReliableLinkConfig#DEFAULT_TIMEOUT_MARGIN}, on virtual time: one link of
 * 10 ms each way, a lone 1000-byte packet every 16 ms, 1% loss each way, and pauses of the receiving
 * side (its packets wait until the pause ends, as they do for a JVM or host that stops running), for
 * several least margins of the timeout. Per margin and pause pattern: how many packets were sent again
 * (needed or not) and how late the slowest packet arrived. Seeded: the same arguments give the same table.
 *
 * <pre>
 * java -cp ... net.hopwise.examples.reliable.TimeoutMarginStudy [margins, default 0,0.25,0.5,1] [seconds, default 300]
 * </pre>
 */
public final class TimeoutMarginStudy {
    private static final long MS = 1_000_000L;
    private static final long ONE_WAY = 10 * MS;
    private static final long INTERVAL = 16 * MS;
    private static final double LOSS = 0.01;
    /** Two one-way delays over the path's 10 ms: only a packet recovered by a timeout is this late. */
    private static final long LATE = 30 * MS;
    private static final int SEEDS = 5;

    private TimeoutMarginStudy() {}

    public static void main(String[] args) {
        double[] margins = Arrays.stream((args.length > 0 ? args[0] : "0,0.25,0.5,1").split(","))
                .mapToDouble(Double::parseDouble).toArray();
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        double[][] pauses = {{0, 0}, {1, 10}, {3, 10}, {1, 20}}; // per second, longest in ms (uniform)
        System.out.println("| least margin | pauses per s | longest pause ms | resends | packets later than 30 ms"
                + " | slowest packet ms |");
        System.out.println("|---|---|---|---|---|---|");
        for (double margin : margins) {
            for (double[] p : pauses) {
                long resends = 0;
                long late = 0;
                double slowest = 0;
                for (long seed = 1; seed <= SEEDS; seed++) {
                    long[] r = new Run(margin, p[0], (long) (p[1] * MS), seconds, seed).run();
                    resends += r[0];
                    late += r[1];
                    slowest = Math.max(slowest, r[2] / 1e6);
                }
                System.out.printf("| %.2f | %.0f | %.0f | %d | %d | %.1f |%n", margin, p[0], p[1], resends, late,
                        slowest);
            }
        }
    }

    /** One seeded run of one margin and pause pattern. */
    private static final class Run {
        private final SplittableRandom random;
        private final List<long[]> pauses = new ArrayList<>();
        /**
         * {time, kind (0 data at the receiver, 1 acknowledgement at the sender), sequence or cumulative
         * acknowledgement, order, first selective block's start and end (0, 0: none)}.
         */
        private final PriorityQueue<long[]> events = new PriorityQueue<>(
                Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[3]));
        private final BitSet received = new BitSet();
        private final ReliableLinkSender sender;
        private final int packets;
        private final long end;
        private long order;
        private long now;

        Run(double margin, double pausesPerSecond, long longestPause, int seconds, long seed) {
            random = new SplittableRandom(seed);
            SplittableRandom pauseRandom = random.split();
            end = seconds * 1000L * MS;
            for (long t = 0; pausesPerSecond > 0;) {
                t += (long) (-Math.log(1 - pauseRandom.nextDouble()) / pausesPerSecond * 1e9);
                if (t > end) {
                    break;
                }
                pauses.add(new long[] {t, t + (long) (pauseRandom.nextDouble() * longestPause)});
            }
            packets = (int) (end / INTERVAL);
            sender = new ReliableLinkSender(ReliableLinkConfig.builder().timeoutMargin(margin).build(), 7,
                    (epoch, sequence, base, packet, again) -> {
                        if (random.nextDouble() >= LOSS) {
                            schedule(now + ONE_WAY, 0, sequence);
                        }
                    });
            sender.seedRtt(2 * ONE_WAY);
        }

        private void schedule(long at, int kind, long sequence) {
            schedule(at, kind, sequence, 0, 0);
        }

        private void schedule(long at, int kind, long sequence, long blockStart, long blockEnd) {
            events.add(new long[] {at, kind, sequence, order++, blockStart, blockEnd});
        }

        /** When the receiver gets to what reaches it at {@code t}: after the pause {@code t} falls in. */
        private long receiverTime(long t) {
            for (long[] p : pauses) {
                if (t >= p[0] && t < p[1]) {
                    return p[1];
                }
            }
            return t;
        }

        /** @return {resends, packets later than 30 ms, the slowest packet's delay} */
        long[] run() {
            long[] offered = new long[packets];
            long[] arrived = new long[packets];
            int next = 0;
            while (true) {
                long offerAt = next < packets ? next * INTERVAL : Long.MAX_VALUE;
                long eventAt = events.isEmpty() ? Long.MAX_VALUE : events.peek()[0];
                long timerAt = sender.nextDeadlineNanos();
                long t = Math.min(offerAt, Math.min(eventAt, timerAt));
                if (t == Long.MAX_VALUE) {
                    break;
                }
                now = Math.max(now, t);
                if (t == eventAt) {
                    long[] e = events.poll();
                    if (e[1] == 0) {
                        long at = receiverTime(now);
                        if (at > now) {
                            schedule(at, 0, e[2]);
                            continue;
                        }
                        int sequence = (int) e[2];
                        if (!received.get(sequence)) {
                            received.set(sequence);
                            arrived[sequence] = now;
                        }
                        if (random.nextDouble() >= LOSS) {
                            int cumulative = received.nextClearBit(0);
                            int start = received.nextSetBit(cumulative);
                            schedule(now + ONE_WAY, 1, cumulative, Math.max(start, 0),
                                    start < 0 ? 0 : received.nextClearBit(start));
                        }
                    } else {
                        int[] block = e[5] == 0 ? new int[0] : new int[] {(int) e[4], (int) e[5]};
                        sender.onAck(new LinkAck(7, (int) e[2], block), now);
                    }
                } else if (t == offerAt) {
                    offered[next++] = now;
                    sender.offer(Unpooled.buffer(1000).writeZero(1000), now);
                } else {
                    sender.onTimer(now);
                }
            }
            long late = 0;
            long slowest = 0;
            for (int i = 0; i < packets; i++) {
                long delay = arrived[i] - offered[i];
                late += delay > LATE ? 1 : 0;
                slowest = Math.max(slowest, delay);
            }
            long resends = sender.retransmissions();
            sender.close();
            return new long[] {resends, late, slowest};
        }
    }
}
