package net.hopwise.examples.layered;

import java.time.Duration;
import net.hopwise.multicast.layered.EraConfig;
import net.hopwise.overlay.sim.QueueDiscipline;

/**
 * The parameters the thesis varied in its sensitivity runs (packet size, buffer size) and the two it
 * fixed that a deployment chooses (the adaptation interval, the bunch length), each a system
 * property of the run so that every scenario of {@link BenchmarkTable} and {@link LayeredExperiment}
 * can be swept unchanged. Unset, each is the thesis's value (docs/benchmarks.md, "the sensitivity
 * sweep", gives the commands).
 *
 * <ul>
 *   <li>{@code -Dlayered.packet=bytes}: every packet of the run (default 512);
 *   <li>{@code -Dlayered.bdp=multiple}: DropTail queues of that many bandwidth-delay products
 *       (default 2);
 *   <li>{@code -Dlayered.rai=seconds}: the sessions' adaptation interval (default the preset's, 1 s);
 *   <li>{@code -Dlayered.bunch=packets}: the sessions' bunch length (default the preset's, 2);
 *   <li>{@code -Dlayered.queue=red}: RED (the RED paper's recommended thresholds) instead of DropTail,
 *       of the same size: the thesis names RED and never ran it.
 * </ul>
 *
 * The receivers take the packet size, the interval and the bunch length from the session's
 * announcement and its packets, as on the overlay, so only the sender's configuration carries them.
 */
final class Sweep {
    static final int PACKET_BYTES = positiveInt("layered.packet", EraConfig.DEFAULT_PACKET_BYTES);
    static final double BDP_MULTIPLE = positive("layered.bdp", 2);
    /** The interval a run sets, null when it sets none (the preset's then). */
    private static final Duration RAI = System.getProperty("layered.rai") == null ? null
            : Duration.ofNanos(Math.round(positive("layered.rai", 1) * 1e9));
    /** The bunch length a run sets, 0 when it sets none. */
    private static final int BUNCH = System.getProperty("layered.bunch") == null ? 0
            : positiveInt("layered.bunch", EraConfig.DEFAULT_BUNCH_LENGTH);
    static final boolean RED = red();

    private Sweep() {
    }

    /** {@code config} with the run's packet size, and its interval and bunch length where the run sets them. */
    static EraConfig sender(EraConfig config) {
        EraConfig.Builder b = config.toBuilder().packetBytes(PACKET_BYTES);
        if (RAI != null) {
            b.adaptationInterval(RAI);
        }
        if (BUNCH > 0) {
            b.bunchLength(BUNCH);
        }
        return b.build();
    }

    /** What the run changed from the thesis's settings, for a table's title; empty when nothing. */
    static String describe() {
        StringBuilder s = new StringBuilder();
        if (PACKET_BYTES != EraConfig.DEFAULT_PACKET_BYTES) {
            s.append(", packets of ").append(PACKET_BYTES).append(" B");
        }
        if (BDP_MULTIPLE != 2) {
            s.append(", queues of ").append(BDP_MULTIPLE).append(" x BDP");
        }
        if (RAI != null) {
            s.append(", interval ").append(RAI.toNanos() / 1e9).append(" s");
        }
        if (BUNCH > 0) {
            s.append(", bunches of ").append(BUNCH);
        }
        if (RED) {
            s.append(", RED queues");
        }
        return s.toString();
    }

    /** The queue of {@code packets} the run's discipline gives: DropTail, or RED under {@code -Dlayered.queue=red}. */
    static QueueDiscipline queue(int packets) {
        return RED ? QueueDiscipline.Red.recommended(packets) : new QueueDiscipline.DropTail(packets);
    }

    private static boolean red() {
        String v = System.getProperty("layered.queue", "droptail");
        if (!v.equals("droptail") && !v.equals("red")) {
            throw new IllegalArgumentException("layered.queue must be droptail or red, got '" + v + "'");
        }
        return v.equals("red");
    }

    private static double positive(String property, double otherwise) {
        String v = System.getProperty(property);
        if (v == null) {
            return otherwise;
        }
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " must be a number > 0, got '" + v + "'", e);
        }
        if (!(d > 0) || Double.isInfinite(d)) {
            throw new IllegalArgumentException(property + " must be a number > 0, got " + v);
        }
        return d;
    }

    private static int positiveInt(String property, int otherwise) {
        double d = positive(property, otherwise);
        if (d != Math.rint(d)) {
            throw new IllegalArgumentException(property + " must be a whole number, got " + System.getProperty(property));
        }
        return (int) d;
    }
}
